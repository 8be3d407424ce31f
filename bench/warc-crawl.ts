// **warc-crawl** measures what `--warc` adds to a crawl's CPU per page (issue 18: ≤ 15%), comparing this checkout
// with an older one in one run: bfs crawls of the simulated web without `--warc`, and with it at gzip levels 1 and
// 0, each in a fresh process, in alternating order (round r runs the contestants forwards or backwards).
// Run: node_modules/.bin/node bench/warc-crawl.ts [--pages 4000] [--rounds 3] [--baseline DIR]
// --baseline DIR: an older checkout's tree (`git archive REV src | tar -x -C DIR`, with node_modules and package.json
// beside it), whose `--warc` crawls run as the contestants `base1` and `base0`.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { askChild } from './lib/child-message.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '3' },
    baseline: { type: 'string' },
  },
});
const here = join(import.meta.dirname, '../src');
const contestants: { name: string; src: string; level: number | null }[] = [
  { name: 'plain', src: here, level: null },
  { name: 'warc1', src: here, level: 1 },
  { name: 'warc0', src: here, level: 0 },
];
if (values.baseline) contestants.push({ name: 'base1', src: join(values.baseline, 'src'), level: 1 }, { name: 'base0', src: join(values.baseline, 'src'), level: 0 });

const server = fork(join(import.meta.dirname, 'lib/simweb-process.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const ready = await askChild<{ proxyUrl: string; seeds: string[] }>(server, 'ready', false);
const cpu = new Map(contestants.map((c) => [c.name, [] as number[]]));
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? contestants : [...contestants].reverse();
    for (const c of order) {
      const job = { src: c.src, seeds: ready.seeds, proxy: ready.proxyUrl, pages: Number(values.pages), level: c.level };
      const child = fork(join(import.meta.dirname, 'lib/warc-crawl-worker.ts'), [JSON.stringify(job)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const m = await new Promise<{ pages: number; cpuMs: number }>((resolve, reject) => {
        child.once('message', (msg) => resolve(msg as { pages: number; cpuMs: number }));
        child.once('exit', (code) => reject(new Error(`${c.name} exited with ${code} without a report`)));
      });
      cpu.get(c.name)?.push(m.cpuMs / m.pages);
      console.log(`round ${round + 1} ${c.name.padEnd(6)} ${(m.cpuMs / m.pages).toFixed(3)} CPU s per 1,000 pages (${m.pages} pages)`);
    }
  }
} finally {
  server.send({ type: 'close' });
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const plain = median(cpu.get('plain') ?? []);
console.log('\nmedians (CPU s per 1,000 pages, all threads) and ratio to plain:');
for (const [name, xs] of cpu) console.log(`  ${name.padEnd(6)} ${median(xs).toFixed(3)}  ×${(median(xs) / plain).toFixed(3)}  [${xs.map((x) => x.toFixed(2)).join(' ')}]`);
