// Txn and GroupCommitter on a real LevelDB: commit order, grouping, late writes, all-or-nothing failure.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageDocument } from '../../src/rdf/index.ts';
import type { CrawlState } from '../../src/state/open-state.ts';
import { tempState } from '../frontier/helpers.ts';

let state: CrawlState;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ state, dispose } = await tempState());
});
afterEach(() => dispose());

const quad = (s: string, g: string) => {
  const df = state.dataFactory;
  return df.quad(df.namedNode(s), df.namedNode('http://x/p'), df.literal('o'), df.namedNode(g));
};

describe('GroupCommitter', () => {
  it('writes transactions in commit order, whether or not they carry documents', async () => {
    const a = state.txn().put(state.sub.meta, 'k', 'a');
    stageDocument(state, a, 'http://x/ga', [quad('http://x/a', 'http://x/ga')]);
    const b = state.txn().put(state.sub.meta, 'k', 'b');
    const c = state.txn().put(state.sub.meta, 'k', 'c');
    stageDocument(state, c, 'http://x/gc', [quad('http://x/c', 'http://x/gc')]);
    await Promise.all([a.commit(), b.commit(), c.commit()]);
    expect(await state.sub.meta.get('k')).toBe('c');
    await state.indexer.flush();
    const { items } = await state.quadstore.get({});
    expect(items.map((q) => q.subject.value).sort()).toEqual(['http://x/a', 'http://x/c']);
  });

  it('puts the transactions that commit while a batch is written into the next batch', async () => {
    let batches = 0;
    state.db.on('write', () => batches++);
    const txns = Array.from({ length: 20 }, (_, i) => state.txn().put(state.sub.meta, `k${i}`, i));
    await Promise.all(txns.map((t) => t.commit()));
    for (let i = 0; i < 20; i++) expect(await state.sub.meta.get(`k${i}`)).toBe(i);
    expect(batches).toBe(2); // the first alone, the 19 that queued behind it together
  });

  it('runs beforeWrite when the batch is staged, in commit order, after earlier transactions are written', async () => {
    const order: string[] = [];
    let counter = 0;
    const first = state.txn().put(state.sub.meta, 'x', 1).beforeWrite(() => order.push('first'));
    const second = state.txn();
    second.beforeWrite(() => {
      order.push('second');
      second.put(state.sub.meta, 'late', ++counter);
    });
    const p = Promise.all([first.commit(), second.commit()]);
    counter = 41; // changed after both commits were called: the late write sees it
    await p;
    expect(order).toEqual(['first', 'second']);
    expect(await state.sub.meta.get('late')).toBe(42);
  });

  it('runs onCommit only after the write, and fails a whole group when one of its writes cannot be encoded', async () => {
    const seen: string[] = [];
    const ok = state.txn().put(state.sub.meta, 'first', 1).onCommit(() => seen.push('first'));
    const good = state.txn().put(state.sub.meta, 'good', 1).onCommit(() => seen.push('good'));
    const bad = state.txn().put(state.sub.meta, 'bad', { n: 1n }).onCommit(() => seen.push('bad')); // BigInt: no JSON
    const results = await Promise.allSettled([ok.commit(), good.commit(), bad.commit()]);
    expect(results[0]?.status).toBe('fulfilled');
    for (const r of results.slice(1)) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'RDFSCOUT_STORE_FAILED' });
    }
    expect(seen).toEqual(['first']);
    expect(await state.sub.meta.get('good')).toBeUndefined(); // the group is all-or-nothing
    await state.txn().put(state.sub.meta, 'after', 1).commit(); // the store goes on working
    expect(await state.sub.meta.get('after')).toBe(1);
  });

  it('refuses a second commit of one transaction', async () => {
    const t = state.txn().put(state.sub.meta, 'k', 1);
    await t.commit();
    await expect(t.commit()).rejects.toThrow(/already committed/);
  });
});
