// SharedQueue against a real redis-server: a stale release applies nothing, budgets are shared, reclaimed work comes back marked lost.
import { describe, expect, it } from 'vitest';
import { CrawlRegistry } from '../../../src/distributed/redis/crawl-registry.ts';
import { type QueueAdd, SharedQueue } from '../../../src/distributed/redis/shared-queue.ts';
import { redisPerFile } from '../../helpers/redis-per-file.ts';

const redis = redisPerFile();
let n = 0;

const link = (url: string, priority = 1): QueueAdd => ({ url, pld: new URL(url).hostname, priority, json: JSON.stringify({ url }) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function queues(leaseMs = 30_000): [SharedQueue, SharedQueue, string] {
  const crawl = `q${++n}`;
  const o = { crawl, hostConcurrency: 1, delayMs: 0, leaseMs, bucketBits: 0 };
  return [new SharedQueue(redis.client(), { ...o, worker: 'a' }), new SharedQueue(redis.client(), { ...o, worker: 'b' }), crawl];
}

const limits = { maxDocs: 100, maxDocsPerPld: 100 };

describe('SharedQueue', () => {
  it('refuses a release whose lease was reclaimed: no link queued, no budget spent, nothing learned', async () => {
    const [a, b, crawl] = queues(100);
    await a.add([link('http://x.org/1')], Date.now());
    const claim = await a.claim([], Date.now(), limits);
    if (claim.kind !== 'ok') throw new Error(`expected a claim, got ${claim.kind}`);
    expect(claim.stat).toMatchObject({ queued: 0, inFlight: 1 });
    await sleep(150);
    const reclaimed = await b.reclaim(); // a's lease expired: its entry goes back, marked lost
    expect(reclaimed.requeued).toBe(1);
    expect(reclaimed.stat).toMatchObject({ queued: 1, inFlight: 0 });
    const late = await a.finish({ token: claim.token, url: claim.url, mode: 'done', spent: true, rdf: 1, waitMs: 0, adds: [link('http://x.org/2')], log: '{"w":"a"}', now: Date.now() });
    expect(late.kind).toBe('stale');
    expect(late.stat).toMatchObject({ queued: 1, spent: 0, done: 0 });
    expect(await new CrawlRegistry(redis.client(), crawl).log.range(0, 0, 10)).toEqual([]);
    expect(await b.seen.has(['http://x.org/2'])).toEqual([false]); // its link was never queued
    // b fetches it again: counted once, as a refetch.
    const again = await b.claim([], Date.now(), limits);
    if (again.kind !== 'ok') throw new Error(`expected a claim, got ${again.kind}`);
    expect(again.entry.lost).toBe(true);
    const done = await b.finish({ token: again.token, url: again.url, mode: 'done', spent: true, rdf: 1, waitMs: 0, adds: [link('http://x.org/2')], log: '{"w":"b"}', now: Date.now() });
    expect(done).toMatchObject({ kind: 'ok', added: 1, stat: { queued: 1, inFlight: 0, done: 1, spent: 1, refetched: 1 } });
    expect(await new CrawlRegistry(redis.client(), crawl).log.range(0, 0, 10)).toEqual(['{"w":"b"}']);
  });

  it('shares the budget: spent and in-flight fetches of every worker count, robots refusals do not', async () => {
    const [a, b] = queues();
    await a.add(['http://p.org/1', 'http://q.org/1', 'http://r.org/1', 'http://s.org/1'].map((u) => link(u)), Date.now());
    const two = { maxDocs: 2, maxDocsPerPld: 100 };
    const c1 = await a.claim([], Date.now(), two);
    const c2 = await b.claim([], Date.now(), two);
    expect([c1.kind, c2.kind]).toEqual(['ok', 'ok']);
    expect((await a.claim([], Date.now(), two)).kind).toBe('budget'); // 0 spent + 2 in flight
    if (c1.kind !== 'ok' || c2.kind !== 'ok') throw new Error('unreachable');
    await a.finish({ token: c1.token, url: c1.url, mode: 'done', spent: false, rdf: 0, waitMs: 0, now: Date.now() }); // denied by robots
    expect((await b.claim([], Date.now(), two)).kind).toBe('ok'); // its slot came back
  });

  it('holds one lease per PLD across workers and keeps (priority, seq) order within a PLD', async () => {
    const [a, b] = queues();
    await a.add([link('http://x.org/late', 2), link('http://x.org/first', 1), link('http://x.org/second', 1)], Date.now());
    const first = await a.claim(['x.org'], Date.now(), limits);
    expect(first).toMatchObject({ kind: 'ok', url: 'http://x.org/first' });
    expect((await b.claim(['x.org'], Date.now(), limits)).kind).toBe('none'); // x.org is leased by a
    if (first.kind !== 'ok') throw new Error('unreachable');
    await a.finish({ token: first.token, url: first.url, mode: 'done', spent: true, rdf: 0, waitMs: 0, now: Date.now() });
    expect(await b.claim(['x.org'], Date.now(), limits)).toMatchObject({ kind: 'ok', url: 'http://x.org/second' });
  });

  it('answers only the PLDs changed since a version (the change feed), and nothing when none changed', async () => {
    const [a, b] = queues();
    await a.add([link('http://x.org/1'), link('http://y.org/1')], Date.now());
    const all = await b.changes(-1);
    expect(all.views.map((v) => v.pld).sort()).toEqual(['x.org', 'y.org']);
    expect((await b.changes(all.ver)).views).toEqual([]);
    await a.add([link('http://y.org/2'), link('http://x.org/1')], Date.now()); // x.org/1 is seen: x.org does not change
    const since = await b.changes(all.ver);
    expect(since.views).toMatchObject([{ pld: 'y.org', queued: 2 }]);
    expect(since.ver).toBeGreaterThan(all.ver);
    const c = await a.claim(['x.org'], Date.now(), limits);
    expect(c.kind).toBe('ok');
    expect((await b.changes(since.ver)).views).toMatchObject([{ pld: 'x.org', queued: 0, inFlight: 1 }]);
  });

  it('claims several PLDs in one script and says how long each refused one waits', async () => {
    const o = { crawl: `q${++n}`, hostConcurrency: 1, delayMs: 60_000, leaseMs: 30_000, bucketBits: 0 };
    const [a, b] = [new SharedQueue(redis.client(), { ...o, worker: 'a' }), new SharedQueue(redis.client(), { ...o, worker: 'b' })];
    await a.add(['http://p.org/1', 'http://q.org/1', 'http://r.org/1', 'http://r.org/2', 's.org/1'].map((u) => link(u.startsWith('http') ? u : `http://${u}`)), Date.now());
    const held = await b.claim(['q.org'], Date.now(), limits); // q.org is leased by b
    const done = await b.claim(['s.org'], Date.now(), limits); // s.org was fetched: 60 s of politeness
    if (held.kind !== 'ok' || done.kind !== 'ok') throw new Error('expected two claims');
    await b.finish({ token: done.token, url: done.url, mode: 'done', spent: true, rdf: 0, waitMs: 60_000, now: Date.now() });
    const batch = await a.claimMany(['p.org', 'q.org', 's.org', 'r.org', 'none.org'], 3, Date.now(), limits);
    expect(batch.kind).toBe('ok');
    expect(batch.claims.map((c) => c.url)).toEqual(['http://p.org/1', 'http://r.org/1']); // one per PLD, in the given order
    expect(batch.refused.map((r) => r.pld)).toEqual(['q.org', 's.org', 'none.org']);
    expect(batch.refused[0]?.waitMs).toBeNull(); // at its limit: until the lease ends
    expect(batch.refused[1]?.waitMs).toBeGreaterThan(50_000); // politeness, on Redis's clock
    expect(batch.refused[2]?.waitMs).toBeNull(); // no work there
    expect(batch.stat).toMatchObject({ queued: 1, inFlight: 3, done: 1 });
  });

  it('claims with a release, after it, under the same checks as a claim: politeness, host concurrency, budget', async () => {
    const o = { crawl: `q${++n}`, hostConcurrency: 1, delayMs: 60_000, leaseMs: 30_000, bucketBits: 0 };
    const [a, b] = [new SharedQueue(redis.client(), { ...o, worker: 'a' }), new SharedQueue(redis.client(), { ...o, worker: 'b' })];
    await a.add(['http://p.org/1', 'http://p.org/2', 'http://q.org/1', 'http://r.org/1', 'http://r.org/2'].map((u) => link(u)), Date.now());
    const held = await b.claim(['q.org'], Date.now(), limits); // q.org is leased by b
    const first = await a.claim(['p.org'], Date.now(), limits);
    if (held.kind !== 'ok' || first.kind !== 'ok') throw new Error('expected two claims');
    // The release of p.org/1 asks for p.org (just released: 60 s of politeness), q.org (b's) and r.org.
    const claim = { candidates: ['p.org', 'q.org', 'r.org'], limits };
    const done = await a.finish({ token: first.token, url: first.url, mode: 'done', spent: true, rdf: 0, waitMs: 60_000, now: Date.now(), claim });
    if (done.kind !== 'ok') throw new Error(`expected the release applied, got ${done.kind}`);
    expect(done.claimed.kind).toBe('ok');
    expect(done.claimed.claims.map((c) => c.url)).toEqual(['http://r.org/1']);
    expect(done.claimed.claims[0]?.entry.state).toBe('f');
    expect(done.claimed.refused.map((r) => r.pld)).toEqual(['p.org', 'q.org']);
    expect(done.claimed.refused[0]?.waitMs).toBeGreaterThan(50_000); // the release's politeness, on Redis's clock
    expect(done.claimed.refused[1]?.waitMs).toBeNull(); // at its limit until b's lease ends
    expect(done.stat).toMatchObject({ queued: 2, inFlight: 2, done: 1, spent: 1 });
    expect(done.views.find((v) => v.pld === 'r.org')).toMatchObject({ queued: 1, inFlight: 1 });
    // The lease taken in the release holds r.org like any other: b cannot claim it, and a finishes with it.
    expect((await b.claim(['r.org'], Date.now(), limits)).kind).toBe('none');
    const [rc] = done.claimed.claims;
    if (rc === undefined) throw new Error('unreachable');
    const next = await a.finish({ token: rc.token, url: rc.url, mode: 'done', spent: true, rdf: 0, waitMs: 0, now: Date.now() });
    expect(next).toMatchObject({ kind: 'ok', claimed: { kind: 'none', claims: [], refused: [] }, stat: { inFlight: 1, done: 2 } });
    // A robots refusal spends nothing: its slot is free when its release claims (2 spent + 0 in flight of 3), and a
    // link the release queues can be claimed by it.
    const three = { maxDocs: 3, maxDocsPerPld: 100 };
    const denied = await b.finish({ token: held.token, url: held.url, mode: 'done', spent: false, rdf: 0, waitMs: 0, now: Date.now(), adds: [link('http://s.org/1')], claim: { candidates: ['s.org'], limits: three } });
    expect(denied).toMatchObject({ kind: 'ok', added: 1, claimed: { kind: 'ok', claims: [{ url: 'http://s.org/1' }] }, stat: { spent: 2, inFlight: 1 } });
    const s1 = denied.claimed?.claims[0];
    if (s1 === undefined) throw new Error('unreachable');
    // Its own fetch spent, the budget is spent (3 of 3): the release claims nothing.
    const end = await b.finish({ token: s1.token, url: s1.url, mode: 'done', spent: true, rdf: 0, waitMs: 0, now: Date.now(), adds: [link('http://t.org/1')], claim: { candidates: ['t.org'], limits: three } });
    expect(end).toMatchObject({ kind: 'ok', claimed: { kind: 'budget', claims: [] }, stat: { spent: 3, inFlight: 0 } });
  });

  it('claims nothing with a stale release, and an entry claimed with a release comes back when its worker dies', async () => {
    const [a, b] = queues(200);
    await a.add(['http://x.org/1', 'http://y.org/1', 'http://z.org/1'].map((u) => link(u)), Date.now());
    const first = await a.claim(['x.org'], Date.now(), limits);
    if (first.kind !== 'ok') throw new Error(`expected a claim, got ${first.kind}`);
    const done = await a.finish({ token: first.token, url: first.url, mode: 'done', spent: true, rdf: 0, waitMs: 0, now: Date.now(), claim: { candidates: ['y.org'], limits } });
    if (done.kind !== 'ok') throw new Error(`expected the release applied, got ${done.kind}`);
    const [y] = done.claimed.claims;
    expect(y?.url).toBe('http://y.org/1');
    if (y === undefined) throw new Error('unreachable');
    // a stops (no renewal, no heartbeat): its lease on y.org expires and the entry goes back, marked lost.
    await sleep(250);
    const reclaimed = await b.reclaim();
    expect(reclaimed).toMatchObject({ requeued: 1, stat: { queued: 2, inFlight: 0 } });
    const late = await a.finish({ token: y.token, url: y.url, mode: 'done', spent: true, rdf: 1, waitMs: 0, now: Date.now(), claim: { candidates: ['z.org'], limits } });
    expect(late).toMatchObject({ kind: 'stale', claimed: null, stat: { queued: 2, inFlight: 0, spent: 1 } }); // z.org not claimed
    const again = await b.claim(['y.org'], Date.now(), limits);
    expect(again).toMatchObject({ kind: 'ok', url: 'http://y.org/1', entry: { lost: true } });
    if (again.kind !== 'ok') throw new Error('unreachable');
    expect(await b.finish({ token: again.token, url: again.url, mode: 'done', spent: true, rdf: 0, waitMs: 0, now: Date.now() })).toMatchObject({ kind: 'ok', stat: { done: 2, spent: 2, refetched: 1 } });
  });

  it('gives a PLD back the budget of a claim lost with its worker: its refetch is claimed, nothing past the budget', async () => {
    // Differential seed 1363's first suspect (a dead host's budget charged to a killed worker's claim for good).
    const [a, b] = queues(100);
    const two = { maxDocs: 100, maxDocsPerPld: 2 };
    await a.add(['http://x.org/1', 'http://x.org/2', 'http://x.org/3'].map((u) => link(u)), Date.now());
    const first = await a.claim(['x.org'], Date.now(), two);
    if (first.kind !== 'ok') throw new Error(`expected a claim, got ${first.kind}`);
    expect(await a.finish({ token: first.token, url: first.url, mode: 'done', spent: true, rdf: 0, waitMs: 0, now: Date.now() })).toMatchObject({ kind: 'ok', stat: { spent: 1 } });
    const lost = await a.claim(['x.org'], Date.now(), two); // spent 1 + in flight 1: the PLD's budget is taken
    expect(lost).toMatchObject({ kind: 'ok', url: 'http://x.org/2' });
    // a dies: no renewal; its lease expires and b puts the entry back.
    await sleep(150);
    expect(await b.reclaim()).toMatchObject({ requeued: 1, stat: { queued: 2, inFlight: 0, spent: 1 } });
    const again = await b.claim(['x.org'], Date.now(), two);
    expect(again).toMatchObject({ kind: 'ok', url: 'http://x.org/2', entry: { lost: true } });
    if (again.kind !== 'ok') throw new Error('unreachable');
    expect(await b.finish({ token: again.token, url: again.url, mode: 'done', spent: true, rdf: 0, waitMs: 0, now: Date.now() })).toMatchObject({ kind: 'ok', stat: { spent: 2, refetched: 1 } });
    expect(await b.claim(['x.org'], Date.now(), two)).toMatchObject({ kind: 'none', stat: { queued: 1, inFlight: 0, spent: 2 } }); // x.org/3 waits: the budget is spent
  });
});
