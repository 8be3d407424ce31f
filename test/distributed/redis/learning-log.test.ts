// LearningLog.read against a real redis-server: a reader's own entries are read past (its position moves) but not sent.
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { LearningLog } from '../../../src/distributed/redis/learning-log.ts';
import { redisPerFile } from '../../helpers/redis-per-file.ts';

const redis = redisPerFile(1);
let client: Redis;
beforeAll(() => {
  [client] = redis.get().clients as [Redis];
});

describe('LearningLog.read', () => {
  it('leaves out the entries that start with the skip prefix, counts them as read, and keeps them for others', async () => {
    const prefix = 'rdfscout:{log1}:';
    const log = new LearningLog(client, prefix);
    const entry = (w: string, i: number) => JSON.stringify({ w, pld: `p${i}.org`, reward: i, doc: {} });
    // Worker "a" and worker "ab" (its id a prefix of the other's) interleaved.
    const all = Array.from({ length: 10 }, (_, i) => entry(i % 3 === 0 ? 'ab' : 'a', i));
    await client.rpush(`${prefix}log`, ...all);

    const own = `{"w":${JSON.stringify('a')},`;
    const first = await log.read('a', 0, 4, own);
    expect(first).toEqual({ kind: 'entries', base: 0, read: 4, entries: [all[0], all[3]] });
    const rest = await log.read('a', 4, 100, own);
    expect(rest).toEqual({ kind: 'entries', base: 0, read: 6, entries: [all[6], all[9]] });
    expect(await log.read('a', 10, 100, own)).toEqual({ kind: 'entries', base: 0, read: 0, entries: [] });
    // The reader's position moved past what it read, skipped entries included (a fold may drop them).
    const pos = await client.hget(`${prefix}log:pos`, 'a');
    expect(pos?.split('\t')[0]).toBe('10');
    // Without a prefix every entry comes back; another reader still gets a's entries.
    expect(await log.read('c', 0, 100)).toEqual({ kind: 'entries', base: 0, read: 10, entries: all });
    const forAb = await log.read('ab', 0, 100, '{"w":"ab",');
    expect(forAb.kind === 'entries' && forAb.entries).toEqual(all.filter((_, i) => i % 3 !== 0));
  });
});
