// **bench/threads** compares a CPU-bound crawl (--delay-ms 0, bfs) parsing on its main thread with the same crawl
// parsing in worker threads, side by side: each round runs every mode in a fresh process, in alternating order, and
// the medians of pages/s, CPU per 1,000 pages (the whole process, and its main thread alone), the event loop's longest
// stall and peak RSS are printed with their ratios to the first mode. A mode: `0` (--threads 0, the default: every document
// on the main thread), `N` (--threads N --thread-min-kb 0: every document in N workers), `large` (--threads 1:
// documents of 256 kB or more in one worker).
// Webs (in their own process): `default` (the simulated web), `pad32` (its HTML pages padded to 32 kB), `large` (a
// site of small pages and small Turtle documents on 127.0.0.1 with a 2 MB Turtle report behind every 400th page).
// Run: npm run bench:threads -- [--web default|pad32|large] [--modes 0,large,1,2] [--pages 3000] [--rounds 3] [--concurrency 16]
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { askChild, webCpuMs } from './lib/child-message.ts';
import { median } from './lib/stats.ts';
import type { ThreadsJob, ThreadsReport } from './lib/threads-crawl.ts';

const { values } = parseArgs({
  options: {
    web: { type: 'string', default: 'default' },
    modes: { type: 'string', default: '0,large,1' },
    pages: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
  },
});
const HERE = import.meta.dirname;
const modes = values.modes.split(',');
const flagsOf = (mode: string): Pick<ThreadsJob, 'threads' | 'threadMinKb'> => (mode === 'large' ? { threads: 1 } : { threads: Number(mode), threadMinKb: 0 });
const nameOf = (mode: string): string => (mode === 'large' ? '--threads 1 (≥ 256 kB)' : `--threads ${mode}`.padEnd(22));

async function crawl(job: ThreadsJob): Promise<ThreadsReport> {
  const child = fork(join(HERE, 'lib/threads-crawl.ts'), [JSON.stringify(job)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const report = await new Promise<ThreadsReport>((resolve, reject) => {
    child.once('message', (m) => resolve(m as ThreadsReport));
    child.once('exit', (code) => reject(new Error(`the crawl exited with ${code} without a report`)));
  });
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  return report;
}

/** The web's process and where the crawl starts. */
async function startWeb(): Promise<{ web: ChildProcess; seeds: string[]; proxy: string | null }> {
  if (values.web === 'large') {
    const web = fork(join(HERE, 'lib/big-docs-web.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = await askChild<{ origin: string }>(web, 'ready', false);
    return { web, seeds: [`${ready.origin}/p/0.html`], proxy: null };
  }
  const pad = values.web === 'pad32' ? ['--html-pad-kb', '32'] : [];
  const web = fork(join(HERE, 'lib/simweb-process.ts'), ['--profiles', 'mixed', ...pad], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await askChild<{ proxyUrl: string; seeds: string[] }>(web, 'ready', false);
  return { web, seeds: ready.seeds, proxy: ready.proxyUrl };
}

const { web, seeds, proxy } = await startWeb();
try {
  const load0 = loadavg()[0] ?? 0;
  const runs = new Map<string, ThreadsReport[]>(modes.map((m) => [m, []]));
  const webCpu: number[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? modes : [...modes].reverse();
    for (const mode of order) {
      const w0 = values.web === 'large' ? 0 : await webCpuMs(web);
      const r = await crawl({ seeds, proxy, pages: Number(values.pages), concurrency: Number(values.concurrency), ...flagsOf(mode) });
      if (values.web !== 'large') webCpu.push(((await webCpuMs(web)) - w0) / r.wallMs);
      runs.get(mode)?.push(r);
      const top = Object.entries(r.threads).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([t, ms]) => `${t} ${(ms / r.pages).toFixed(2)}`);
      process.stderr.write(
        `  round ${round + 1} ${nameOf(mode)}: ${r.pages} pages, ${((r.pages / r.wallMs) * 1000).toFixed(0)} pages/s, ${(r.cpuMs / r.pages).toFixed(2)} CPU s/1k (main ${(r.mainCpuMs / r.pages).toFixed(2)}; ${top.join(', ')}), loop stall max ${r.loopMaxMs.toFixed(0)} ms, RSS ${r.peakRssMb} MB\n`,
      );
    }
  }
  const webShare = webCpu.length > 0 ? `; the web's process ${(median(webCpu) * 100).toFixed(0)}% of a core` : '';
  console.log(`web ${values.web}, ${values.pages} pages a crawl, concurrency ${values.concurrency}, ${values.rounds} rounds; load average ${load0.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}${webShare}`);
  const med = (rs: ThreadsReport[], f: (r: ThreadsReport) => number) => median(rs.map(f));
  const base = runs.get(modes[0] as string) ?? [];
  const basePps = med(base, (r) => (r.pages / r.wallMs) * 1000);
  const baseCpu = med(base, (r) => r.cpuMs / r.pages);
  for (const mode of modes) {
    const rs = runs.get(mode) ?? [];
    const pps = med(rs, (r) => (r.pages / r.wallMs) * 1000);
    const cpu = med(rs, (r) => r.cpuMs / r.pages);
    console.log(
      `${nameOf(mode)}  ${pps.toFixed(0).padStart(5)} pages/s (×${(pps / basePps).toFixed(2)})  ${cpu.toFixed(2)} CPU s/1k pages (×${(cpu / baseCpu).toFixed(2)}), main thread ${med(rs, (r) => r.mainCpuMs / r.pages).toFixed(2)}  ` +
        `loop stall max ${med(rs, (r) => r.loopMaxMs).toFixed(0)} ms (p99 ${med(rs, (r) => r.loopP99Ms).toFixed(0)})  peak RSS ${med(rs, (r) => r.peakRssMb).toFixed(0)} MB  triples ${med(rs, (r) => r.triples)}`,
    );
  }
} finally {
  web.send({ type: 'close' });
}
