// The dashboard of a distributed crawl (issue 19 in `--redis` mode): a worker started with `--serve` shows the whole
// crawl — every worker and the shared totals — in /api/cluster and in a panel of the page (in Chromium), the same
// figures `rdfscout status --redis` prints. One process has no cluster (null). ClusterView never piles up reads.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterSnapshot, type ClusterStatus, ClusterView } from '../../src/dashboard/index.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { guardedPage, launchBrowser } from '../helpers/browser.ts';
import { until } from '../helpers/until.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { startWorker } from '../helpers/workers.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

describe('ClusterView', () => {
  it('keeps the last status, reports an error without losing it, and starts no second read while one is under way', async () => {
    const status: ClusterStatus = { created: '2026-11-23T12:00:00.000Z', queued: 3, inFlight: 1, fetched: 5, done: 5, refetched: 0, learned: 2, over: null, workers: [] };
    let calls = 0;
    let fail = false;
    let release: () => void = () => {};
    const view = new ClusterView(
      () => {
        calls++;
        if (fail) return Promise.reject(new Error('Redis away'));
        return new Promise((resolve) => {
          release = () => resolve(status);
        });
      },
      () => 42,
    );
    expect(view.snapshot).toEqual({ status: null, at: null, error: null });
    const first = view.refresh();
    void view.refresh(); // under way: no second read
    expect(calls).toBe(1);
    release();
    await first;
    expect(view.snapshot).toEqual({ status, at: 42, error: null });
    fail = true;
    await view.refresh();
    expect(view.snapshot).toEqual({ status, at: 42, error: 'Redis away' });
  });
});

describe('dashboard of a distributed crawl', () => {
  let redis: RedisTestServer;
  let web: SimWeb;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    redis = await startRedisServer();
    web = await startSimweb({ profiles: 'thesis', seed: 3, scale: 0.1, latencyMs: 20 });
    dir = folder.dir;
  });
  afterAll(async () => {
    await redis?.stop();
    await web?.close();
  });

  it('a worker with --serve shows every worker and the shared totals, as status --redis does', async () => {
    const seeds = web.sites.map((s) => s.startUrl);
    const a = startWorker([...seeds, '--redis', redis.url, '--out', join(dir, 'a'), '--proxy', web.proxyUrl, '--allow-private', '--delay-ms', '120', '--max-docs', '300', '--serve', '0', '--json']);
    const b0 = await a.waitFor(/Dashboard: (\S+)/);
    const base = b0[1] as string;
    const b = startWorker(['--redis', redis.url, '--out', join(dir, 'b'), '--json', '--quiet']);
    const browser = await launchBrowser();
    try {
      const cluster = async () => (await (await fetch(`${base}api/cluster`)).json()) as ClusterSnapshot;
      await until('both workers on the cluster view, each with a fetch', async () => {
        const s = (await cluster()).status;
        return s !== null && s.workers.length === 2 && s.workers.every((w) => w.fetched > 0);
      }, 60_000);
      const shown = (await cluster()).status as ClusterStatus;
      const cli = JSON.parse((await runCli(['status', '--redis', redis.url, '--json'])).stdout) as ClusterStatus;
      expect(shown.workers.map((w) => w.worker).sort()).toEqual(cli.workers.map((w) => w.worker).sort());
      expect(shown.fetched).toBeGreaterThan(0);
      expect(shown.fetched).toBeLessThanOrEqual(cli.fetched); // read before the CLI: the crawl only moves on
      // The totals and the per-worker counts are read in one MULTI, and a release adds to both in one script.
      expect(shown.workers.reduce((n, w) => n + w.fetched, 0)).toBe(shown.fetched);
      expect(cli.workers.reduce((n, w) => n + w.fetched, 0)).toBe(cli.fetched);

      const g = await guardedPage(browser.browser, new URL(base).origin);
      await g.page.goto(base);
      await g.page.waitForSelector('#cluster:not([hidden]) #cluster-workers tbody tr:nth-child(2)', { timeout: 20_000 });
      expect(await g.page.textContent('#cluster-workers-count')).toBe('2');
      const rows = await g.page.$$eval('#cluster-workers tbody tr', (trs) => trs.map((tr) => tr.querySelector('td')?.textContent));
      expect(rows.sort()).toEqual(cli.workers.map((w) => w.worker).sort());
      expect(await g.page.textContent('#cluster-totals')).toMatch(/^fetched \d/);
      await g.screenshot('dashboard-cluster');
      expect(g.blocked).toEqual([]);
      expect(g.errors).toEqual([]);
      expect(await Promise.all([a.ended(), b.ended()])).toEqual([0, 0]);
    } finally {
      a.child.kill('SIGKILL');
      b.child.kill('SIGKILL');
      await browser.close();
    }
  }, 180_000);
});
