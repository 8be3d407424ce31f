// **bench/index-worker** compares a CPU-bound crawl (the simulated web, --delay-ms 0) indexing on the main thread with
// the same crawl indexing in a worker thread (RDFSCOUT_INDEX_WORKER=0 / 1), side by side: each round runs both in
// fresh processes, in alternating order, and the medians of pages/s and CPU per 1,000 pages (every thread of the
// crawl's process) are printed with their ratios. The web runs in its own process.
// Run: npm run bench:index-worker -- [--pages 3000] [--rounds 3] [--concurrency 16] [--profiles mixed] [--scale 1]
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { askChild } from './lib/child-message.ts';
import { median } from './lib/stats.ts';
import type { WorkerJob, WorkerReport } from './lib/throughput-worker.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    profiles: { type: 'string', default: 'mixed' },
    scale: { type: 'string', default: '1' },
  },
});
const HERE = import.meta.dirname;
const MODES = [
  ['main thread', '0'],
  ['worker thread', '1'],
] as const;

async function crawl(job: WorkerJob, worker: string): Promise<WorkerReport> {
  const child = fork(join(HERE, 'lib/throughput-worker.ts'), [JSON.stringify(job)], {
    env: { ...process.env, RDFSCOUT_INDEX_WORKER: worker },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const report = await new Promise<WorkerReport>((resolve, reject) => {
    child.once('message', (m) => resolve(m as WorkerReport));
    child.once('exit', (code) => reject(new Error(`the crawl exited with ${code} without a report`)));
  });
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  return report;
}

const web = fork(join(HERE, 'lib/simweb-process.ts'), ['--profiles', values.profiles, '--scale', values.scale], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
try {
  const ready = await askChild<{ proxyUrl: string; seeds: string[] }>(web, 'ready', false);
  const job: WorkerJob = { contestant: 'rdfscout-bfs', seeds: ready.seeds, proxy: ready.proxyUrl, pages: Number(values.pages), concurrency: Number(values.concurrency) };
  const load0 = loadavg()[0] ?? 0;
  const runs = new Map<string, WorkerReport[]>(MODES.map(([name]) => [name, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? MODES : [...MODES].reverse();
    for (const [name, env] of order) {
      const r = await crawl(job, env);
      runs.get(name)?.push(r);
      const threads = Object.entries(r.threads).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([t, ms]) => `${t} ${(ms / r.pages).toFixed(2)}`);
      process.stderr.write(`  round ${round + 1} ${name}: ${r.pages} pages, ${((r.pages / r.wallMs) * 1000).toFixed(0)} pages/s, ${(r.cpuMs / r.pages).toFixed(2)} CPU s/1k (${threads.join(', ')}), RSS ${r.peakRssMb} MB\n`);
    }
  }
  console.log(`simweb ${values.profiles} ×${values.scale}, ${values.pages} pages a crawl, concurrency ${values.concurrency}, ${values.rounds} rounds; load average ${load0.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`);
  const base = runs.get(MODES[0][0]) ?? [];
  const basePps = median(base.map((r) => (r.pages / r.wallMs) * 1000));
  const baseCpu = median(base.map((r) => r.cpuMs / r.pages));
  for (const [name] of MODES) {
    const rs = runs.get(name) ?? [];
    const pps = median(rs.map((r) => (r.pages / r.wallMs) * 1000));
    const cpu = median(rs.map((r) => r.cpuMs / r.pages));
    const rss = median(rs.map((r) => r.peakRssMb));
    console.log(`${name.padEnd(14)} ${pps.toFixed(0).padStart(5)} pages/s (×${(pps / basePps).toFixed(2)})  ${cpu.toFixed(2)} CPU s/1k pages (×${(cpu / baseCpu).toFixed(2)})  peak RSS ${rss.toFixed(0)} MB`);
  }
} finally {
  web.send({ type: 'close' });
}
