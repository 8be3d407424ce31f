// Tests of the shared seen set (64-bit fingerprints in small hashes) against a real redis-server, and of the split.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../../src/distributed/redis/connect.ts';
import { bucketBitsFor, splitFingerprint, urlFingerprint } from '../../../src/distributed/redis/fingerprint.ts';
import { SeenSet } from '../../../src/distributed/redis/seen-set.ts';
import { type RedisTestServer, startRedisServer } from '../../helpers/redis-server.ts';

describe('fingerprints', () => {
  it('split into a bucket and a field that together keep all 64 bits', () => {
    const fp = urlFingerprint('http://example.org/a?b=c');
    for (const bits of [0, 7, 14, 21, 32]) {
      const { bucket, member } = splitFingerprint(fp, bits);
      const rest = BigInt(member);
      expect(rest < 1n << BigInt(64 - bits)).toBe(true);
      const back = bits === 0 ? rest : (BigInt(`0x${bucket}`) << BigInt(64 - bits)) | rest;
      expect(back).toBe(fp);
    }
  });

  it('choose about 200 fingerprints a bucket for the expected crawl size (at most 512 stay an intset)', () => {
    expect(bucketBitsFor(1_000_000)).toBe(13); // 122 a bucket
    expect(bucketBitsFor(100_000_000)).toBe(19); // 191 a bucket
    expect(bucketBitsFor(10)).toBe(0);
  });
});

describe('SeenSet', () => {
  let server: RedisTestServer;
  const clients: Redis[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
    clients.push(await connectRedis(server.url), await connectRedis(server.url), await connectRedis(server.url));
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await server?.stop();
  });

  it('says which URLs are new, also for a URL repeated in one call, and remembers them', async () => {
    const seen = new SeenSet(clients[0]!, { crawl: 'one', bucketBits: 4 });
    expect(await seen.add(['http://a.org/', 'http://b.org/', 'http://a.org/'])).toEqual([true, true, false]);
    expect(await seen.add(['http://b.org/', 'http://c.org/'])).toEqual([false, true]);
    expect(await seen.has(['http://a.org/', 'http://c.org/', 'http://d.org/'])).toEqual([true, true, false]);
    // Another crawl on the same server has its own set.
    expect(await new SeenSet(clients[0]!, { crawl: 'two', bucketBits: 4 }).has(['http://a.org/'])).toEqual([false]);
  });

  it('tells exactly one of several workers adding the same URLs at once that each is new', async () => {
    const urls = Array.from({ length: 2000 }, (_, i) => `http://site${i % 37}.example/page/${i}`);
    const sets = clients.map((c) => new SeenSet(c, { crawl: 'race', bucketBits: 6 }));
    const answers = await Promise.all(sets.map((s, k) => s.add(k % 2 === 0 ? urls : [...urls].reverse())));
    const newCount = urls.map((_, i) => [answers[0]![i], answers[1]![urls.length - 1 - i], answers[2]![i]].filter(Boolean).length);
    expect(newCount.every((n) => n === 1)).toBe(true);
  });

  it('keeps its buckets as compact intsets at the fill bucketBitsFor aims at', async () => {
    const n = 5000;
    const bits = bucketBitsFor(n);
    const seen = new SeenSet(clients[0]!, { crawl: 'compact', bucketBits: bits });
    const urls = Array.from({ length: n }, (_, i) => `http://host${i % 500}.example/doc/${i}`);
    expect((await seen.add(urls)).filter(Boolean).length).toBe(n);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await clients[0]!.scan(cursor, 'MATCH', seen.keys.seenBucket('*'), 'COUNT', 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    expect(keys.length).toBe(2 ** bits);
    const encodings = new Set(await Promise.all(keys.map((k) => clients[0]!.object('ENCODING', k))));
    expect(encodings).toEqual(new Set(['intset']));
  });

  it('refuses a bucket width outside 0–32', () => {
    expect(() => new SeenSet(clients[0]!, { crawl: 'x', bucketBits: 40 })).toThrow(/bucketBits/);
  });
});
