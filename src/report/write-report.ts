// **writeReport** builds and writes a report file in one call (the CLI, the benchmarks and the demo use it).
import { writeFile } from 'node:fs/promises';
import { renderReport } from './render-report.ts';
import { buildReportData, type ExtraCurves, type ReferenceCurve, type ReportCrawlInput } from './report-data.ts';

/** Writes the report of `crawls` (and reference curves, e.g. the oracle) to `path`; returns its size in bytes. */
export async function writeReport(path: string, crawls: readonly ReportCrawlInput[], opts: { title?: string; note?: string; references?: readonly ReferenceCurve[]; curves?: readonly ExtraCurves[] } = {}): Promise<number> {
  const html = renderReport(buildReportData(crawls, opts.references ?? [], opts.curves ?? []), opts);
  await writeFile(path, html);
  return Buffer.byteLength(html);
}
