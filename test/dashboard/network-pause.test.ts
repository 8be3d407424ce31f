
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CrawlControl } from '../../src/crawl/control.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { OutageEvent } from '../../src/fetch/outage.ts';
import { createDashboard, type LiveStatus } from '../../src/dashboard/index.ts';
import { startEndpoint } from '../../src/sparql/index.ts';
import { guardedPage, launchBrowser } from '../helpers/browser.ts';
import { FlakySite } from '../helpers/flaky-site.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';

const DOCS = 30;

describe('an outage pause on the dashboard', () => {
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    dir = folder.dir;
  });

  it('says "paused: network" and for how long, then running again once the site is back', async () => {
    const site = new FlakySite(DOCS);
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
      await until('the crawl to pause for the network', async () => (await status()).network.paused, 20_000);
      const first = await status();
      expect(first.paused).toBe(false); // not the operator's pause
      expect(first.network.nextProbeAt).toBeGreaterThan(0);
      await until('the offline time to grow past 1.5 s', async () => (await status()).network.offlineMs > 1500, 20_000);
      await until('the page to say paused: network', async () => /^paused: network \(for \d+ s\)$/.test((await g.page.textContent('#state')) ?? ''), 20_000);
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
      await until('the page to say finished', async () => (await g.page.textContent('#state')) === 'finished', 20_000);
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
