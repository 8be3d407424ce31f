// Public face of the report: crawl records → one self-contained HTML file with harvest plots.
export { loadReportCrawl } from './load-crawl.ts';
export { curvePoints, type ReferenceCurve, type ReportCrawlInput } from './report-data.ts';
export { writeReport } from './write-report.ts';
