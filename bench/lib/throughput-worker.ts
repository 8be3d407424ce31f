// **throughput-worker** runs one benchmark contestant in its own process and reports wall time, CPU and peak RSS to
// the parent over IPC (bench/throughput.ts forks it once per contestant and run).
// argv[2] is a JSON `WorkerJob`; the reply is one `WorkerReport` message.
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler } from '../../src/crawl/crawler.ts';
import { runCrawlee } from './crawlee-peer.ts';
import { type FloorStage, runFloorLoop } from './floor-loop.ts';
import { type LoopResult, runMinimalLoop } from './minimal-loop.ts';
import { type CpuMark, cpuMark, cpuMsSince, peakRssMb } from './cpu-time.ts';
import { threadCpuMs } from './thread-cpu.ts';

/** Contestants of the throughput benchmark. */
export type Contestant =
  | 'rdfscout-bfs'
  | 'rdfscout-bfs-warc'
  | 'rdfscout-bfs-warc0'
  | 'rdfscout-fc-r+hr'
  | 'rdfscout-yield'
  | 'crawlee'
  | 'limit'
  | 'floor-fetch'
  | 'floor-rdf'
  | 'floor-store'
  | 'floor-index'
  | 'floor-index-reread'
  | 'floor-frontier';

export interface WorkerJob {
  contestant: Contestant;
  seeds: string[];
  proxy: string;
  pages: number;
  concurrency: number;
  /** Floor contestants: a JSON file with the URLs to fetch, in order (another crawl's requests; see minimal-loop.ts). */
  urlsFile?: string;
}

export interface WorkerReport {
  contestant: Contestant;
  pages: number;
  wallMs: number;
  /** CPU of this process during the crawl, ms (user + system). */
  cpuMs: number;
  /** Peak RSS of this process over its life, MB. */
  peakRssMb: number;
  byStatus: Record<string, number>;
  /** CPU ms of this process per thread name over its life (Linux; empty elsewhere): JavaScript vs LevelDB, libuv, V8 helpers. */
  threads: Record<string, number>;
  extra: Record<string, unknown>;
}

/** `warc`: the same crawl with `--warc` into a folder of the temp dir (≤ 15% more CPU per page). */
async function runRdfscout(job: WorkerJob, strategy: string, warc: { gzipLevel: number } | null = null): Promise<LoopResult & { extra: Record<string, unknown> }> {
  const out = await mkdtemp(join(tmpdir(), 'rdfscout-bench-'));
  try {
    const crawler = await Crawler.open(
      {
      out,
      seeds: job.seeds,
      proxy: job.proxy,
      strategy,
      delayMs: 0,
      hostConcurrency: job.concurrency,
      concurrency: job.concurrency,
      maxDocs: job.pages,
      },
      warc ? { warc: { target: join(out, 'warc/'), gzipLevel: warc.gzipLevel } } : {},
    );
    let s: Awaited<ReturnType<Crawler['run']>>;
    try {
      s = await crawler.run();
    } finally {
      await crawler.close(); // with --warc: its queue is written before the CPU is read
    }
    let warcBytes = 0;
    if (warc) for (const f of await readdir(join(out, 'warc'))) warcBytes += (await stat(join(out, 'warc', f))).size;
    return { pages: s.fetched, byStatus: s.byStatus, bytes: 0, extra: { rdfDocuments: s.rdfDocuments, triples: s.triples, errors: s.errors, stoppedBy: s.stoppedBy, warcBytes } };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] as string) as WorkerJob;
  const urls = job.urlsFile === undefined ? undefined : (JSON.parse(await readFile(job.urlsFile, 'utf8')) as string[]);
  const loop = urls === undefined ? job : { ...job, urls, pages: urls.length };
  const cpu0: CpuMark = cpuMark();
  const t0 = performance.now();
  let r: LoopResult & { extra?: Record<string, unknown> };
  switch (job.contestant) {
    case 'rdfscout-bfs':
      r = await runRdfscout(job, 'bfs');
      break;
    case 'rdfscout-bfs-warc':
      r = await runRdfscout(job, 'bfs', { gzipLevel: 1 });
      break;
    case 'rdfscout-bfs-warc0':
      r = await runRdfscout(job, 'bfs', { gzipLevel: 0 });
      break;
    case 'rdfscout-fc-r+hr':
      r = await runRdfscout(job, 'fc-r+hr');
      break;
    case 'rdfscout-yield':
      r = await runRdfscout(job, 'yield');
      break;
    case 'crawlee':
      r = await runCrawlee({ ...job, robots: false }); // Crawlee's default; with robots on it ran at ~2 pages/s here
      break;
    case 'limit':
      r = await runMinimalLoop(job);
      break;
    default: // floor-fetch, floor-rdf, floor-store, floor-index, floor-index-reread, floor-frontier
      if (!job.contestant.startsWith('floor-')) throw new Error(`unknown contestant ${job.contestant}`);
      r = await runFloorLoop(loop, job.contestant.slice('floor-'.length) as FloorStage);
  }
  const wallMs = performance.now() - t0;
  const report: WorkerReport = {
    contestant: job.contestant,
    pages: r.pages,
    wallMs,
    cpuMs: cpuMsSince(cpu0),
    peakRssMb: peakRssMb(),
    byStatus: r.byStatus,
    threads: threadCpuMs(),
    extra: r.extra ?? {},
  };
  process.send?.(report, () => process.exit(0));
}

await main();
