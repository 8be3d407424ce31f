// The two-queue variant (thesis §8.2, Figure 3-5): the Frontier contract, then what makes it two queues.
import { describe, expect, it } from 'vitest';
import { DualFrontier } from '../../src/frontier/dual-frontier.ts';
import { entry, runFrontierContract, take } from './frontier-contract.ts';
import { holdSeenReads, tempState } from './helpers.ts';

describe('DualFrontier (the Frontier contract)', () => {
  runFrontierContract(async ({ now, rejudge }) => {
    const { state, dispose } = await tempState();
    return { frontier: await DualFrontier.open(state, { now, rejudge }), txn: () => state.txn(), close: dispose, holdReads: holdSeenReads(state) };
  });
});

describe('DualFrontier: an RDF queue and an HTML queue', () => {
  it('routes R links to the RDF queue, shares the workers, and lends them when a queue is empty', async () => {
    const { state, dispose } = await tempState();
    try {
      // 4 workers, a quarter for RDF: one RDF fetch in flight at a time, three HTML ones.
      const f = await DualFrontier.open(state, { concurrency: 4, rdfShare: 0.25 });
      await f.add([
        ...[1, 2, 3].map((i) => entry(`http://e.org/${i}.rdf`, 1, { label: 'R' })),
        ...[1, 2, 3, 4].map((i) => entry(`http://e.org/p${i}.html`, 3, { label: 'H' })),
      ]);
      expect(f.queues()).toEqual([{ pld: 'e.org', queued: 7, inFlight: 0, headPriority: 1, headSeq: 1 }]);
      const handed = [];
      for (let i = 0; i < 4; i++) handed.push((await take(f, 'e.org'))!.url);
      // the first goes to the free RDF worker; then the HTML workers, although RDF links are more urgent
      expect(handed).toEqual(['http://e.org/1.rdf', 'http://e.org/p1.html', 'http://e.org/p2.html', 'http://e.org/p3.html']);
      expect(f.inFlightByQueue).toEqual({ rdf: 1, html: 3 });
      // all workers busy: the RDF queue's next link waits no more than the share says, the HTML queue lends
      expect((await take(f, 'e.org'))!.url).toBe('http://e.org/2.rdf');
    } finally {
      await dispose();
    }
  });

  it('queues a URL once, in the queue of its first judgement, and keeps both queues across a reopen', async () => {
    const { state, dispose } = await tempState();
    try {
      const f = await DualFrontier.open(state);
      expect(await f.add([entry('http://e.org/x', 3, { label: 'H' })])).toBe(1);
      expect(await f.add([entry('http://e.org/x', 1, { label: 'R' }), entry('http://e.org/y.ttl', 1, { label: 'R' })])).toBe(1);
      expect(f.size().queued).toBe(2);
      const again = await DualFrontier.open(state);
      expect(again.size().queued).toBe(2);
      expect(await again.has('http://e.org/y.ttl')).toBe(true);
      // x was re-prioritised in the HTML queue (more urgent now), y waits in the RDF queue
      const first = (await take(again, 'e.org'))!;
      expect([first.url, first.priority]).toEqual(['http://e.org/y.ttl', 1]);
    } finally {
      await dispose();
    }
  });
});
