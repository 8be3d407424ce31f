// **loadReportCrawl** reads a crawl folder for the report: its records in fetch order and its scheduler's name.
import { access } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { readStoredOptions } from '../crawl/crawl-meta.ts';
import { readRecords } from '../crawl-log/record-store.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import { ArgumentError } from '../errors.ts';
import { openState } from '../state/open-state.ts';
import type { ReportCrawlInput } from './report-data.ts';

/** Opens `dir` read-only in effect (nothing is written), reads every record, closes it. */
export async function loadReportCrawl(dir: string): Promise<ReportCrawlInput> {
  try {
    await access(join(dir, 'db'));
  } catch {
    throw new ArgumentError(`${dir} holds no crawl (no ${join(dir, 'db')}). Give the --out folder of a crawl.`);
  }
  const state = await openState(dir);
  const records: CrawlRecord[] = [];
  let options: { strategy?: string; bandit?: string } | undefined;
  try {
    for await (const r of readRecords(state)) records.push(r);
    options = (await readStoredOptions(state)) as typeof options;
  } finally {
    await state.close();
  }
  const name = `${basename(resolve(dir))}${options?.strategy ? ` (${options.strategy})` : ''}`;
  return { name, records, ...(options?.bandit ? { bandit: options.bandit } : {}) };
}
