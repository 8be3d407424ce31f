// `crawl --serve` through a simulated web: the dashboard draws the oracle and breadth-first curves of that web beside
// the live one, /api/references serves them, and in Chromium each reference line has one vertex per point
// of the API up to the crawl's fetches. The dashboard's stop ends the process cleanly: exit 0, stoppedBy "stopped".
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlReferenceCurves, describeSimweb } from '../../src/commands/simweb-reference.ts';
import type { LiveStatus } from '../../src/dashboard/index.ts';
import { curvePoints } from '../../src/report/index.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { guardedPage, launchBrowser } from '../helpers/browser.ts';
import { until } from '../helpers/until.ts';
import { startCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const WEB = { profiles: 'thesis', seed: 3, scale: 0.1 };
const MAX_DOCS = 600;

describe('reference curves on the simulated web', () => {
  let web: SimWeb;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    web = await startSimweb(WEB);
    dir = folder.dir;
  });
  afterAll(async () => {
    await web?.close();
  });

  it('a simulated web describes itself to a loopback client; another server or a remote proxy is not a simulated web', async () => {
    expect(await describeSimweb(web.proxyUrl)).toEqual({ ...WEB, copies: 1 });
    expect(await describeSimweb(null)).toBeNull();
    expect(await describeSimweb('http://192.0.2.1:3128')).toBeNull(); // not asked at all: not a loopback address
    const other: Server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      expect(await describeSimweb(`http://127.0.0.1:${(other.address() as AddressInfo).port}`)).toBeNull();
    } finally {
      other.close();
    }
  });

  it('crawl --serve draws oracle and breadth-first beside the live curve; the dashboard stop exits 0 with stoppedBy "stopped"', async () => {
    const seeds = web.sites.map((s) => s.startUrl);
    const child = startCli(['crawl', ...seeds, '--out', join(dir, 'crawl'), '--proxy', web.proxyUrl, '--allow-private', '--serve', '0', '--delay-ms', '60', '--max-docs', String(MAX_DOCS), '--json', '--quiet']);
    const b = await launchBrowser();
    try {
      const base = (await child.waitFor(/Dashboard: (\S+)/, { timeoutMs: 60_000 }))[1] as string; // the web and the CLI start first: >30 s at load 28
      const api = async <T>(path: string): Promise<T> => (await (await fetch(`${base}${path}`)).json()) as T;

      // The API serves the curves the crawl's own web, seeds, scope and budget give.
      const refs = await api<Array<{ name: string; points: Array<[number, number]> }>>('api/references');
      const expected = crawlReferenceCurves(WEB, { seeds, scope: 'seeds', offsiteHops: 0, maxDocs: MAX_DOCS });
      expect(refs.map((r) => r.name)).toEqual(['oracle', 'breadth-first']);
      expect(refs.map((r) => r.points)).toEqual(expected.map((c) => curvePoints(c.curve)));
      const [oracle, bfs] = expected.map((c) => c.curve) as [number[], number[]];
      expect(await api<unknown>('api/cluster')).toBeNull(); // one process: no cluster
      expect(oracle.at(-1)).toBeGreaterThan(bfs.at(-1) as number); // within 600 fetches the oracle is ahead

      // In Chromium: three lines; once paused, each reference line has a vertex per API point up to `fetched`.
      const g = await guardedPage(b.browser, new URL(base).origin);
      await g.page.goto(base);
      await until('41 fetches', async () => (await api<LiveStatus>('api/status')).fetched > 40);
      await g.page.click('#pause');
      await until('the pause, with nothing in flight', async () => {
        const s = await api<LiveStatus>('api/status');
        return s.paused && s.inFlight === 0;
      });
      const fetched = (await api<LiveStatus>('api/status')).fetched;
      const live = await api<Array<[number, number]>>('api/harvest');
      await until('the page to show the fetched count', async () => (await g.page.textContent('#c-fetched'))?.replace(/,/g, '') === String(fetched));
      await until('three lines on the harvest chart', async () => (await g.page.$$('#chart-harvest svg g[aria-label="line"] path')).length === 3);
      const upTo = live.at(-1)?.[0] ?? 0;
      const drawn = () => g.page.$$eval('#chart-harvest svg g[aria-label="line"] path', (ps) => ps.map((p) => (p.getAttribute('d') ?? '').split(/[ML]/).filter(Boolean).length));
      // The pause's answer updates the counters at once; the curve points come with the next delta: wait for them.
      await until('the live curve to have every API point', async () => (await drawn())[0] === live.length);
      expect(await drawn()).toEqual([live.length, ...refs.map((r) => r.points.filter(([k]) => k <= upTo).length)]);
      await g.screenshot('dashboard-reference-curves');
      expect(g.blocked).toEqual([]);
      expect(g.errors).toEqual([]);

      // Stop from the dashboard: a clean end.
      const stop = await fetch(`${base}api/control/stop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(stop.status).toBe(200);
      expect(await child.ended('the crawl to end')).toBe(0);
      expect(JSON.parse(child.stdout().trim().split('\n').at(-1) as string).stoppedBy).toBe('stopped');
    } finally {
      child.signal('SIGKILL');
      await b.close();
    }
  }, 120_000);
});
