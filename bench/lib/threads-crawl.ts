// **threads-crawl** runs one crawl with `--threads N` in its own process and reports its wall time, CPU (the whole
// process, and the main thread alone), the event loop's longest stall and peak RSS to the parent (bench/threads.ts).
// argv[2] is a JSON `ThreadsJob`; the reply is one `ThreadsReport` message.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Crawler } from '../../src/crawl/crawler.ts';
import { type CpuMark, cpuMark, cpuMsSince, peakRssMb } from './cpu-time.ts';
import { threadCpuMs } from './thread-cpu.ts';

export interface ThreadsJob {
  seeds: string[];
  /** The simulated web's proxy, or null (a site on 127.0.0.1 reached directly). */
  proxy: string | null;
  pages: number;
  concurrency: number;
  /** --threads and --thread-min-kb; undefined: the defaults. */
  threads?: number;
  threadMinKb?: number;
}

export interface ThreadsReport {
  pages: number;
  triples: number;
  wallMs: number;
  /** CPU of the whole process (every thread), ms. */
  cpuMs: number;
  /** CPU of the crawl's main thread alone, ms. */
  mainCpuMs: number;
  /** The event loop's longest delay and its 99th percentile, ms (how long a fetch could wait for the main thread). */
  loopMaxMs: number;
  loopP99Ms: number;
  peakRssMb: number;
  threads: Record<string, number>;
}

const job = JSON.parse(process.argv[2] as string) as ThreadsJob;
const out = await mkdtemp(join(tmpdir(), 'rdfscout-threads-'));
try {
  const crawler = await Crawler.open({
    out,
    seeds: job.seeds,
    ...(job.proxy === null ? { allowPrivate: true } : { proxy: job.proxy }),
    strategy: 'bfs',
    delayMs: 0,
    hostConcurrency: job.concurrency,
    concurrency: job.concurrency,
    maxDocs: job.pages,
    ...(job.threads === undefined ? {} : { threads: job.threads }),
    ...(job.threadMinKb === undefined ? {} : { threadMinKb: job.threadMinKb }),
  });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const cpu0: CpuMark = cpuMark();
  const main0 = process.threadCpuUsage();
  const t0 = performance.now();
  loop.enable();
  let s: Awaited<ReturnType<Crawler['run']>>;
  try {
    s = await crawler.run();
  } finally {
    await crawler.close();
  }
  loop.disable();
  const wallMs = performance.now() - t0;
  const main = process.threadCpuUsage(main0);
  const report: ThreadsReport = {
    pages: s.fetched,
    triples: s.triples,
    wallMs,
    cpuMs: cpuMsSince(cpu0),
    mainCpuMs: (main.user + main.system) / 1000,
    loopMaxMs: loop.max / 1e6,
    loopP99Ms: loop.percentile(99) / 1e6,
    peakRssMb: peakRssMb(),
    threads: threadCpuMs(),
  };
  process.send?.(report, () => process.exit(0));
} finally {
  await rm(out, { recursive: true, force: true });
}
