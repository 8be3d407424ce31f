// Tests of the PLD lease scripts against a real redis-server: limits, politeness, stale tokens, reclaim, counts once.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../../src/distributed/redis/connect.ts';
import { readCounts } from '../../../src/distributed/redis/learned-counts.ts';
import { type PldLeasesOptions, PldLeases } from '../../../src/distributed/redis/pld-leases.ts';
import { type RedisTestServer, startRedisServer } from '../../helpers/redis-server.ts';

let server: RedisTestServer;
const clients: Redis[] = [];
let crawlSeq = 0;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await server?.stop();
});

async function client(): Promise<Redis> {
  const c = await connectRedis(server.url);
  clients.push(c);
  return c;
}

/** A fresh crawl name per test, so that tests sharing the server never see each other's keys. */
function nextCrawl(): string {
  return `t${++crawlSeq}`;
}

async function leases(options: Omit<PldLeasesOptions, 'crawl'> & { crawl?: string }): Promise<PldLeases> {
  return new PldLeases(await client(), { crawl: options.crawl ?? nextCrawl(), ...options });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PldLeases', () => {
  it('grants at most hostConcurrency leases on a PLD and frees a place on release', async () => {
    const a = await leases({ worker: 'a', hostConcurrency: 2, delayMs: 0 });
    await a.offer('x.org');
    const first = await a.acquire();
    const second = await a.acquire();
    expect(first).toMatchObject({ kind: 'granted', pld: 'x.org' });
    expect(second).toMatchObject({ kind: 'granted', pld: 'x.org' });
    expect(await a.holders('x.org')).toBe(2);
    expect(await a.acquire()).toEqual({ kind: 'none', now: expect.any(Number), nextDueAt: null });
    if (first.kind !== 'granted') throw new Error('unreachable');
    expect(await a.release(first.token)).toMatchObject({ kind: 'released' });
    expect(await a.holders('x.org')).toBe(1);
    expect(await a.acquire()).toMatchObject({ kind: 'granted', pld: 'x.org' });
  });

  it('keeps two lease starts on a PLD delayMs apart, and the PLD waits max(delay, Crawl-delay, Retry-After) after a release', async () => {
    const a = await leases({ worker: 'a', hostConcurrency: 3, delayMs: 200 });
    await a.offer('x.org');
    const g = await a.acquire();
    if (g.kind !== 'granted') throw new Error(`expected a lease, got ${JSON.stringify(g)}`);
    // A second holder is allowed (limit 3) but not before the delay has passed since the first start.
    const early = await a.acquire();
    expect(early).toMatchObject({ kind: 'none', nextDueAt: g.now + 200 });
    const released = await a.release(g.token, { crawlDelayMs: 700, retryAfterMs: 300 });
    if (released.kind !== 'released') throw new Error(`expected a release, got ${JSON.stringify(released)}`);
    const after = await a.acquire();
    expect(after.kind).toBe('none');
    expect(after.now).toBeGreaterThanOrEqual(g.now);
    expect(released.readyAt).toBeGreaterThanOrEqual(g.now + 700);
    expect(released.readyAt - after.now).toBeLessThanOrEqual(700);
    expect(after).toMatchObject({ nextDueAt: released.readyAt });
    expect(await a.politeAt('x.org')).toBe(released.readyAt);
    // Once Redis's clock passes readyAt, the PLD is granted again, never earlier.
    let next = await a.acquire();
    while (next.kind === 'none') {
      await sleep(Math.max(5, (next.nextDueAt ?? 0) - next.now));
      next = await a.acquire();
    }
    expect(next.now).toBeGreaterThanOrEqual(released.readyAt);
  });

  it('prefers the first ready candidate in the given order and ignores PLDs never offered', async () => {
    const a = await leases({ worker: 'a', delayMs: 0 });
    await a.offer('a.org');
    await a.offer('b.org');
    expect(await a.acquire(['nowhere.org', 'b.org', 'a.org'])).toMatchObject({ kind: 'granted', pld: 'b.org' });
    expect(await a.acquire(['b.org', 'a.org'])).toMatchObject({ kind: 'granted', pld: 'a.org' });
    expect(await a.acquire(['nowhere.org'])).toMatchObject({ kind: 'none', nextDueAt: null });
  });

  it('does not lease a withdrawn PLD, and an offered-again PLD keeps its politeness time', async () => {
    const a = await leases({ worker: 'a', delayMs: 60_000 });
    await a.offer('x.org');
    const g = await a.acquire();
    if (g.kind !== 'granted') throw new Error('expected a lease');
    const r = await a.release(g.token);
    if (r.kind !== 'released') throw new Error('expected a release');
    await a.withdraw('x.org');
    expect(await a.acquire()).toMatchObject({ kind: 'none', nextDueAt: null });
    expect(await a.offer('x.org')).toBe(true);
    expect(await a.offer('x.org')).toBe(false);
    expect(await a.acquire()).toMatchObject({ kind: 'none', nextDueAt: r.readyAt });
  });

  it('refuses the late release of a reclaimed lease: nothing is applied and another worker holds the PLD', async () => {
    const crawl = nextCrawl();
    const slow = await leases({ crawl, worker: 'slow', delayMs: 0, leaseMs: 50 });
    const other = await leases({ crawl, worker: 'other', delayMs: 0, leaseMs: 50 });
    await slow.offer('x.org');
    const g = await slow.acquire();
    if (g.kind !== 'granted') throw new Error('expected a lease');
    await sleep(80); // the lease (50 ms) expires unrenewed, as for a worker paused by SIGSTOP
    const { reclaimed } = await other.reclaim();
    expect(reclaimed).toEqual([{ token: g.token, pld: 'x.org', worker: 'slow' }]);
    const taken = await other.acquire();
    expect(taken).toMatchObject({ kind: 'granted', pld: 'x.org' });
    const late = await slow.release(g.token, { fetchId: 'fetch-1', counts: [{ table: 'hr', field: 'p', by: 5 }] });
    expect(late).toEqual({ kind: 'stale' });
    expect(await slow.renew(g.token)).toEqual({ kind: 'stale' });
    expect(await readCounts((await client()), slow.keys, 'hr')).toEqual(new Map());
    expect(await slow.holders('x.org')).toBe(1); // the other worker's lease, untouched by the late release
  });

  it('keeps a renewed lease past its first expiry', async () => {
    // Renewed every 200 ms, 400 ms before each expiry, so that a loaded machine's stalls do not let it expire (with a
    // lease of 150 ms renewed every 60 ms, a stall past 90 ms did: it failed once at load ~12).
    const a = await leases({ worker: 'a', delayMs: 0, leaseMs: 600 });
    await a.offer('x.org');
    const g = await a.acquire();
    if (g.kind !== 'granted') throw new Error('expected a lease');
    for (let i = 0; i < 4; i++) {
      await sleep(200);
      expect(await a.renew(g.token)).toMatchObject({ kind: 'renewed' });
    }
    // 800 ms after the grant, past the first expiry (600 ms): still held, nothing to reclaim.
    expect((await a.reclaim()).reclaimed).toEqual([]);
    expect(await a.release(g.token)).toMatchObject({ kind: 'released' });
  });

  it('reclaims every lease of a worker whose heartbeat stopped, even before the leases expire', async () => {
    const crawl = nextCrawl();
    const dead = await leases({ crawl, worker: 'dead', delayMs: 0, hostConcurrency: 2, leaseMs: 60_000, heartbeatTimeoutMs: 100 });
    const alive = await leases({ crawl, worker: 'alive', delayMs: 0, hostConcurrency: 2, leaseMs: 60_000, heartbeatTimeoutMs: 100 });
    await dead.offer('a.org');
    await dead.offer('b.org');
    const g1 = await dead.acquire(['a.org']);
    const g2 = await dead.acquire(['b.org']);
    expect([g1.kind, g2.kind]).toEqual(['granted', 'granted']);
    await sleep(150);
    await alive.heartbeat();
    const { reclaimed } = await alive.reclaim();
    expect(reclaimed.map((r) => `${r.worker} ${r.pld}`).sort()).toEqual(['dead a.org', 'dead b.org']);
    expect(await alive.holders('a.org')).toBe(0);
    expect(await (await client()).zscore(alive.keys.workers, 'dead')).toBeNull();
    expect(await (await client()).zscore(alive.keys.workers, 'alive')).not.toBeNull();
  });

  it('adds learned counts with the release, once per fetch id even when the release or the fetch is retried', async () => {
    const a = await leases({ worker: 'a', delayMs: 0 });
    const redis = await client();
    await a.offer('x.org');
    const counts = [
      { table: 'hr', field: 'http://x.org/a/*', by: 2 },
      { table: 'hr', field: 'http://x.org/b/*', by: 1 },
      { table: 'arms', field: 'x.org:reward', by: 0.5 },
    ];
    const g = await a.acquire();
    if (g.kind !== 'granted') throw new Error('expected a lease');
    expect(await a.release(g.token, { fetchId: 'u1#1', counts })).toMatchObject({ kind: 'released' });
    // The reply was lost and the worker sends the same release again.
    expect(await a.release(g.token, { fetchId: 'u1#1', counts })).toEqual({ kind: 'already-applied', readyAt: null });
    // The same fetch released under a new lease (e.g. after a reconnect): the lease ends, counts stay.
    const g2 = await a.acquire();
    if (g2.kind !== 'granted') throw new Error('expected a lease');
    expect(await a.release(g2.token, { fetchId: 'u1#1', counts })).toMatchObject({ kind: 'already-applied', readyAt: expect.any(Number) });
    expect(await a.holders('x.org')).toBe(0);
    expect(await readCounts(redis, a.keys, 'hr')).toEqual(new Map([['http://x.org/a/*', 2], ['http://x.org/b/*', 1]]));
    expect(await readCounts(redis, a.keys, 'arms')).toEqual(new Map([['x.org:reward', 0.5]]));
  });

  it('adds whole and fractional increments to one field in any order', async () => {
    const a = await leases({ worker: 'a', delayMs: 0 });
    await a.offer('x.org');
    for (const by of [0.25, 2, 1e-3, 40]) {
      const g = await a.acquire();
      if (g.kind !== 'granted') throw new Error('expected a lease');
      expect(await a.release(g.token, { counts: [{ table: 'arms', field: 'x.org:sum', by }] })).toMatchObject({ kind: 'released' });
    }
    expect((await readCounts(await client(), a.keys, 'arms')).get('x.org:sum')).toBeCloseTo(42.251, 12);
  });

  it('refuses negative increments before anything is sent, and keeps the lease', async () => {
    const a = await leases({ worker: 'a', delayMs: 0 });
    await a.offer('x.org');
    const g = await a.acquire();
    if (g.kind !== 'granted') throw new Error('expected a lease');
    await expect(a.release(g.token, { counts: [{ table: 'hr', field: 'p', by: -1 }] })).rejects.toMatchObject({
      code: 'RDFSCOUT_INVALID_ARGUMENT',
      message: expect.stringContaining('add-only'),
    });
    expect(await a.holders('x.org')).toBe(1);
    expect(await a.release(g.token)).toMatchObject({ kind: 'released' });
  });

  it('never lets concurrent acquires from several clients exceed hostConcurrency on any PLD', async () => {
    const crawl = nextCrawl();
    const limit = 2;
    const plds = ['a.org', 'b.org', 'c.org'];
    const workers = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => leases({ crawl, worker: `w${i}`, hostConcurrency: limit, delayMs: 0 })));
    for (const pld of plds) await workers[0]!.offer(pld);
    const holding = new Map<string, number>();
    let maxHeld = 0;
    let grants = 0;
    let refusals = 0;
    let serverMax = 0;
    let done = false;
    // Redis's own count, polled from another connection the whole time.
    const watcher = await client();
    const watch = (async () => {
      while (!done) {
        const held = await watcher.hgetall(workers[0]!.keys.held);
        for (const v of Object.values(held)) serverMax = Math.max(serverMax, Number(v));
      }
    })();
    await Promise.all(
      workers.map(async (w, i) => {
        for (let round = 0; round < 40; round++) {
          const g = await w.acquire(round % 2 === 0 ? [] : [plds[(i + round) % 3]!]);
          if (g.kind === 'none') {
            refusals++;
            await sleep(1);
            continue;
          }
          grants++;
          const n = (holding.get(g.pld) ?? 0) + 1;
          holding.set(g.pld, n);
          maxHeld = Math.max(maxHeld, n);
          await sleep(1 + ((i + round) % 3));
          holding.set(g.pld, holding.get(g.pld)! - 1);
          const r = await w.release(g.token);
          expect(r.kind).toBe('released');
        }
      }),
    );
    done = true;
    await watch;
    expect(grants).toBeGreaterThan(50);
    expect(refusals).toBeGreaterThan(0); // there was contention
    expect(maxHeld).toBe(limit); // the limit was reached …
    expect(serverMax).toBeLessThanOrEqual(limit); // … and never exceeded, in Redis's count either
    for (const pld of plds) expect(await workers[0]!.holders(pld)).toBe(0);
  });

  it('send gate: two workers holding two leases on one PLD pass it ≥ delayMs apart on Redis\'s clock, and not before a release\'s ready time', async () => {
    const crawl = nextCrawl();
    const a = await leases({ crawl, worker: 'a', hostConcurrency: 2, delayMs: 100 });
    const b = await leases({ crawl, worker: 'b', hostConcurrency: 2, delayMs: 100 });
    const first = await a.gate('x.org');
    expect(first.passed).toBe(true);
    // b asks at once: refused, told how long to wait (what is left of the 100 ms).
    const early = await b.gate('x.org');
    if (early.passed) throw new Error('the gate let two requests through at once');
    expect(early.waitMs).toBe(first.now + 100 - early.now);
    expect(await b.gate('y.org')).toMatchObject({ passed: true }); // another PLD has its own gate
    // Both ask in a loop, each sleeping what the gate says: every pass is ≥ 100 ms after the previous one.
    const passes: number[] = [first.now];
    await Promise.all(
      [a, b].map(async (w) => {
        for (let i = 0; i < 3; i++) {
          let g = await w.gate('x.org');
          while (!g.passed) {
            await sleep(g.waitMs);
            g = await w.gate('x.org');
          }
          passes.push(g.now);
        }
      }),
    );
    passes.sort((x, y) => x - y);
    expect(passes).toHaveLength(7);
    for (let i = 1; i < passes.length; i++) expect(passes[i]! - passes[i - 1]!).toBeGreaterThanOrEqual(100);
    // A release with a Crawl-delay pushes the gate: no request leaves before its ready time, lease or not.
    await a.offer('z.org');
    const g = await a.acquire(['z.org']);
    if (g.kind !== 'granted') throw new Error('expected a lease');
    const released = await a.release(g.token, { crawlDelayMs: 400 });
    if (released.kind !== 'released') throw new Error('expected a release');
    const blocked = await b.gate('z.org');
    if (blocked.passed) throw new Error('the gate opened before the Crawl-delay');
    expect(blocked.now + blocked.waitMs).toBe(released.readyAt);
    // A Crawl-delay given to the gate spaces the next pass by it.
    const c = await b.gate('w.org', 300);
    const d = await a.gate('w.org');
    if (!c.passed || d.passed) throw new Error('expected one pass, then a wait');
    expect(d.now + d.waitMs).toBe(c.now + 300);
  });

  it('send gate for a worker that lost its lease (host concurrency 1): waits while a lease is held and for the politeness time, then holds the next lease back by delayMs', async () => {
    const crawl = nextCrawl();
    const a = await leases({ crawl, worker: 'a', hostConcurrency: 1, delayMs: 150 });
    const b = await leases({ crawl, worker: 'b', hostConcurrency: 1, delayMs: 150 });
    await a.offer('x.org');
    const held = await a.acquire(['x.org']);
    if (held.kind !== 'granted') throw new Error('expected a lease');
    // b (its own lease lost) may not send while a holds the PLD, whatever the gate time says.
    const whileHeld = await b.gate('x.org', 0, true);
    if (whileHeld.passed) throw new Error('the unleased gate let a request through while a lease was held');
    expect(whileHeld.waitMs).toBeGreaterThanOrEqual(150);
    expect((await a.release(held.token)).kind).toBe('released');
    // Released: the PLD's politeness time (release + 150 ms) still holds b back …
    const early = await b.gate('x.org', 0, true);
    if (early.passed) throw new Error('the unleased gate opened before the politeness time');
    expect(early.waitMs).toBeGreaterThan(0);
    expect(early.waitMs).toBeLessThanOrEqual(150);
    await sleep(early.waitMs);
    const pass = await b.gate('x.org', 0, true);
    if (!pass.passed) throw new Error(`expected a pass, got ${JSON.stringify(pass)}`);
    // … and after its pass no lease starts on the PLD for 150 ms, and no other unleased request passes.
    expect(await a.acquire(['x.org'])).toMatchObject({ kind: 'none' });
    expect(await a.politeAt('x.org')).toBe(pass.now + 150);
    expect((await a.gate('x.org', 0, true)).passed).toBe(false);
    await sleep(pass.now + 160 - Date.now());
    expect(await a.acquire(['x.org'])).toMatchObject({ kind: 'granted', pld: 'x.org' });
  });

  it('keeps leases across a Redis restart from its AOF file', async () => {
    const own = await startRedisServer();
    try {
      const redis = await connectRedis(own.url);
      const a = new PldLeases(redis, { crawl: 'aof', worker: 'a', delayMs: 0 });
      await a.offer('x.org');
      const g = await a.acquire();
      if (g.kind !== 'granted') throw new Error('expected a lease');
      await own.kill();
      await own.restart();
      expect(await a.holders('x.org')).toBe(1); // the client reconnected by itself
      expect(await a.release(g.token)).toMatchObject({ kind: 'released' });
      redis.disconnect();
    } finally {
      await own.stop();
    }
  });
});
