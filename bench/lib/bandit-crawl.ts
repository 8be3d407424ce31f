// **crawlOnce**: one real crawl of a simulated web under a bandit policy, its reward read from the web's truth (bench/bandit.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import type { SimWeb } from '../../src/simweb/index.ts';

export interface CrawlFigures {
  /** External links on fetched pages of the seed sites (BeeBot's S_R(N)). */
  reward: number;
  /** RDF documents found (thesis runs). */
  rdfDocuments: number;
  /** Fetches spent outside the seed sites (partner sites the engine queued one hop out). */
  offSite: number;
  ms: number;
  /** Fetches in flight on average: the fetches' summed durations over the crawl's run time. */
  inFlight: number;
}

/** Crawls `seeds` in-process (breadth-first inside each site); external links are counted from the truth (exact). */
export async function crawlOnce(
  web: SimWeb,
  seeds: string[],
  opts: { bandit: string; strategy: string; reward: 'external-links' | 'rdf-docs'; budget: number; seed: number; maxDepth: number; keepRecords?: boolean; concurrency?: number; hostConcurrency?: number },
): Promise<CrawlFigures & { records: CrawlRecord[]; rewardCurve: number[] }> {
  const out = await mkdtemp(join(tmpdir(), 'rdfscout-bench-'));
  const t0 = performance.now();
  const crawler = await Crawler.open({
    out,
    seeds,
    proxy: web.proxyUrl,
    allowPrivate: true,
    delayMs: 0,
    concurrency: opts.concurrency ?? 1,
    hostConcurrency: opts.hostConcurrency ?? 1,
    strategy: opts.strategy,
    bandit: opts.bandit,
    reward: opts.reward,
    maxDocs: opts.budget,
    maxDepth: opts.maxDepth,
    seed: opts.seed,
  });
  try {
    const summary = await crawler.run();
    const seedPlds = new Set(seeds.map((u) => web.truthFor(u)?.pld ?? new URL(u).hostname));
    let reward = 0;
    let offSite = 0;
    let fetchMs = 0;
    const records: CrawlRecord[] = [];
    const rewardCurve: number[] = [];
    for await (const r of readRecords(crawler.state)) {
      if (!seedPlds.has(r.pld)) offSite++;
      fetchMs += r.ms;
      if (r.outcome === 'ok') reward += web.truthFor(r.finalUrl)?.externalLinks ?? 0;
      if (opts.keepRecords) {
        records.push(r);
        rewardCurve.push(reward);
      }
    }
    return { reward, rdfDocuments: summary.rdfDocuments, offSite, ms: performance.now() - t0, inFlight: fetchMs / Math.max(1, summary.durationMs), records, rewardCurve };
  } finally {
    await crawler.close();
    await rm(out, { recursive: true, force: true });
  }
}

