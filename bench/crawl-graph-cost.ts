// What the per-fetch crawl-metadata quads cost (issue 8 profile finding 1): the same bfs crawl of a simulated web
// with and without them (`--no-crawl-graph`), alternating, in one run. Prints pages/s, CPU per 1,000 pages, ratio.
// Usage: node bench/crawl-graph-cost.ts [--pages 3000] [--runs 3] [--concurrency 16]
import { parseArgs } from 'node:util';
import { startSimweb } from '../src/simweb/index.ts';
import { runCrawl } from './lib/run-crawl.ts';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '3000' }, runs: { type: 'string', default: '3' }, concurrency: { type: 'string', default: '16' } } });
const pages = Number(values.pages);
const concurrency = Number(values.concurrency);
const web = await startSimweb({ profiles: 'mixed', seed: 1, scale: 0.3 });
const seeds = web.sites.map((s) => s.startUrl);
const results: Record<string, Array<{ rate: number; cpu: number }>> = { 'crawl graph on': [], 'crawl graph off': [] };
try {
  for (let run = 0; run < Number(values.runs); run++) {
    const order = run % 2 === 0 ? [true, false] : [false, true];
    for (const crawlGraph of order) {
      const cpu0 = process.cpuUsage();
      const r = await runCrawl({ seeds, proxy: web.proxyUrl, strategy: 'bfs', bandit: 'none', crawlGraph, maxDocs: pages, concurrency, hostConcurrency: concurrency });
      const cpu = process.cpuUsage(cpu0);
      const label = crawlGraph ? 'crawl graph on' : 'crawl graph off';
      results[label]!.push({ rate: (r.summary.fetched / r.ms) * 1000, cpu: ((cpu.user + cpu.system) / 1e6 / r.summary.fetched) * 1000 });
      console.error(`run ${run + 1} ${label}: ${r.summary.fetched} pages in ${(r.ms / 1000).toFixed(1)} s`);
    }
  }
} finally {
  await web.close();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const on = results['crawl graph on']!;
const off = results['crawl graph off']!;
console.log('setting           pages/s  CPU s/1k pages   (medians; CPU includes the simulated web, same process)');
for (const [label, rs] of Object.entries(results)) {
  console.log(`${label.padEnd(16)} ${median(rs.map((r) => r.rate)).toFixed(1).padStart(8)} ${median(rs.map((r) => r.cpu)).toFixed(2).padStart(15)}`);
}
console.log(`off/on pages/s ratio: ${(median(off.map((r) => r.rate)) / median(on.map((r) => r.rate))).toFixed(2)}`);
