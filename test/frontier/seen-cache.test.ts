// SeenCache against a real redis-server: it answers as the seen set does, and asks Redis only about URLs not known seen.
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { SeenCache } from '../../src/frontier/seen-cache.ts';
import { SeenSet } from '../../src/redis/seen-set.ts';
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
});
