// **runCrawl** runs one real crawl in-process into a temporary folder and hands back its records (for tests and benchmarks).
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../src/crawl/options.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlSummary } from '../../src/crawl-log/tally.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { makeTempDir } from './temp-dir.ts';

/** Options of `runCrawl`: any crawl option except `out`, plus where to keep the state. */
export interface RunCrawlOptions extends Partial<Omit<CrawlOptions, 'out'>> {
  seeds: string[];
  /** Crawl into this folder and keep it. Default: a fresh temporary folder, removed afterwards. */
  out?: string;
  /** Keep the temporary folder (its path is returned as `dir`). Default false. */
  keep?: boolean;
  /** Stops the crawl early. */
  signal?: AbortSignal;
}

/** What one crawl produced. */
export interface CrawlRun {
  records: CrawlRecord[];
  summary: CrawlSummary;
  /** Wall time of `run()`, ms. */
  ms: number;
  /** The state folder (removed unless `out` or `keep` was given). */
  dir: string;
}

/**
 * Opens a crawl, runs it to its budget (or until the frontier is empty), reads every record back in fetch order and
 * closes it. Defaults suited to a local simulated web: `delayMs` 0; everything else is the crawler's default.
 */
export async function runCrawl(options: RunCrawlOptions): Promise<CrawlRun> {
  const { out, keep = false, signal, ...crawl } = options;
  const made = out === undefined ? await makeTempDir('crawl') : null;
  const dir = out ?? (made as { dir: string }).dir;
  try {
    const crawler = await Crawler.open({ delayMs: 0, ...crawl, out: dir });
    let summary: CrawlSummary;
    const records: CrawlRecord[] = [];
    const t0 = performance.now();
    try {
      summary = await crawler.run(signal ? { signal } : {});
      for await (const r of readRecords(crawler.state)) records.push(r);
    } finally {
      await crawler.close();
    }
    return { records, summary, ms: Math.round(performance.now() - t0), dir };
  } finally {
    if (made !== null && !keep) await made.remove();
  }
}
