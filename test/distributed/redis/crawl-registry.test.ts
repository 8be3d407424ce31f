// CrawlRegistry.status against a real redis-server: the totals and the per-worker counts are one instant's (one MULTI).
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { CrawlRegistry } from '../../../src/distributed/redis/crawl-registry.ts';
import { SharedQueue } from '../../../src/distributed/redis/shared-queue.ts';
import { redisPerFile } from '../../helpers/redis-per-file.ts';

const redis = redisPerFile(2);
let client: Redis;
let reader: Redis;
beforeAll(() => {
  [client, reader] = redis.get().clients as [Redis, Redis];
});

describe('CrawlRegistry.status', () => {
  it('reads totals that equal the sum of the workers while two workers finish fetches', async () => {
    const crawl = 'status1';
    const o = { crawl, hostConcurrency: 1, delayMs: 0, leaseMs: 30_000, bucketBits: 0 };
    const workers = ['a', 'b', 'c'].map((worker) => new SharedQueue(client, { ...o, worker }));
    const registry = new CrawlRegistry(reader, crawl);
    await registry.create({ options: {}, bucketBits: 0, leaseMs: 30_000, created: '2026-11-23T00:00:00.000Z' });
    const links = Array.from({ length: 150 }, (_, i) => ({ url: `http://p${i % 30}.org/${i}`, pld: `p${i % 30}.org`, priority: 1, json: '{}' }));
    await workers[0]!.add(links, Date.now());
    const limits = { maxDocs: 1000, maxDocsPerPld: 1000 };
    let running = true;
    const crawlWith = async (q: SharedQueue) => {
      for (;;) {
        const c = await q.claim([], Date.now(), limits);
        if (c.kind !== 'ok') return;
        await q.finish({ token: c.token, url: c.url, mode: 'done', spent: true, rdf: 1, waitMs: 0, now: Date.now() });
      }
    };
    const crawls = Promise.all(workers.map(crawlWith)).finally(() => {
      running = false;
    });
    const reads: Array<[number, number]> = [];
    while (running) {
      const s = await registry.status(90_000);
      if (s !== undefined) reads.push([s.fetched, s.workers.reduce((n, w) => n + w.fetched, 0)]);
    }
    await crawls;
    const last = await registry.status(90_000);
    expect(last?.fetched).toBe(150);
    expect(last?.workers.map((w) => w.worker)).toEqual(['a', 'b', 'c']);
    expect(reads.length).toBeGreaterThan(3);
    expect(reads.filter(([total, sum]) => total !== sum)).toEqual([]);
    expect(reads.some(([total]) => total > 0 && total < 150)).toBe(true); // read while fetches were landing
  });
});
