// Committer.claimGraph on a real LevelDB state: a graph is reserved before the store is asked (2df99b2).
import { DataFactory } from 'n3';
import { afterEach, describe, expect, it } from 'vitest';
import { Committer } from '../../src/crawl/commit-plan.ts';
import { MemoryFrontier } from '../../src/frontier/memory-frontier.ts';
import { stageDocument } from '../../src/rdf/index.ts';
import type { CrawlState } from '../../src/state/open-state.ts';
import { createStrategy } from '../../src/strategies/index.ts';
import { tempState } from '../frontier/helpers.ts';

const { namedNode, literal, quad } = DataFactory;

let dispose: (() => Promise<void>) | null = null;
afterEach(async () => {
  await dispose?.();
  dispose = null;
});

async function setup(): Promise<{ state: CrawlState; committer: Committer }> {
  const t = await tempState();
  dispose = t.dispose;
  const committer = new Committer({ state: t.state, frontier: new MemoryFrontier(), strategy: createStrategy('bfs'), policy: null, reward: 'rdf-docs', rejudge: false, seq: 0, hooks: [] });
  return { state: t.state, committer };
}

describe('Committer.claimGraph', () => {
  it('reserves a graph for the first of two fetches redirected to one URL; the second finds it taken', async () => {
    const { committer } = await setup();
    const [first, second] = await Promise.all([
      committer.claimGraph('http://a.org/x', 'http://a.org/doc', true),
      committer.claimGraph('http://a.org/y', 'http://a.org/doc', true),
    ]);
    expect([first, second]).toEqual([false, true]);
  });

  it('finds a graph the store holds, and then does not keep it reserved', async () => {
    const { state, committer } = await setup();
    const txn = state.txn();
    stageDocument(state, txn, 'http://a.org/doc', [quad(namedNode('http://a.org/s'), namedNode('http://a.org/p'), literal('o'))]);
    await txn.commit();
    expect(await committer.claimGraph('http://a.org/x', 'http://a.org/doc', true)).toBe(true);
    expect(await committer.claimGraph('http://a.org/x', 'http://a.org/doc', false)).toBe(true);
  });

  it('does not ask the store for a URL fetched as itself from the one-queue frontier', async () => {
    const { state, committer } = await setup();
    const txn = state.txn();
    stageDocument(state, txn, 'http://a.org/doc', [quad(namedNode('http://a.org/s'), namedNode('http://a.org/p'), literal('o'))]);
    await txn.commit();
    // The frontier hands a URL out once: the store is not asked (one index seek saved per document).
    expect(await committer.claimGraph('http://a.org/doc', 'http://a.org/doc', true)).toBe(false);
    expect(await committer.claimGraph('http://a.org/doc', 'http://a.org/doc', true)).toBe(true); // now reserved
  });
});
