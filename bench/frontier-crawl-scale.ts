// **frontier-crawl-scale** asks whether a crawl step costs more when the frontier is bigger: a crawl state
// is pre-filled with N queued URLs (10k, 100k, 1M), then resumed as a real bfs crawl of the simulated web for a
// fixed number of pages. Reports pages/s, CPU, open (resume) time and peak RSS per N, each step in its own process.
// Run: node_modules/.bin/node bench/frontier-crawl-scale.ts [--sizes 10000,100000,1000000] [--pages 2000]
//      [--concurrency 16] [--json FILE] [--cpu-prof DIR (profiles each crawl step)]
import { type ChildProcess, fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CrawlJob, PrefillJob } from './lib/frontier-crawl-worker.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    pages: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    json: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const HERE = import.meta.dirname;

function message<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} without a report`)));
  });
}

async function step(job: PrefillJob | CrawlJob): Promise<Record<string, number>> {
  const dir = values['cpu-prof'];
  const execArgv = dir !== undefined && job.mode === 'crawl' ? ['--cpu-prof', '--cpu-prof-dir', dir] : [];
  const child = fork(join(HERE, 'lib/frontier-crawl-worker.ts'), [JSON.stringify(job)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return message(child);
}

async function main(): Promise<void> {
  const server = fork(join(HERE, 'lib/simweb-process.ts'), ['--profiles', 'mixed'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await message<{ proxyUrl: string; seeds: string[] }>(server);
  const hosts = ready.seeds.map((s) => new URL(s).host);
  const rows: Record<string, number>[] = [];
  try {
    for (const n of values.sizes.split(',').map(Number)) {
      const out = await mkdtemp(join(tmpdir(), 'rdfscout-scale-'));
      try {
        const pre = await step({ mode: 'prefill', out, queued: n, hosts });
        const run = await step({ mode: 'crawl', out, seeds: ready.seeds, proxy: ready.proxyUrl, pages: Number(values.pages), concurrency: Number(values.concurrency) });
        const row = { prefilled: n, ...pre, ...run };
        rows.push(row);
        console.log(JSON.stringify(row));
      } finally {
        await rm(out, { recursive: true, force: true });
      }
    }
  } finally {
    server.send({ type: 'close' });
  }
  console.table(rows);
  const base = rows[0]?.pagesPerSec ?? 0;
  for (const r of rows) console.log(`${String(r.prefilled).padStart(8)} queued: ${r.pagesPerSec} pages/s = ${Math.round(((r.pagesPerSec ?? 0) / base) * 100)}% of the smallest; crawl peak RSS ${r.crawlPeakRssMb} MB`);
  const file = values.json ?? join(HERE, 'results', `frontier-crawl-scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`written ${file}`);
}

await main();
