// During an outage pause (the only origin, which answered before, refuses connections) the dashboard says
// "paused: network" and for how long, in /api/status and on the page in Chromium, with no budget forecast; when the
// site comes back it says running again and the crawl ends by itself.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlControl } from '../../src/crawl/control.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { OutageEvent } from '../../src/fetch/outage.ts';
import { createDashboard, type LiveStatus } from '../../src/dashboard/index.ts';
import { startEndpoint } from '../../src/sparql/index.ts';
import { guardedPage, launchBrowser } from '../helpers/browser.ts';
import { until } from '../helpers/until.ts';

const DOCS = 30;

/** One site on a fixed port that can go down (connections refused) and come back. */
class Site {
  server: Server | null = null;
  port = 0;
  readonly sockets = new Set<Socket>();
  async up(): Promise<void> {
    const server = createServer((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(Array.from({ length: DOCS }, (_, i) => `<a href="/d${i}.ttl">d</a>`).join(' '));
      res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<http://x.example${req.url}> <http://x.example/p> "1" .\n`);
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('an outage pause on the dashboard', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rdfscout-netpause-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says "paused: network" and for how long, then running again once the site is back', async () => {
    const site = new Site();
    await site.up();
    const crawler = await Crawler.open({ out: join(dir, 'c'), seeds: [`http://127.0.0.1:${site.port}/`], strategy: 'bfs', allowPrivate: true, delayMs: 100, concurrency: 1, maxDocs: 1000 });
    const control = new CrawlControl();
    const dashboard = createDashboard({ state: crawler.state, control, token: null, tickMs: 200 });
    const endpoint = await startEndpoint(crawler.state, { port: 0, mount: dashboard.handle });
    const base = endpoint.url.replace(/sparql$/, '');
    const browser = await launchBrowser();
    const events: OutageEvent[] = [];
    let wentDown = false;
    const run = crawler.run({
      control,
      onRecord: ({ tally }) => {
        if (!wentDown && tally.fetched >= 4) {
          wentDown = true;
          void site.down();
        }
      },
      onOutage: (e) => events.push(e),
    });
    run.catch(() => {});
    const status = async () => (await (await fetch(`${base}api/status`)).json()) as LiveStatus;
    try {
      const g = await guardedPage(browser.browser, new URL(base).origin);
      await g.page.goto(base);
      await until('the crawl to pause for the network', async () => (await status()).network.paused);
      const first = await status();
      expect(first.paused).toBe(false); // not the operator's pause
      expect(first.network.nextProbeAt).toBeGreaterThan(0);
      await until('the offline time to grow past 1.5 s', async () => (await status()).network.offlineMs > 1500);
      await until('the page to say paused: network', async () => /^paused: network \(for \d+ s\)$/.test((await g.page.textContent('#state')) ?? ''));
      expect(await g.page.textContent('#c-forecast')).toBe('none while the network is down');
      expect(g.errors).toEqual([]);
      expect(g.blocked).toEqual([]);

      await site.up();
      await until('the crawl to resume', async () => !(await status()).network.paused, 40_000);
      const summary = await run;
      dashboard.finish();
      expect(summary.stoppedBy).toBe('frontier-empty');
      expect(summary.fetched).toBe(DOCS + 1);
      expect(events[0]?.kind).toBe('paused');
      expect(events.at(-1)?.kind).toBe('resumed');
      await until('the page to say finished', async () => (await g.page.textContent('#state')) === 'finished');
      await g.close();
    } finally {
      control.stop();
      await run.catch(() => {});
      await browser.close();
      dashboard.close();
      await endpoint.close();
      await crawler.close();
      await site.down();
    }
  }, 90_000);
});
