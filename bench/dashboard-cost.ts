// **dashboard-cost** measures what watching a crawl costs: CPU per page of the crawling process with the
// live dashboard served and open in a headless Chromium (SSE at 1 Hz), against the same crawl without it.
// Run: node_modules/.bin/node bench/dashboard-cost.ts [--pages 4000] [--runs 3] [--concurrency 8] [--profiles thesis] [--scale 1]
// The simulated web runs in its own process (bench/lib/simweb-process.ts) and Chromium in its own, so the figure is
// the crawler's process alone: fetch, parse, store, plus the record channel, the live state and the event stream.
// Runs alternate (off, on, on, off, …) so that a slow phase of the machine does not favour one side.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CrawlControl } from '../src/crawl/control.ts';
import { Crawler } from '../src/crawl/crawler.ts';
import { CrawlTally } from '../src/crawl-log/tally.ts';
import type { CrawlRecord } from '../src/crawl-log/record.ts';
import { createDashboard, LiveState } from '../src/dashboard/index.ts';
import { startEndpoint } from '../src/sparql/index.ts';
import { cpuMark, cpuMsSince } from './lib/cpu-time.ts';
import { median } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '4000' },
    runs: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    profiles: { type: 'string', default: 'thesis' },
    scale: { type: 'string', default: '1' },
  },
});
const PAGES = Number(values.pages);
const RUNS = Number(values.runs);

interface Ready {
  type: 'ready';
  proxyUrl: string;
  seeds: string[];
}

const server: ChildProcess = fork(join(import.meta.dirname, 'lib/simweb-process.ts'), ['--profiles', values.profiles!, '--scale', values.scale!], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const ready = await new Promise<Ready>((resolve, reject) => {
  server.once('message', (m) => resolve(m as Ready));
  server.once('exit', (code) => reject(new Error(`simweb exited with ${code}`)));
});
const browser = await chromium.launch({
  executablePath: process.env.RDFSCOUT_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/** One crawl; returns CPU ms of this process per 1,000 pages, and pages. */
async function crawlOnce(withDashboard: boolean): Promise<{ cpuPer1000: number; pages: number; wallMs: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'rdfscout-dash-cost-'));
  const crawler = await Crawler.open({
    out: dir,
    seeds: ready.seeds,
    proxy: ready.proxyUrl,
    allowPrivate: true,
    delayMs: 0,
    concurrency: Number(values.concurrency),
    hostConcurrency: 4,
    maxDocs: PAGES,
  });
  const control = new CrawlControl();
  const dashboard = withDashboard ? createDashboard({ state: crawler.state, control }) : null;
  const endpoint = dashboard ? await startEndpoint(crawler.state, { port: 0, mount: dashboard.handle }) : null;
  const page = endpoint ? await browser.newPage() : null;
  try {
    if (page && endpoint) {
      await page.goto(endpoint.url.replace(/sparql$/, ''));
      await page.waitForSelector('#c-fetched');
    }
    const cpu0 = cpuMark();
    const t0 = performance.now();
    const summary = await crawler.run(withDashboard ? { control } : {});
    const wallMs = performance.now() - t0;
    return { cpuPer1000: (cpuMsSince(cpu0) / summary.fetched) * 1000, pages: summary.fetched, wallMs };
  } finally {
    await page?.close();
    dashboard?.close();
    await endpoint?.close();
    await crawler.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const off: number[] = [];
const on: number[] = [];
await crawlOnce(false); // warm-up: JIT, caches, the web's first responses
for (let run = 0; run < RUNS; run++) {
  for (const mode of run % 2 === 0 ? [false, true] : [true, false]) {
    const r = await crawlOnce(mode);
    (mode ? on : off).push(r.cpuPer1000);
    console.log(`run ${run + 1} dashboard ${mode ? 'open' : 'off '}: ${r.pages} pages in ${(r.wallMs / 1000).toFixed(1)} s, ${r.cpuPer1000.toFixed(0)} CPU ms per 1,000 pages`);
  }
}
const ratio = median(on) / median(off);
console.log(
  `\nCPU per 1,000 pages (median of ${RUNS}): without dashboard ${median(off).toFixed(0)} ms, dashboard open ${median(on).toFixed(0)} ms: ×${ratio.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)}% more; target ≤ 5%)`,
);

// The dashboard's own work per record, alone (no noise from the machine): the record channel's subscriber.
const control = new CrawlControl();
const tally = new CrawlTally();
control.view = { tally: () => tally, queued: () => 100, inFlight: () => 4, maxDocs: () => 1e6, plds: () => [], arms: () => null, learned: () => null };
const live = new LiveState(control);
const N = 200_000;
const sample: CrawlRecord = { seq: 0, url: 'http://a.org/x', finalUrl: 'http://a.org/x', status: 200, outcome: 'ok', contentType: 'text/html', detectedType: 'rdf', rdfFormat: 'turtle', parent: null, depth: 1, pld: 'a.org', triples: 10, linksQueued: 3, error: null, errorMessage: null, label: 'R', rules: ['ex1'], redirects: [], ms: 3, fetchedAt: new Date().toISOString() };
const c0 = cpuMark();
for (let i = 1; i <= N; i++) {
  const r = { ...sample, seq: i, pld: `p${i % 50}.org` };
  tally.add(r);
  live.addRecord(r);
  if (i % 1000 === 0) live.sample();
}
const perRecord = (cpuMsSince(c0) * 1000) / N;
console.log(`Live state alone: ${perRecord.toFixed(2)} µs CPU per record (${((perRecord / 1000 / (median(off) / 1000)) * 100).toFixed(2)}% of a page's ${(median(off) / 1000).toFixed(2)} ms)`);
await browser.close();
server.send({ type: 'close' });
