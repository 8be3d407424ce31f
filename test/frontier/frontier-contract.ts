// One contract suite for every `Frontier` implementation (as quadstore runs one suite against each backend).
import { expect, it } from 'vitest';
import type { Txn } from '../../src/state/txn.ts';
import type { Frontier, FrontierEntry, NewEntry } from '../../src/frontier/types.ts';

export interface FrontierHarness {
  frontier: Frontier;
  txn(): Txn;
  close(): Promise<void>;
  /**
   * Optional, for a backend that reads its store while staging (LevelFrontier's upgrades): the answer of the next such
   * read is held (read at once, delivered late, as from a slow disk) until the returned function is called.
   */
  holdReads?(): () => void;
}

/** A new entry with defaults. */
export function entry(url: string, priority = 1, extra: Partial<NewEntry> = {}): NewEntry {
  return { url, parent: null, depth: 0, priority, label: null, rules: [], link: null, ...extra };
}

/** `next()` after background reads have settled. */
export async function take(f: Frontier, pld: string, now?: number): Promise<FrontierEntry | null> {
  let e = f.next(pld, now);
  // A persistent frontier may still be reading this PLD's head from disk: wait, then ask again.
  for (let i = 0; e === null && f.settled !== undefined && i < 100; i++) {
    await f.settled();
    e = f.next(pld, now);
  }
  return e;
}

/** Hands out everything queued for `pld` (completing each), in order. */
async function drain(h: FrontierHarness, pld: string): Promise<string[]> {
  const out: string[] = [];
  for (let e = await take(h.frontier, pld); e !== null; e = await take(h.frontier, pld)) {
    out.push(e.url);
    const t = h.txn();
    h.frontier.complete(e, t);
    await t.commit();
  }
  return out;
}

export function runFrontierContract(make: (opts: { now: () => number; rejudge?: boolean }) => Promise<FrontierHarness>): void {
  const withFrontier = (fn: (h: FrontierHarness, clock: { t: number }) => Promise<void>, rejudge = false) => async () => {
    const clock = { t: 1_000_000 };
    const h = await make({ now: () => clock.t, rejudge });
    try {
      await fn(h, clock);
    } finally {
      await h.close();
    }
  };

  it('hands out by (priority, seq): most urgent first, FIFO among equals', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/1', 2), entry('http://a.org/2', 1), entry('http://a.org/3', 2), entry('http://a.org/4', 1)]);
    expect(await drain(h, 'a.org')).toEqual(['http://a.org/2', 'http://a.org/4', 'http://a.org/1', 'http://a.org/3']);
  }));

  it('accepts any finite priority, negative and fractional included, and refuses non-finite ones', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/x', 0.5), entry('http://a.org/y', -3), entry('http://a.org/z', 1e9), entry('http://a.org/w', 0)]);
    expect(await drain(h, 'a.org')).toEqual(['http://a.org/y', 'http://a.org/w', 'http://a.org/x', 'http://a.org/z']);
    await expect(h.frontier.add([entry('http://a.org/inf', Number.POSITIVE_INFINITY)])).rejects.toThrow(/finite/);
  }));

  it('queues a URL once: duplicates in one call, across calls and after completion are ignored', withFrontier(async (h) => {
    expect(await h.frontier.add([entry('http://a.org/1'), entry('http://a.org/1'), entry('http://a.org/2')])).toBe(2);
    expect(await h.frontier.add([entry('http://a.org/1'), entry('http://a.org/3')])).toBe(1);
    expect(h.frontier.size()).toEqual({ queued: 3, inFlight: 0, done: 0 });
    expect(await drain(h, 'a.org')).toEqual(['http://a.org/1', 'http://a.org/2', 'http://a.org/3']);
    expect(await h.frontier.add([entry('http://a.org/2', 0)])).toBe(0);
    expect(await take(h.frontier, 'a.org')).toBeNull();
    expect(h.frontier.size()).toEqual({ queued: 0, inFlight: 0, done: 3 });
    expect(await h.frontier.has('http://a.org/2')).toBe(true);
    expect(await h.frontier.has('http://a.org/never')).toBe(false);
  }));

  it('re-prioritises a queued URL found again with a more urgent priority, and only then', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/x', 3), entry('http://a.org/y', 2)]);
    await h.frontier.add([entry('http://a.org/x', 4)]); // less urgent: no change
    await h.frontier.add([entry('http://a.org/x', 1, { depth: 5, parent: 'http://a.org/p' })]);
    expect(h.frontier.size().queued).toBe(2);
    const first = await take(h.frontier, 'a.org');
    expect(first).toMatchObject({ url: 'http://a.org/x', priority: 1, depth: 5, parent: 'http://a.org/p', seq: 1 });
    const t = h.txn();
    h.frontier.complete(first as FrontierEntry, t);
    await t.commit();
    expect(await drain(h, 'a.org')).toEqual(['http://a.org/y']);
  }));

  it('keeps one queue per PLD and reports each in queues()', withFrontier(async (h) => {
    await h.frontier.add([entry('http://www.a.org/1', 2), entry('http://b.org/1', 1), entry('http://x.a.org/2', 1), entry('http://127.0.0.1:8080/')]);
    const byPld = Object.fromEntries(h.frontier.queues().map((q) => [q.pld, q]));
    expect(Object.keys(byPld).sort()).toEqual(['127.0.0.1', 'a.org', 'b.org']);
    expect(byPld['a.org']).toMatchObject({ queued: 2, inFlight: 0, headPriority: 1, headSeq: 3 });
    const e = await take(h.frontier, 'a.org');
    expect(e).toMatchObject({ url: 'http://x.a.org/2', pld: 'a.org', host: 'x.a.org', attempts: 0, notBefore: 0 });
    expect(h.frontier.queues().find((q) => q.pld === 'a.org')).toMatchObject({ queued: 1, inFlight: 1, headPriority: 2, headSeq: 1 });
    expect(await take(h.frontier, 'c.org')).toBeNull();
    expect(h.frontier.queueOf('b.org')).not.toBeNull();
    expect(await drain(h, 'b.org')).toEqual(['http://b.org/1']);
    expect(h.frontier.queues().map((q) => q.pld).sort()).toEqual(['127.0.0.1', 'a.org']);
    // queueOf agrees with queues(): queued or in flight counts, a drained or unknown PLD has none
    expect(['a.org', 'b.org', 'c.org', '127.0.0.1'].map((p) => h.frontier.queueOf(p) !== null)).toEqual([true, false, false, true]);
    // queueOf is queues()'s entry for one PLD
    for (const q of h.frontier.queues()) expect(h.frontier.queueOf(q.pld)).toEqual(q);
    expect(h.frontier.queueOf('b.org')).toBeNull();
    const a2 = await take(h.frontier, 'a.org'); // the last queued one: a.org now has only in-flight work
    expect(a2).not.toBeNull();
    expect(h.frontier.queueOf('a.org')).toMatchObject({ queued: 0, inFlight: 2 });
  }));

  it('retry() puts an entry back behind its equals with attempts + 1, held until notBefore', withFrontier(async (h, clock) => {
    await h.frontier.add([entry('http://a.org/1'), entry('http://a.org/2')]);
    const e = (await take(h.frontier, 'a.org')) as FrontierEntry;
    const t = h.txn();
    h.frontier.retry(e, clock.t + 5000, t);
    expect(h.frontier.size()).toMatchObject({ queued: 1, inFlight: 1 });
    await t.commit();
    expect(h.frontier.size()).toMatchObject({ queued: 2, inFlight: 0 });
    expect(h.frontier.dueAt('a.org')).toBe(0); // /2 is due
    expect((await take(h.frontier, 'a.org'))?.url).toBe('http://a.org/2');
    expect(await take(h.frontier, 'a.org')).toBeNull(); // /1 is held back
    expect(h.frontier.dueAt('a.org')).toBe(clock.t + 5000); // … until then
    expect(h.frontier.dueAt('nothing.org')).toBe(Number.POSITIVE_INFINITY);
    expect(await take(h.frontier, 'a.org', clock.t + 4999)).toBeNull();
    clock.t += 5000;
    const again = await take(h.frontier, 'a.org');
    expect(again).toMatchObject({ url: 'http://a.org/1', attempts: 1, notBefore: clock.t });
  }));

  it('complete() with aliases marks them done: a queued alias is never handed out, a new one never queued', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/old'), entry('http://a.org/new'), entry('http://a.org/other')]);
    const e = (await take(h.frontier, 'a.org')) as FrontierEntry;
    const t = h.txn();
    h.frontier.complete(e, t, ['http://a.org/new', 'http://b.org/moved']);
    await t.commit();
    expect(await drain(h, 'a.org')).toEqual(['http://a.org/other']);
    expect(await h.frontier.add([entry('http://a.org/new'), entry('http://b.org/moved')])).toBe(0);
    expect(await h.frontier.has('http://b.org/moved')).toBe(true);
    expect(h.frontier.size()).toEqual({ queued: 0, inFlight: 0, done: 4 });
  }));

  it('stages writes in a Txn: nothing changes before commit, URLs are reserved at once', withFrontier(async (h) => {
    const t = h.txn();
    expect(await h.frontier.add([entry('http://a.org/1')], t)).toBe(1);
    expect(await h.frontier.add([entry('http://a.org/1')])).toBe(0); // reserved by the open transaction
    expect(await take(h.frontier, 'a.org')).toBeNull();
    expect(h.frontier.size().queued).toBe(0);
    await t.commit();
    const e = (await take(h.frontier, 'a.org')) as FrontierEntry;
    expect(e.url).toBe('http://a.org/1');
    const t2 = h.txn();
    h.frontier.complete(e, t2);
    expect(h.frontier.size()).toEqual({ queued: 0, inFlight: 1, done: 0 });
    await t2.commit();
    expect(h.frontier.size()).toEqual({ queued: 0, inFlight: 0, done: 1 });
  }));

  it('refuses to finish an entry that is not in flight, or twice', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/1')]);
    const fake = { ...entry('http://a.org/1'), pld: 'a.org', host: 'a.org', seq: 1, attempts: 0, notBefore: 0 };
    expect(() => h.frontier.complete(fake, h.txn())).toThrow(/not in flight/);
    const e = (await take(h.frontier, 'a.org')) as FrontierEntry;
    h.frontier.complete(e, h.txn());
    expect(() => h.frontier.complete(e, h.txn())).toThrow(/not in flight/);
    expect(() => h.frontier.retry(e, 0, h.txn())).toThrow(/not in flight/);
  }));

  it('queued() lists the queued entries, PLD by PLD in queue order, without those in flight or done', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/1', 2), entry('http://a.org/2', 1), entry('http://b.org/1', 1)]);
    expect(h.frontier.loading).toBe(false);
    await h.frontier.settled();
    const e = (await take(h.frontier, 'b.org')) as FrontierEntry;
    const listed: string[] = [];
    for await (const q of h.frontier.queued()) listed.push(q.url);
    expect(listed).toEqual(['http://a.org/2', 'http://a.org/1']);
    const t = h.txn();
    h.frontier.complete(e, t, ['http://a.org/1']); // a.org/1 is done as an alias: no longer queued
    await t.commit();
    const after: string[] = [];
    for await (const q of h.frontier.queued()) after.push(q.url);
    expect(after).toEqual(['http://a.org/2']);
  }));

  // Issue 17: re-judging queued links while other fetches come and go. An upgrade is staged while the URL it
  // upgrades is handed out and put back (a strategy's second thoughts: `reprioritise` → retry at a new priority).
  it('an upgrade overtaken by a hand-out and a retry never queues the URL twice', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/x', 3), entry('http://a.org/y', 4)]);
    await h.frontier.settled();
    const release = h.holdReads?.() ?? (() => {});
    const t1 = h.txn();
    const upgrade = h.frontier.add([entry('http://a.org/x', 0.5)], t1); // its staging may wait for a read
    const x = (await take(h.frontier, 'a.org')) as FrontierEntry;
    expect(x.url).toBe('http://a.org/x');
    const t2 = h.txn();
    h.frontier.retry({ ...x, priority: 5 }, 0, t2); // back it goes, less urgent
    await t2.commit();
    release();
    await upgrade;
    await t1.commit();
    expect(h.frontier.size()).toEqual({ queued: 2, inFlight: 0, done: 0 });
    // Everything handed out at once, as to concurrent fetches: each URL once (else two fetches of x, and the second
    // one's complete() fails with "not in flight").
    const handed: FrontierEntry[] = [];
    for (let e = await take(h.frontier, 'a.org'); e !== null; e = await take(h.frontier, 'a.org')) handed.push(e);
    expect(handed.map((e) => e.url).sort()).toEqual(['http://a.org/x', 'http://a.org/y']);
    for (const e of handed) {
      const t3 = h.txn();
      h.frontier.complete(e, t3);
      await t3.commit();
    }
    expect(h.frontier.size()).toEqual({ queued: 0, inFlight: 0, done: 2 });
  }));

  it('two upgrades of one URL in flight at once, the first committed before the second is staged, queue it once', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/x', 5), entry('http://a.org/y', 4)]);
    await h.frontier.settled();
    const release = h.holdReads?.() ?? (() => {});
    const t2 = h.txn();
    const second = h.frontier.add([entry('http://a.org/x', 1)], t2); // its read answers late
    const t1 = h.txn();
    await h.frontier.add([entry('http://a.org/x', 3)], t1);
    await t1.commit();
    release();
    await second;
    await t2.commit();
    const handed: FrontierEntry[] = [];
    for (let e = await take(h.frontier, 'a.org'); e !== null; e = await take(h.frontier, 'a.org')) handed.push(e);
    expect(handed.map((e) => e.url).sort()).toEqual(['http://a.org/x', 'http://a.org/y']);
    expect(h.frontier.size()).toEqual({ queued: 0, inFlight: 2, done: 0 });
  }));

  it('an alias completed in a transaction is not queued again by an upgrade staged in the same one', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/old', 1), entry('http://a.org/new', 3), entry('http://a.org/other', 2)]);
    const e = (await take(h.frontier, 'a.org')) as FrontierEntry;
    const t = h.txn();
    h.frontier.complete(e, t, ['http://a.org/new']);
    await h.frontier.add([entry('http://a.org/new', 0.5)], t); // e.g. re-judged after the fetch's learning
    await t.commit();
    expect(await drain(h, 'a.org')).toEqual(['http://a.org/other']);
    expect(h.frontier.size()).toEqual({ queued: 0, inFlight: 0, done: 3 });
  }));

  it('retry() at a new priority re-queues there, and a later upgrade compares with it', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/x', 2), entry('http://a.org/y', 3), entry('http://a.org/z', 5)]);
    const x = (await take(h.frontier, 'a.org')) as FrontierEntry;
    const t = h.txn();
    h.frontier.retry({ ...x, priority: 6, rules: ['later'] }, 0, t);
    await t.commit();
    await h.frontier.add([entry('http://a.org/x', 4)]); // more urgent than its 6 (not than the 2 it was queued with)
    const order: Array<[string, number]> = [];
    for (let e = await take(h.frontier, 'a.org'); e !== null; e = await take(h.frontier, 'a.org')) {
      order.push([e.url, e.priority]);
      const tc = h.txn();
      h.frontier.complete(e, tc);
      await tc.commit();
    }
    expect(order).toEqual([['http://a.org/y', 3], ['http://a.org/x', 4], ['http://a.org/z', 5]]);
  }));

  it('retry() at a less urgent priority keeps the entry behind the more urgent ones, with its new rules', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/x', 2), entry('http://a.org/y', 3)]);
    const x = (await take(h.frontier, 'a.org')) as FrontierEntry;
    const t = h.txn();
    h.frontier.retry({ ...x, priority: 6, rules: ['later'], attempts: x.attempts - 1 }, 0, t);
    await t.commit();
    expect((await take(h.frontier, 'a.org'))?.url).toBe('http://a.org/y');
    expect(await take(h.frontier, 'a.org')).toMatchObject({ url: 'http://a.org/x', priority: 6, rules: ['later'], attempts: 0 });
  }));

  const h1 = (url: string, priority: number) => ({
    url,
    link: { url, tag: 'a' as const, anchor: '', title: '', type: '', rel: '', context: '' },
    parent: 'http://a.org/',
    depth: 1,
    priority,
    source: { url: 'http://a.org/', depth: 0, type: 'html' as const },
  });

  it('re-judges remembered H links similar to a learned parent (thesis §5 r1), and forgets handed-out ones', withFrontier(async (h) => {
    const urls = ['http://a.org/m/1/', 'http://a.org/m/2/', 'http://a.org/m/3/', 'http://a.org/other'];
    await h.frontier.add(urls.map((u) => entry(u, 5, { label: 'H' })));
    for (const u of urls) h.frontier.remember(h1(u, 5));
    const first = (await take(h.frontier, 'a.org')) as FrontierEntry; // m/1 leaves the index when handed out
    expect(first.url).toBe('http://a.org/m/1/');
    const judged: string[] = [];
    const t = h.txn();
    await h.frontier.rejudgeSimilarTo('http://a.org/m/9/', (q) => {
      judged.push(q.url);
      return q.url.endsWith('3/') ? { priority: 1, label: 'HR', rules: ['r1'] } : { priority: 5, label: 'H', rules: [] };
    }, t);
    await t.commit();
    expect(judged.sort()).toEqual(['http://a.org/m/2/', 'http://a.org/m/3/']);
    const next = (await take(h.frontier, 'a.org')) as FrontierEntry;
    expect(next).toMatchObject({ url: 'http://a.org/m/3/', priority: 1, label: 'HR', rules: ['r1'] });
  }, true));

  it('re-judges an upgraded link again when asked to (repeatedly), and once only otherwise', withFrontier(async (h) => {
    const url = 'http://a.org/m/2/';
    await h.frontier.add([entry(url, 5, { label: 'H' })]);
    h.frontier.remember(h1(url, 5));
    const rounds = async (repeatedly: boolean, priorities: number[]) => {
      const judged: number[] = [];
      for (const p of priorities) {
        const t = h.txn();
        await h.frontier.rejudgeSimilarTo('http://a.org/m/9/', () => {
          judged.push(p);
          return { priority: p, label: 'HR', rules: ['r1'] };
        }, t, { repeatedly });
        await t.commit();
      }
      return judged;
    };
    expect(await rounds(true, [4, 3])).toEqual([4, 3]); // still remembered after its first upgrade
    expect(await rounds(false, [2, 1])).toEqual([2]); // upgraded without `repeatedly`: it leaves the index
    expect(await take(h.frontier, 'a.org')).toMatchObject({ url, priority: 2 });
  }, true));

  it('re-judges a link put back by retry() (a back-off, or a strategy sending it back) as any queued H link', withFrontier(async (h) => {
    const url = 'http://a.org/m/2/';
    await h.frontier.add([entry(url, 3, { label: 'H', parent: 'http://a.org/', depth: 1, link: h1(url, 3).link }), entry('http://a.org/z', 4)]);
    h.frontier.remember(h1(url, 3));
    const x = (await take(h.frontier, 'a.org')) as FrontierEntry; // handed out: it leaves the index
    const t = h.txn();
    h.frontier.retry({ ...x, priority: 6, attempts: x.attempts - 1 }, 0, t); // sent back behind z
    await t.commit();
    const judged: string[] = [];
    const t2 = h.txn();
    await h.frontier.rejudgeSimilarTo('http://a.org/m/9/', (q) => {
      judged.push(`${q.url} ${q.priority}`);
      return { priority: 2, label: 'HR', rules: ['r1'] };
    }, t2, { repeatedly: true });
    await t2.commit();
    expect(judged).toEqual([`${url} 6`]);
    expect(await take(h.frontier, 'a.org')).toMatchObject({ url, priority: 2, label: 'HR' });
  }, true));

  it('keeps no index unless opened to re-judge', withFrontier(async (h) => {
    await h.frontier.add([entry('http://a.org/m/1/', 5, { label: 'H' })]);
    h.frontier.remember(h1('http://a.org/m/1/', 5));
    let called = 0;
    await h.frontier.rejudgeSimilarTo('http://a.org/m/9/', () => {
      called++;
      return { priority: 0, label: 'HR', rules: [] };
    }, h.txn());
    expect(called).toBe(0);
  }));
}
