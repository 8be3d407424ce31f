// Public face of the report: crawl records → one self-contained HTML file with harvest plots (issue 19).
export { loadReportCrawl } from './load-crawl.ts';
export { renderReport } from './render-report.ts';
export { buildReportData, curvePoints, type ExtraCurves, MAX_POINTS, type ReferenceCurve, type ReportCrawlInput, type ReportData, sampleKs } from './report-data.ts';
export { writeReport } from './write-report.ts';
