// SeenCache against a real redis-server: it answers as the seen set does, and asks Redis only about URLs not known seen.
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { SeenCache } from '../../src/distributed/seen-cache.ts';
import { SeenSet } from '../../src/distributed/redis/seen-set.ts';
import { redisPerFile } from '../helpers/redis-per-file.ts';

const redis = redisPerFile();
let client: Redis;
beforeAll(() => {
  client = redis.get().clients[0] as Redis;
});

/** SISMEMBER calls the server has answered so far. */
async function sismembers(): Promise<number> {
  return Number(/cmdstat_sismember:calls=(\d+)/.exec(await client.info('commandstats'))?.[1] ?? 0);
}

describe('SeenCache', () => {
  it('answers like the seen set and asks again only about URLs not known to be seen', async () => {
    const seen = new SeenSet(client, { crawl: 'cache', bucketBits: 0 });
    const cache = new SeenCache(seen);
    await seen.add(['http://a.org/1', 'http://a.org/2']);
    const before = await sismembers();
    expect(await cache.has(['http://a.org/1', 'http://a.org/2', 'http://a.org/3'])).toEqual([true, true, false]);
    expect((await sismembers()) - before).toBe(3);
    // Known seen: not asked again; not seen: asked again (another worker may have added it since).
    await seen.add(['http://a.org/3']);
    expect(await cache.has(['http://a.org/1', 'http://a.org/3'])).toEqual([true, true]);
    expect((await sismembers()) - before).toBe(4);
    cache.learn(['http://a.org/4']); // a script added it
    expect(await cache.has(['http://a.org/4', 'http://a.org/3'])).toEqual([true, true]);
    expect((await sismembers()) - before).toBe(4);
  });

  it('says what it knows without asking Redis, and keeps the newer of two generations when full', async () => {
    const seen = new SeenSet(client, { crawl: 'cache-known', bucketBits: 0 });
    const cache = new SeenCache(seen);
    await seen.add(['http://b.org/1']);
    const before = await sismembers();
    expect(cache.known(['http://b.org/1'])).toEqual([false]); // in the seen set, not known to this worker
    cache.learn(['http://b.org/1']);
    expect(cache.known(['http://b.org/1', 'http://b.org/2'])).toEqual([true, false]);
    expect((await sismembers()) - before).toBe(0);
    // 50 000 URLs fill a generation: the first one learned is still known after 60 000 (in the older one), and
    // forgotten after 110 000 (two generations later).
    const urls = (from: number, n: number) => Array.from({ length: n }, (_, i) => `http://c.org/${from + i}`);
    cache.learn(urls(0, 60_000));
    expect(cache.known(['http://b.org/1', 'http://c.org/59999'])).toEqual([true, true]);
    cache.learn(urls(60_000, 50_000));
    expect(cache.known(['http://b.org/1', 'http://c.org/0', 'http://c.org/109999'])).toEqual([false, false, true]);
  });
});
