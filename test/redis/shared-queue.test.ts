// SharedQueue against a real redis-server: a stale release applies nothing, budgets are shared, reclaimed work comes back marked lost.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/redis/connect.ts';
import { CrawlRegistry } from '../../src/redis/crawl-registry.ts';
import { type QueueAdd, SharedQueue } from '../../src/redis/shared-queue.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';

let server: RedisTestServer;
let client: Redis;
let n = 0;

beforeAll(async () => {
  server = await startRedisServer({ appendOnly: false });
  client = await connectRedis(server.url);
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

const link = (url: string, priority = 1): QueueAdd => ({ url, pld: new URL(url).hostname, priority, json: JSON.stringify({ url }) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function queues(leaseMs = 30_000): [SharedQueue, SharedQueue, string] {
  const crawl = `q${++n}`;
  const o = { crawl, hostConcurrency: 1, delayMs: 0, leaseMs, bucketBits: 0 };
  return [new SharedQueue(client, { ...o, worker: 'a' }), new SharedQueue(client, { ...o, worker: 'b' }), crawl];
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
    expect(await new CrawlRegistry(client, crawl).log.range(0, 0, 10)).toEqual([]);
    expect(await b.seen.has(['http://x.org/2'])).toEqual([false]); // its link was never queued
    // b fetches it again: counted once, as a refetch.
    const again = await b.claim([], Date.now(), limits);
    if (again.kind !== 'ok') throw new Error(`expected a claim, got ${again.kind}`);
    expect(again.entry.lost).toBe(true);
    const done = await b.finish({ token: again.token, url: again.url, mode: 'done', spent: true, rdf: 1, waitMs: 0, adds: [link('http://x.org/2')], log: '{"w":"b"}', now: Date.now() });
    expect(done).toMatchObject({ kind: 'ok', added: 1, stat: { queued: 1, inFlight: 0, done: 1, spent: 1, refetched: 1 } });
    expect(await new CrawlRegistry(client, crawl).log.range(0, 0, 10)).toEqual(['{"w":"b"}']);
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
});
