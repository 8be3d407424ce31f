// **warc-crawl-worker** runs one bfs crawl for bench/warc-crawl.ts (with or without `--warc`, with the src tree given)
// and reports its CPU per page: all threads of this process, user + system.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Job {
  src: string;
  seeds: string[];
  proxy: string;
  pages: number;
  /** The `--warc-gzip-level`, or null for no `--warc`. */
  level: number | null;
}

const job = JSON.parse(process.argv[2] as string) as Job;
const { Crawler } = (await import(join(job.src, 'crawl/crawler.ts'))) as typeof import('../../src/crawl/crawler.ts');
const cpu0 = process.cpuUsage();
const out = await mkdtemp(join(tmpdir(), 'rdfscout-warc-crawl-'));
try {
  const crawler = await Crawler.open(
    { out, seeds: job.seeds, proxy: job.proxy, strategy: 'bfs', delayMs: 0, hostConcurrency: 16, concurrency: 16, maxDocs: job.pages },
    job.level === null ? {} : { warc: { target: join(out, 'warc/'), gzipLevel: job.level } },
  );
  let fetched: number;
  try {
    fetched = (await crawler.run()).fetched;
  } finally {
    await crawler.close(); // with --warc: its queue is written before the CPU is read
  }
  const cpu = process.cpuUsage(cpu0);
  process.send?.({ pages: fetched, cpuMs: (cpu.user + cpu.system) / 1000 }, () => process.exit(0));
} finally {
  await rm(out, { recursive: true, force: true });
}
