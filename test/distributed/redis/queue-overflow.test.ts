// The queue cap and its overflow against a real redis-server: a capped PLD queue hands out the same entries
// in the same order as an uncapped one, nothing is lost, and the spilled entries are counted, viewed and listed.
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { type QueueAdd, SharedQueue } from '../../../src/distributed/redis/shared-queue.ts';
import { Prng } from '../../../src/random/prng.ts';
import { redisPerFile } from '../../helpers/redis-per-file.ts';

const redis = redisPerFile();
let client: Redis;
beforeAll(() => {
  client = redis.get().clients[0] as Redis;
});

const limits = { maxDocs: 10_000, maxDocsPerPld: 10_000 };

function queueFor(crawl: string): SharedQueue {
  return new SharedQueue(client, { crawl, worker: 'w', hostConcurrency: 1000, delayMs: 0, leaseMs: 30_000, bucketBits: 0 });
}

/** Links of x.org with priorities from a few values (many ties: the seq decides among them). */
function links(prng: Prng, from: number, n: number): QueueAdd[] {
  return Array.from({ length: n }, (_, i) => {
    const url = `http://x.org/${from + i}`;
    return { url, pld: 'x.org', priority: [0.5, 1, 1, 2, 3][prng.nextInt(5)] as number, json: JSON.stringify({ n: from + i }) };
  });
}

/** Adds links in batches, claims some between batches, then claims the rest: the URLs in hand-out order. */
async function crawlOrder(q: SharedQueue, onSpilled?: () => Promise<void>): Promise<string[]> {
  const prng = new Prng(11);
  const order: string[] = [];
  const claimSome = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const c = await q.claim(['x.org'], Date.now(), limits);
      if (c.kind !== 'ok') return;
      order.push(c.url);
      // Every fifth fetch is retried once: it goes back with a new seq (and through the cap again).
      const retry = order.length % 5 === 0 && c.entry.attempts === 0;
      await q.finish({ token: c.token, url: c.url, mode: retry ? 'retry' : 'done', spent: true, rdf: 0, waitMs: 0, notBefore: 0, now: Date.now() });
    }
  };
  for (let batch = 0; batch < 6; batch++) {
    await q.add(links(prng, batch * 15, 15), Date.now());
    if (batch === 2) await onSpilled?.();
    await claimSome(4);
  }
  await claimSome(1000);
  return order;
}

describe('queue cap and overflow', () => {
  it('hands out the entries of a capped queue in the order of an uncapped one, each once, retries included', async () => {
    const capped = queueFor('capped');
    await capped.setQueueCap(6);
    const p = capped.keys.prefix;
    let spilled = 0;
    const cappedOrder = await crawlOrder(capped, async () => {
      expect(await client.zcard(`${p}q:x.org`)).toBeLessThanOrEqual(6);
      spilled = await client.zcard(`${p}o:x.org`);
      // The counts, the view and the listing include the spilled entries.
      const view = await capped.changes(-1);
      const queued = view.stat.queued;
      expect(view.views.find((v) => v.pld === 'x.org')?.queued).toBe(queued);
      expect((await capped.queuedOf('x.org')).length).toBe(queued);
      expect(queued).toBeGreaterThan(6);
    });
    const plainOrder = await crawlOrder(queueFor('plain'));
    expect(spilled).toBeGreaterThan(0);
    expect(plainOrder.length).toBe(90 + 18); // 90 URLs, 18 of them retried once
    expect(new Set(plainOrder).size).toBe(90);
    expect(cappedOrder).toEqual(plainOrder);
    const end = await capped.changes(-1);
    expect(end.stat).toMatchObject({ queued: 0, inFlight: 0, done: 90 });
    expect(await client.keys(`${p}r:*`)).toEqual([]); // every run was emptied and removed
    expect(await client.zcard(`${p}o:x.org`)).toBe(0);
    expect(await client.hlen(`${p}e`)).toBe(0);
  });

  it('keeps a spilled entry found again as it was, and counts it once', async () => {
    const q = queueFor('again');
    await q.setQueueCap(2);
    const prng = new Prng(3);
    const first = links(prng, 0, 8).map((l) => ({ ...l, priority: 1 }));
    const added = await q.add(first, Date.now());
    expect(added.fresh.filter(Boolean).length).toBe(8);
    const again = await q.add(first.map((l) => ({ ...l, priority: 0 })), Date.now()); // more urgent, already seen
    expect(again.fresh.filter(Boolean).length).toBe(0);
    expect(again.stat.queued).toBe(8);
    const urls: string[] = [];
    for (;;) {
      const c = await q.claim(['x.org'], Date.now(), limits);
      if (c.kind !== 'ok') break;
      urls.push(c.url);
      await q.finish({ token: c.token, url: c.url, mode: 'done', spent: true, rdf: 0, waitMs: 0, now: Date.now() });
    }
    expect(urls.sort()).toEqual(first.map((l) => l.url).sort());
  });
});
