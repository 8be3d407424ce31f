// Runs one in-process crawl for the hostile suite and returns its records, stored graphs, wall time and peak RSS growth.
import { join } from 'node:path';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../src/crawl/options.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlSummary } from '../../src/crawl-log/tally.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';

const MB = 1024 * 1024;

export interface HostileCrawl {
  summary: CrawlSummary;
  records: CrawlRecord[];
  /** Records by URL path (first 200 characters), for `origin`. */
  byPath: Map<string, CrawlRecord>;
  /** Stored triples per document graph (the crawl-metadata graph left out). */
  graphs: Map<string, number>;
  elapsedMs: number;
  peakRssGrowthMb: number;
}

/** Crawls `seeds` into `dir/out` with small timeouts, sampling RSS every 20 ms. */
export async function runHostileCrawl(dir: string, origin: string, seeds: string[], options: Partial<CrawlOptions> = {}): Promise<HostileCrawl> {
  const rss0 = process.memoryUsage().rss;
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, (process.memoryUsage().rss - rss0) / MB);
  }, 20);
  const t0 = performance.now();
  const crawler = await Crawler.open({
    out: join(dir, 'out'),
    seeds,
    strategy: 'bfs',
    allowPrivate: true,
    delayMs: 0,
    maxDocs: 300,
    maxDepth: 1,
    maxRetries: 0,
    concurrency: 6,
    hostConcurrency: 6,
    connectTimeoutMs: 1000,
    headersTimeoutMs: 1500,
    bodyTimeoutMs: 1500,
    totalTimeoutMs: 3000,
    ...options,
  });
  try {
    const summary = await crawler.run();
    const elapsedMs = performance.now() - t0;
    clearInterval(sampler);
    const records: CrawlRecord[] = [];
    for await (const r of readRecords(crawler.state)) records.push(r);
    const graphs = new Map<string, number>();
    const { items } = await crawler.state.quadstore.get({});
    for (const q of items) {
      if (q.graph.value !== 'urn:rdfscout:crawl') graphs.set(q.graph.value, (graphs.get(q.graph.value) ?? 0) + 1);
    }
    if (process.env.HOSTILE_DUMP) {
      for (const r of records) {
        const m = r.errorMessage?.slice(0, 100);
        console.log(JSON.stringify({ q: r.seq, u: r.url.slice(origin.length, origin.length + 40), o: r.outcome, s: r.status, d: r.detectedType, e: r.error, m, t: r.triples, l: r.linksQueued, ms: r.ms }));
      }
    }
    const byPath = new Map(records.map((r) => [r.url.slice(origin.length).slice(0, 200), r]));
    return { summary, records, byPath, graphs, elapsedMs, peakRssGrowthMb: peak };
  } finally {
    clearInterval(sampler);
    await crawler.close();
  }
}

/** The record of `path`, or a failure that lists what was recorded. */
export function recordOf(crawl: HostileCrawl, path: string): CrawlRecord {
  const r = crawl.byPath.get(path);
  if (r === undefined) throw new Error(`no record for ${path}; have ${[...crawl.byPath.keys()].join(' ')}`);
  return r;
}
