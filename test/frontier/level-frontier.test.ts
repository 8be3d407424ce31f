// LevelFrontier beyond the contract: resume after close, head-buffer refills, and a random differential run against MemoryFrontier.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelFrontier } from '../../src/frontier/level-frontier.ts';
import { MemoryFrontier } from '../../src/frontier/memory-frontier.ts';
import type { FrontierEntry } from '../../src/frontier/types.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { entry, take } from './frontier-contract.ts';
import { tempDir } from './helpers.ts';

let dir: string;
let remove: () => Promise<void>;
let state: CrawlState;

beforeEach(async () => {
  ({ dir, remove } = await tempDir());
  state = await openState(dir);
});
afterEach(async () => {
  await state.close();
  await remove();
});

async function reopen(opts = {}): Promise<LevelFrontier> {
  await state.close();
  state = await openState(dir);
  return LevelFrontier.open(state, opts);
}

async function finish(f: LevelFrontier, e: FrontierEntry): Promise<void> {
  const t = state.txn();
  f.complete(e, t);
  await t.commit();
}

describe('LevelFrontier persistence', () => {
  it('after close and reopen: in-flight entries are back, done ones never again, counters right', async () => {
    let f = await LevelFrontier.open(state);
    const plds = ['a.org', 'b.org', 'c.net'];
    await f.add(Array.from({ length: 90 }, (_, i) => entry(`http://${plds[i % 3]}/p${i}`, 1 + (i % 2))));
    const taken: FrontierEntry[] = [];
    for (let i = 0; i < 12; i++) taken.push((await take(f, plds[i % 3] as string)) as FrontierEntry);
    const completed = taken.slice(0, 5);
    const t = state.txn();
    for (const e of completed) f.complete(e, t);
    await t.commit();
    expect(f.size()).toEqual({ queued: 78, inFlight: 7, done: 5 });

    f = await reopen();
    expect(f.size()).toEqual({ queued: 85, inFlight: 0, done: 5 });
    expect(f.queues().map((q) => [q.pld, q.queued]).sort()).toEqual([['a.org', 28], ['b.org', 28], ['c.net', 29]]);
    const got: string[] = [];
    for (const pld of plds) {
      const order: FrontierEntry[] = [];
      for (let e = await take(f, pld); e !== null; e = await take(f, pld)) {
        order.push(e);
        await finish(f, e);
      }
      // Each PLD drains by (priority, seq).
      const sorted = [...order].sort((x, y) => x.priority - y.priority || x.seq - y.seq);
      expect(order.map((e) => e.url)).toEqual(sorted.map((e) => e.url));
      got.push(...order.map((e) => e.url));
    }
    const done = new Set(completed.map((e) => e.url));
    expect(got.filter((u) => done.has(u))).toEqual([]);
    expect(got.length + done.size).toBe(90);
    expect(new Set(got).size).toBe(got.length);
    for (const e of taken.slice(5)) expect(got).toContain(e.url);
    // New URLs get seqs after all earlier ones; old ones are still known.
    expect(await f.add([entry('http://a.org/p0'), entry('http://a.org/fresh')])).toBe(1);
    expect((await take(f, 'a.org'))?.seq).toBeGreaterThan(90);
  });

  it('keeps re-prioritisation, retries and aliases across a reopen', async () => {
    let f = await LevelFrontier.open(state, { now: () => 0 });
    await f.add([entry('http://a.org/x', 3), entry('http://a.org/y', 2), entry('http://a.org/z', 2), entry('http://a.org/al', 2)]);
    const y = (await take(f, 'a.org')) as FrontierEntry;
    const t = state.txn();
    f.retry(y, 500, t);
    await t.commit();
    f = await reopen({ now: () => 0 });
    await f.add([entry('http://a.org/x', 1)]);
    const x = (await take(f, 'a.org')) as FrontierEntry;
    expect(x.url).toBe('http://a.org/x');
    const t2 = state.txn();
    f.complete(x, t2, ['http://a.org/al']);
    await t2.commit();
    f = await reopen({ now: () => 0 });
    expect((await take(f, 'a.org'))?.url).toBe('http://a.org/z');
    expect(await take(f, 'a.org')).toBeNull(); // y waits until 500; al is done
    const again = (await take(f, 'a.org', 500)) as FrontierEntry;
    expect(again).toMatchObject({ url: 'http://a.org/y', attempts: 1 });
    expect(f.size()).toMatchObject({ queued: 0, inFlight: 2, done: 2 });
  });

  it('refills small head buffers from disk in order while adds keep arriving', async () => {
    const f = await LevelFrontier.open(state, { headSize: 4 });
    await f.add(Array.from({ length: 300 }, (_, i) => entry(`http://a.org/${i}`, 1 + (i % 3))));
    const out: FrontierEntry[] = [];
    let extra = 0;
    for (let e = await take(f, 'a.org'); e !== null; e = await take(f, 'a.org')) {
      out.push(e);
      const t = state.txn();
      // Links found on the way land before, inside and after the buffered range.
      if (extra < 120) await f.add([entry(`http://a.org/new${extra++}`, 1 + (extra % 4)), entry(`http://a.org/${extra % 300}`, 0)], t);
      f.complete(e, t);
      await t.commit();
    }
    const urls = out.map((e) => e.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.length).toBe(300 + 120);
    expect(f.size()).toEqual({ queued: 0, inFlight: 0, done: 420 });
  });
});

describe('LevelFrontier head buffers when PLDs multiply', () => {
  it('reads past a head held back by retries even after the per-PLD share shrank below the buffer', async () => {
    const now = 1_000_000;
    // 12 buffered entries in all: 6 per PLD while a.org is alone, 2 once 16 more PLDs share them.
    const f = await LevelFrontier.open(state, { headSize: 6, maxBuffered: 12 });
    await f.add([...Array.from({ length: 10 }, (_, i) => entry(`http://a.org/urgent${i}`, 1)), ...Array.from({ length: 30 }, (_, i) => entry(`http://a.org/later${i}`, 5))]);
    const urgent: FrontierEntry[] = [];
    for (let i = 0; i < 10; i++) urgent.push((await take(f, 'a.org', now)) as FrontierEntry);
    expect(urgent.map((e) => e.priority)).toEqual(Array(10).fill(1));
    const t = state.txn();
    for (const e of urgent) f.retry(e, now + 3_600_000, t); // all back at the head, held for an hour
    await t.commit();
    await f.add(Array.from({ length: 16 }, (_, i) => entry(`http://p${i}.org/`, 1)));
    // The head is all held back and the buffer is now larger than a.org's share: the next one comes from disk.
    const next = await take(f, 'a.org', now);
    expect(next?.url).toBe('http://a.org/later0');
    expect(f.size().queued).toBe(10 + 29 + 16);
  });
});

describe('LevelFrontier against MemoryFrontier', () => {
  it('gives the same hand-outs and counters over 3,000 random operations', async () => {
    let seed = Number(process.env.FRONTIER_SEED ?? 42);
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const clock = { t: 0 };
    const level = await LevelFrontier.open(state, { headSize: 3, now: () => clock.t });
    const memory = new MemoryFrontier({ now: () => clock.t });
    const plds = ['a.org', 'b.org', 'c.org', 'd.org'];
    const url = (): string => `http://${plds[rand(4)]}/${rand(150)}`;
    const flyingLevel: FrontierEntry[] = [];
    const flyingMemory: FrontierEntry[] = [];
    const aliased = new Set<string>();
    for (let op = 0; op < 3000; op++) {
      const kind = rand(10);
      clock.t += rand(3);
      if (kind < 4) {
        const batch = Array.from({ length: 1 + rand(5) }, () => entry(url(), rand(4)));
        const tl = state.txn();
        const tm = state.txn();
        expect(await level.add(batch, tl)).toBe(await memory.add(batch, tm));
        await tl.commit();
        await tm.commit();
      } else if (kind < 8) {
        const pld = plds[rand(4)] as string;
        // The documented way to wait for a PLD whose head is still on disk.
        let a = level.next(pld);
        while (a === null && level.loading) {
          await level.settled();
          a = level.next(pld);
        }
        const b = memory.next(pld);
        expect(a?.url, `op ${op}`).toBe(b?.url);
        if (a && b) {
          flyingLevel.push(a);
          flyingMemory.push(b);
        }
      } else if (flyingLevel.length > 0) {
        const i = rand(flyingLevel.length);
        const [a] = flyingLevel.splice(i, 1) as [FrontierEntry];
        const [b] = flyingMemory.splice(i, 1) as [FrontierEntry];
        const tl = state.txn();
        const tm = state.txn();
        if (kind === 8) {
          const aliases = rand(2) === 0 ? [url()] : [];
          for (const alias of aliases) aliased.add(alias);
          level.complete(a, tl, aliases);
          memory.complete(b, tm, aliases);
        } else {
          const notBefore = clock.t + rand(10);
          level.retry(a, notBefore, tl);
          memory.retry(b, notBefore, tm);
        }
        await tl.commit();
        await tm.commit();
      }
      expect(level.size().inFlight).toBe(memory.size().inFlight);
      expect(level.size().done).toBe(memory.size().done);
      expect(level.size().queued).toBe(memory.size().queued);
    }
    expect(level.size().done).toBeGreaterThan(100);
    // After a reopen the in-flight entries are queued again (unless done meanwhile as an alias); nothing else changes.
    const m = memory.size();
    const back = flyingMemory.filter((e) => !aliased.has(e.url)).length;
    expect(back).toBeGreaterThan(0);
    const reopened = await reopen();
    expect(reopened.size()).toEqual({ queued: m.queued + back, inFlight: 0, done: m.done });
  });
});
