// The simulated web's request log on a real server, and `copies`: a web of 500+ PLDs with per-response latency.
import { describe, expect, it } from 'vitest';
import { buildWeb, checkPoliteness, copyHost, startSimweb } from '../../src/simweb/index.ts';
import { proxyGet } from './helpers.ts';
import { until } from '../helpers/until.ts';

describe('simweb copies', () => {
  it('serves every site under as many distinct PLDs as copies asked for, each with its own seed', () => {
    const one = buildWeb({ profiles: 'thesis', seed: 1, scale: 0.01 });
    const web = buildWeb({ profiles: 'thesis', seed: 1, scale: 0.01, copies: 130 });
    expect(web.sites.length).toBe(4 * 130);
    expect(new Set(web.sites.map((s) => s.pld)).size).toBe(520);
    expect(web.sites.slice(0, 4).map((s) => s.host)).toEqual(one.sites.map((s) => s.host)); // copy 1 is the web itself
    expect(copyHost('www.zin-sim.ru', 2)).toBe('www.zin-sim-c2.ru');
    expect(copyHost('dbtune-sim.org', 17)).toBe('dbtune-sim-c17.org');
    const c2 = web.byHost.get(copyHost(one.sites[0]?.host as string, 2));
    expect(c2?.pld).toBe(copyHost(one.sites[0]?.pld as string, 2));
    expect(c2?.seed).not.toBe(one.sites[0]?.seed);
    expect(() => buildWeb({ profiles: 'thesis', seed: 1, copies: 0 })).toThrow(/copies must be an integer ≥ 1/);
  });
});

describe('simweb request log', () => {
  it('logs each request with its PLD, start, end, status and the PLD’s requests in flight', async () => {
    // Every response is held 1.5 s: the later requests are sent once the first is logged, so they overlap it.
    const web = await startSimweb({ profiles: 'thesis', seed: 1, scale: 0.01, copies: 2, latencyMs: 1500, slowMs: 0, logRequests: true });
    try {
      const [a, b] = web.sites;
      const t0 = Date.now();
      const first = proxyGet(web.proxyUrl, a?.startUrl as string);
      await until('the first request in the log', () => web.requestLog().length > 0, undefined, { everyMs: 5 });
      // Two more requests to the same PLD while the first is in flight, one to another PLD, then one more after.
      const got = await Promise.all([
        first,
        proxyGet(web.proxyUrl, `${a?.startUrl}missing-too`),
        proxyGet(web.proxyUrl, `${a?.startUrl}no-such-page`),
        proxyGet(web.proxyUrl, b?.startUrl as string),
      ]);
      expect(got.map((g) => g.status)).toEqual([200, 404, 404, 200]);
      await proxyGet(web.proxyUrl, a?.startUrl as string);
      const log = web.requestLog();
      expect(log).toHaveLength(5);
      for (const e of log) {
        expect(e.start).toBeGreaterThanOrEqual(t0 - 1);
        expect(e.end).toBeGreaterThanOrEqual(e.start + 1400); // the latency is served, and logged
      }
      const ofA = log.filter((e) => e.pld === a?.pld);
      expect(ofA.map((e) => e.inFlight).sort()).toEqual([1, 1, 2, 3]);
      expect(log.find((e) => e.pld === b?.pld)?.inFlight).toBe(1);
      const report = checkPoliteness(log);
      expect(report.maxInFlight).toBe(3);
      expect(report.maxInFlightPld).toBe(a?.pld);
      expect(report.byPld.find((p) => p.pld === a?.pld)?.minIdleGapMs).toBeGreaterThanOrEqual(0); // the fifth request started after the three had ended
      web.clearRequestLog();
      expect(web.requestLog()).toEqual([]);
    } finally {
      await web.close();
    }
  }, 30_000);

  it('logs nothing unless asked to', async () => {
    const web = await startSimweb({ profiles: 'dbtune-like', seed: 1, scale: 0.01 });
    try {
      await proxyGet(web.proxyUrl, web.sites[0]?.startUrl as string);
      expect(web.stats().requests).toBe(1);
      expect(web.requestLog()).toEqual([]);
    } finally {
      await web.close();
    }
  });
});
