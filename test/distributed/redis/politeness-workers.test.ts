// Politeness from the simulated web's request log, in the LevelDB mode and across three Redis workers: never
// more than --host-concurrency fetches in flight to one PLD, and requests to one PLD leave --delay-ms apart.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectRedis } from '../../../src/distributed/redis/connect.ts';
import { CrawlRegistry } from '../../../src/distributed/redis/crawl-registry.ts';
import { checkGateSpacing, checkPoliteness, type GatePass, type LoggedRequest, type SimWeb, startSimweb } from '../../../src/simweb/index.ts';
import { type RedisTestServer, startRedisServer } from '../../helpers/redis-server.ts';
import { allExitZero, type MergedCrawl, mergeShards, startRedisWorker, startWorker, type WorkerProcess } from '../../helpers/workers.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

/** The two runs of each mode: 8 PLDs (the thesis's four sites, twice). */
const RUNS = [
  // One fetch per PLD at a time; responses of 40 ms, well under the delay.
  { hc: 1, delayMs: 150, web: { seed: 1, latencyMs: 40 } },
  // Responses (200 ms) outlast --delay-ms (60 ms): a PLD holds two fetches at once, and their requests still leave
  // 60 ms apart (before the gate, two starts 0.3 ms apart were seen in Redis, 8–17 ms in the LevelDB mode).
  { hc: 2, delayMs: 60, web: { seed: 2, latencyMs: 200 } },
] as const;

let dir: string;
let web: SimWeb | undefined;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await web?.close();
  web = undefined;
});

async function startWeb(run: (typeof RUNS)[number]): Promise<SimWeb> {
  web = await startSimweb({ profiles: 'thesis', scale: 0.02, copies: 2, slowMs: 0, logRequests: true, ...run.web });
  return web;
}

/** Crawl options of a run (bfs, through the simulated web's proxy). */
function crawlArgs(w: SimWeb, run: (typeof RUNS)[number], concurrency: number): string[] {
  const seeds = w.sites.map((s) => s.startUrl);
  return [...seeds, '--proxy', w.proxyUrl, '--strategy', 'bfs', '--concurrency', String(concurrency), '--max-docs', '160', '--host-concurrency', String(run.hc), '--delay-ms', String(run.delayMs)];
}

/**
 * The gate passes the crawl processes logged (the gateLog probe), on the simulated web's clock: a pass is
 * stamped with Redis's clock or `Date.now` (the system clock, whole ms), the server with `performance.timeOrigin +
 * performance.now()`; the two differ by a constant offset measured here.
 */
async function gatePasses(file: string): Promise<GatePass[]> {
  const offset = performance.timeOrigin + performance.now() - Date.now();
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
  return lines.map((l) => JSON.parse(l) as GatePass).map((p) => ({ ...p, at: p.at + offset }));
}

/**
 * The requests the server saw that no gate pass accounts for, by URL: for each URL, its requests less its gate passes
 * and the redirects that pointed to it (a redirect's next hop goes out in the slot of the fetch it serves, without a
 * pass of its own). A robots.txt load goes out in the slot of the PLD's fetch that needed it, and the pass names the
 * robots.txt: such a pass accounts for one request of any URL of its PLD. Counted per URL, without timing: a redirect
 * whose next hop was never sent (past the redirect limit, or the fetch stopped) cannot make its target's own later
 * fetch count as that hop.
 */
function ungatedRequests(log: readonly LoggedRequest[], passes: readonly GatePass[]): string[] {
  const byUrl = new Map<string, number>();
  const byPld = new Map<string, number>(); // passes taken by a robots.txt load
  const add = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);
  const take = (m: Map<string, number>, k: string): boolean => {
    const left = m.get(k) ?? 0;
    if (left > 0) m.set(k, left - 1);
    return left > 0;
  };
  for (const p of passes) {
    if (new URL(p.url).pathname === '/robots.txt') add(byPld, p.pld);
    else add(byUrl, p.url);
  }
  for (const r of log) if (r.status >= 300 && r.status < 400 && r.location !== undefined) add(byUrl, r.location);
  const ungated: string[] = [];
  for (const r of log) {
    if (new URL(r.url).pathname === '/robots.txt') continue;
    if (!take(byUrl, r.url) && !take(byPld, r.pld)) ungated.push(r.url);
  }
  return ungated;
}

/** What both modes guarantee, read from the server's log and the gate passes. */
async function expectPolite(w: SimWeb, gateLog: string, run: (typeof RUNS)[number]) {
  const log = w.requestLog();
  const report = checkPoliteness(log);
  const passes = await gatePasses(gateLog);
  const spacing = checkGateSpacing(log, passes);
  expect(report.plds).toBe(8);
  expect(report.fetches).toBeGreaterThanOrEqual(100);
  expect(report.maxInFlight).toBeLessThanOrEqual(run.hc); // never passed …
  expect(report.maxInFlight).toBe(run.hc); // … and reached
  // Every request that starts a fetch went through the gate: a request to a URL beyond its passes (and the redirects
  // to it) went round it. Counted per URL without timing: checkPoliteness groups a robots.txt load with the request
  // that starts within 1 s of its end, and under load that gap passed 1 s (161 fetches for 160 gated requests at load
  // ~15); a count of fetch starts that took the first request after a redirect as its hop read 160 starts for 161
  // gated requests in a CI run at load ~9 (one reading that gives this: a hop never sent, its target fetched later on
  // its own and taken for the hop; that run was not traced).
  expect(ungatedRequests(log, passes)).toEqual([]);
  // The guarantee, on the gate's clock: two passes for one PLD are ≥ --delay-ms apart (less 1 ms: the offset
  // between the clocks is measured with sub-ms error).
  expect(spacing.minGateGapMs).toBeGreaterThanOrEqual(run.delayMs - 1);
  // What the server sees: the next request of a PLD starts ≥ --delay-ms after this one, less this one's jitter —
  // the time from its pass to the server reading it (Redis's answer travelling back, the event loop, undici, the
  // proxy). That jitter is measured per request, not assumed: it is the tolerance, and nothing else is allowed.
  expect(spacing.minGapPlusJitterMs).toBeGreaterThanOrEqual(run.delayMs - 1);
  process.stdout.write(`politeness hc ${run.hc} delay ${run.delayMs}: fetches ${report.fetches}, min start gap ${report.minStartGapMs?.toFixed(1)} ms, max jitter ${spacing.maxJitterMs?.toFixed(1)} ms\n`);
  return report;
}

describe('the requests that went round the gate', () => {
  const t = 1_000_000;
  const log: LoggedRequest[] = [
    { url: 'http://a.example/robots.txt', pld: 'a.example', start: t, end: t + 5, status: 404 },
    { url: 'http://a.example/d1', pld: 'a.example', start: t + 1205, end: t + 1210, status: 301, location: 'http://a.example/d2' },
    { url: 'http://a.example/d2', pld: 'a.example', start: t + 1212, end: t + 1220, status: 200 },
    { url: 'http://a.example/d3', pld: 'a.example', start: t + 1400, end: t + 1405, status: 301, location: 'http://a.example/d4' },
    // d3's hop to d4 never sent (the fetch stopped); d4 fetched later through the gate on its own
    { url: 'http://a.example/d4', pld: 'a.example', start: t + 1600, end: t + 1605, status: 200 },
  ];
  const passes: GatePass[] = [
    { url: 'http://a.example/robots.txt', pld: 'a.example', at: t - 1 }, // d1's slot: robots.txt loaded first
    { url: 'http://a.example/d3', pld: 'a.example', at: t + 1399 },
    { url: 'http://a.example/d4', pld: 'a.example', at: t + 1599 },
  ];

  it('are none when robots.txt ended more than 1 s before its fetch, or a redirect hop was never sent', () => {
    expect(ungatedRequests(log, passes)).toEqual([]);
    expect(checkGateSpacing(log, passes).gatedRequests).toBe(3); // robots.txt, d3, d4
    expect(checkPoliteness(log).fetches).toBe(3); // the timed grouping counts the robots.txt load as a fetch (1 s passed), and d3 with its hop
  });

  it('are named when a request had no pass', () => {
    const around: LoggedRequest = { url: 'http://a.example/d5', pld: 'a.example', start: t + 1700, end: t + 1705, status: 200 };
    expect(ungatedRequests([...log, around], passes)).toEqual(['http://a.example/d5']);
    expect(ungatedRequests(log, passes.slice(1))).toEqual(['http://a.example/d1']);
  });
});

describe('politeness of one process (LevelDB mode), from the request log', () => {
  for (const run of RUNS) {
    it(`--host-concurrency ${run.hc} --delay-ms ${run.delayMs}: ≤ ${run.hc} fetches per PLD in flight, requests ${run.delayMs} ms apart`, async () => {
      const w = await startWeb(run);
      const gateLog = join(dir, 'gates.jsonl');
      const crawl = startWorker([...crawlArgs(w, run, 8), '--out', join(dir, 'c'), '--quiet'], { gateLog });
      await allExitZero([crawl]);
      const report = await expectPolite(w, gateLog, run);
      if (run.hc === 1) {
        expect(checkGateSpacing(w.requestLog(), await gatePasses(gateLog)).gatedRequests).toBeLessThanOrEqual(160); // --max-docs
        // Politeness.finish: the delay also counts from the end of a fetch (less 1 ms: Date.now counts whole ms).
        expect(report.minIdleGapMs).toBeGreaterThanOrEqual(run.delayMs - 1);
      }
    }, 120_000);
  }
});

describe('politeness across three Redis workers, from the request log', () => {
  let redis: RedisTestServer;
  beforeEach(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await redis.stop();
  });

  /** Three workers with the same seeds and options (the first creates the crawl, the others join it). */
  async function crawl(w: SimWeb, run: (typeof RUNS)[number], gateLog: string): Promise<MergedCrawl> {
    const outs = [0, 1, 2].map((i) => join(dir, `w${i}`));
    const workers: WorkerProcess[] = outs.map((out) => startRedisWorker(redis.url, out, crawlArgs(w, run, 4), { gateLog }));
    await allExitZero(workers);
    return mergeShards(outs);
  }

  for (const run of RUNS) {
    it(`--host-concurrency ${run.hc} --delay-ms ${run.delayMs}: ≤ ${run.hc} fetches per PLD in flight across the cluster, requests ${run.delayMs} ms apart`, async () => {
      const w = await startWeb(run);
      const gateLog = join(dir, 'gates.jsonl');
      const merged = await crawl(w, run, gateLog);
      const report = await expectPolite(w, gateLog, run);
      // A lease is released after its response ended and the PLD is ready again only --delay-ms later (BeeBot §2
      // politeness, kept in Redis): at host concurrency 1 the next fetch starts that long after the last one ended.
      if (run.hc === 1) expect(report.minIdleGapMs).toBeGreaterThanOrEqual(run.delayMs - 1);
      // The work was shared (at least two workers fetched), and each URL was fetched once.
      expect(merged.perShard.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
      expect(merged.repeated).toEqual([]);
      // The shared learning log's cost per fetch (README "Learning"): one entry per applied fetch, below a fold.
      const client = await connectRedis(redis.url);
      try {
        const log = new CrawlRegistry(client).log;
        const entries = await log.total();
        expect(entries).toBe(merged.records.length);
        process.stdout.write(`learning log: ${entries} entries, ${((await log.bytes()) / entries).toFixed(0)} bytes per fetch\n`);
      } finally {
        client.disconnect();
      }
    }, 180_000);
  }
});
