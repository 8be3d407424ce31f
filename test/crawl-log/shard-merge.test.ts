// The merge of shards: one record per URL, the latest wins; a document stored twice comes from the winner.
import { describe, expect, it } from 'vitest';
import { isLater, type MergeKey, ShardMerger } from '../../src/crawl-log/shard-merge.ts';

const rec = (seq: number, url: string, at: string, triples = 0, finalUrl = url): MergeKey => ({ seq, url, finalUrl, fetchedAt: `2026-01-01T00:00:${at}Z`, triples });

describe('ShardMerger', () => {
  it('keeps the latest record of a URL fetched in two shards, whichever shard is read first, and counts it refetched', () => {
    for (const order of [[0, 1], [1, 0]]) {
      const m = new ShardMerger(2);
      const records: Record<number, MergeKey[]> = {
        0: [rec(1, 'http://a/', '01.000'), rec(2, 'http://a/x', '05.000')],
        1: [rec(1, 'http://a/x', '03.000'), rec(2, 'http://b/', '04.000')],
      };
      for (const shard of order) for (const r of records[shard as 0 | 1] ?? []) m.add(shard as number, r);
      const plan = m.plan();
      expect(plan.dropped.map((s) => [...s])).toEqual([[], [1]]); // shard 1's fetch of /x (03 s) is older than shard 0's (05 s)
      expect(plan.refetched).toBe(1);
    }
  });

  it('drops the older of two records of one URL within one shard too (a worker that fetched it again)', () => {
    const m = new ShardMerger(2);
    m.add(0, rec(1, 'http://a/', '01.000'));
    m.add(0, rec(7, 'http://a/', '09.000'));
    m.add(1, rec(1, 'http://b/', '02.000'));
    expect(m.plan().dropped.map((s) => [...s])).toEqual([[1], []]);
    expect(m.plan().refetched).toBe(1);
  });

  it('breaks a tie of fetch times by shard position, then by seq', () => {
    const at = '2026-01-01T00:00:00.000Z';
    expect(isLater({ shard: 1, seq: 1, at }, { shard: 0, seq: 9, at })).toBe(true);
    expect(isLater({ shard: 0, seq: 2, at }, { shard: 0, seq: 1, at })).toBe(true);
    expect(isLater({ shard: 0, seq: 2, at: '2026-01-01T00:00:01.000Z' }, { shard: 1, seq: 1, at })).toBe(true);
  });

  it('takes a document stored in two shards from the shard of its latest storing record; other stored documents stay', () => {
    const m = new ShardMerger(3);
    m.add(0, rec(1, 'http://a/doc', '01.000', 5, 'http://a/doc.ttl'));
    m.add(1, rec(1, 'http://a/doc', '08.000', 5, 'http://a/doc.ttl'));
    m.add(2, rec(1, 'http://a/doc', '09.000', 0, 'http://a/doc.ttl')); // latest fetch failed: stored nothing
    m.add(2, rec(2, 'http://c/only.ttl', '02.000', 3));
    const plan = m.plan();
    expect(plan.excluded.map((s) => [...s])).toEqual([['http://a/doc.ttl'], [], []]);
    expect(plan.dropped.map((s) => [...s])).toEqual([[1], [1], []]);
    expect(plan.refetched).toBe(1);
  });
});
