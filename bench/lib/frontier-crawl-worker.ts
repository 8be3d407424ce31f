// **frontier-crawl-worker** is one step of bench/frontier-crawl-scale.ts in its own process: `prefill` queues N
// generated URLs into a fresh crawl state; `crawl` resumes that state as a real crawl of the simulated web.
// argv[2] is a JSON job; the reply is one IPC message with timings, CPU and peak RSS.
import { Crawler } from '../../src/crawl/crawler.ts';
import { LevelFrontier } from '../../src/frontier/level-frontier.ts';
import type { NewEntry } from '../../src/frontier/types.ts';
import { openState } from '../../src/state/open-state.ts';

export interface PrefillJob {
  mode: 'prefill';
  out: string;
  queued: number;
  /** Hosts of the simulated web: half the generated URLs go there, half to 1,000 other PLDs. */
  hosts: string[];
}
export interface CrawlJob {
  mode: 'crawl';
  out: string;
  seeds: string[];
  proxy: string;
  pages: number;
  concurrency: number;
}

const peakRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
const BATCH = 5000;
/** Behind every real link of a bfs crawl (priority = depth), so the crawl does real pages while these wait. */
const PREFILL_PRIORITY = 1000;

function entry(i: number, hosts: string[]): NewEntry {
  const url = i % 2 === 0 ? `http://${hosts[(i >> 1) % hosts.length]}/prefill/${i}` : `http://www.site${i % 1000}.example/section/${i % 97}/page-${i}.html`;
  return {
    url,
    parent: null,
    depth: 1,
    priority: PREFILL_PRIORITY,
    label: 'H',
    rules: [],
    link: { url, tag: 'a', anchor: `Page ${i}`, title: '', type: '', rel: '', context: `a few words around the link to page ${i}` },
  };
}

async function prefill(job: PrefillJob): Promise<Record<string, number>> {
  const t0 = performance.now();
  const state = await openState(job.out);
  const f = await LevelFrontier.open(state);
  for (let i = 0; i < job.queued; i += BATCH) {
    const txn = state.txn();
    const batch: NewEntry[] = [];
    for (let j = i; j < Math.min(job.queued, i + BATCH); j++) batch.push(entry(j, job.hosts));
    await f.add(batch, txn);
    await txn.commit();
  }
  const queued = f.size().queued;
  await state.close();
  return { queued, prefillMs: Math.round(performance.now() - t0), prefillPeakRssMb: peakRssMb() };
}

async function crawl(job: CrawlJob): Promise<Record<string, number>> {
  const t0 = performance.now();
  const crawler = await Crawler.open({
    out: job.out,
    seeds: job.seeds,
    proxy: job.proxy,
    strategy: 'bfs',
    delayMs: 0,
    hostConcurrency: job.concurrency,
    concurrency: job.concurrency,
    maxDocs: job.pages,
  });
  const openMs = performance.now() - t0;
  const cpu0 = process.cpuUsage();
  const t1 = performance.now();
  let queuedAtEnd = 0;
  const s = await crawler.run({
    onRecord: (p) => {
      queuedAtEnd = p.queued;
    },
  });
  const wallMs = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  await crawler.close();
  return {
    openMs: Math.round(openMs),
    pages: s.fetched,
    pagesPerSec: Math.round((s.fetched / wallMs) * 1000),
    cpuSecPer1kPages: Math.round(((cpu.user + cpu.system) / 1000 / s.fetched) * 100) / 100,
    queuedAtEnd,
    crawlPeakRssMb: peakRssMb(),
  };
}

const job = JSON.parse(process.argv[2] as string) as PrefillJob | CrawlJob;
const result = job.mode === 'prefill' ? await prefill(job) : await crawl(job);
process.send?.(result, () => process.exit(0));
