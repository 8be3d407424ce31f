// The Scheduler on an injected clock: politeness, budgets, global order, exclusions and back-offs, without waiting.
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/bandit/index.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { CrawlTally } from '../../src/crawl-log/tally.ts';
import { Scheduler, type SchedulerOptions } from '../../src/crawl/scheduler.ts';
import { MemoryFrontier } from '../../src/frontier/memory-frontier.ts';
import type { FrontierEntry, NewEntry } from '../../src/frontier/types.ts';
import { tempState } from '../frontier/helpers.ts';

const entry = (url: string, priority = 1): NewEntry => ({ url, parent: null, depth: 0, priority, label: null, rules: [], link: null });

function setup(over: Partial<SchedulerOptions> = {}) {
  const clock = { t: 1_000_000 };
  const frontier = new MemoryFrontier({ now: () => clock.t });
  const tally = new CrawlTally();
  const scheduler = new Scheduler({ frontier, policy: null, tally, maxDocs: 100, maxDocsPerPld: 100, delayMs: 1000, hostConcurrency: 1, now: () => clock.t, ...over });
  /** Picks and starts a request, as the crawler does. */
  const start = (): FrontierEntry | null => {
    const e = scheduler.pick();
    if (e !== null) {
      scheduler.requestStarted(e);
      scheduler.changed(e.pld);
    }
    return e;
  };
  /** Ends a request and records it (it lands in the tally). */
  const finish = (e: FrontierEntry): void => {
    scheduler.requestEnded(e, null);
    scheduler.landed(e);
    tally.add({ pld: e.pld, outcome: 'ok', status: 200, triples: 0, error: null, detectedType: 'html', redirects: [] } as unknown as CrawlRecord);
    scheduler.changed(e.pld);
  };
  return { clock, frontier, tally, scheduler, start, finish };
}

describe('Scheduler', () => {
  it('keeps the politeness delay per PLD: another PLD is served meanwhile, and the first wakes at start + delay', async () => {
    const { clock, frontier, scheduler, start, finish } = setup();
    await frontier.add([entry('http://a.org/1'), entry('http://a.org/2'), entry('http://b.org/1', 2)]);
    const a1 = start() as FrontierEntry;
    expect(a1.url).toBe('http://a.org/1');
    expect(start()?.url).toBe('http://b.org/1'); // a.org is busy (host concurrency 1)
    expect(start()).toBeNull();
    clock.t += 200;
    finish(a1);
    expect(start()).toBeNull(); // a.org waits its delay, counted from the end of its request
    expect(scheduler.nextWake()).toBe(1_000_000 + 200 + 1000);
    clock.t += 999;
    expect(start()).toBeNull();
    clock.t += 1;
    expect(start()?.url).toBe('http://a.org/2');
  });

  it('send gate at --host-concurrency 2: two fetches of one PLD in flight, their requests leave --delay-ms apart (issue 15)', async () => {
    const { clock, frontier, scheduler, start } = setup({ delayMs: 100, hostConcurrency: 2 });
    await frontier.add([entry('http://a.org/1'), entry('http://a.org/2')]);
    const a1 = start() as FrontierEntry;
    clock.t += 100;
    const a2 = start() as FrontierEntry; // the hand-outs are 100 ms apart …
    expect(a2).not.toBeNull();
    expect(scheduler.gate(a2)).toEqual({ waitMs: 0, at: clock.t }); // … but a2's request leaves first (a1 waits for robots.txt)
    clock.t += 30;
    expect(scheduler.gate(a1)).toEqual({ waitMs: 70, at: clock.t }); // a1 must wait 100 ms after a2's request
    clock.t += 70;
    expect(scheduler.gate(a1)).toEqual({ waitMs: 0, at: clock.t });
  });

  it('serves the most urgent head of all PLDs without a bandit (global priority, then discovery order)', async () => {
    const { frontier, start } = setup({ delayMs: 0, hostConcurrency: 5 });
    await frontier.add([entry('http://a.org/1', 3), entry('http://b.org/1', 1), entry('http://c.org/1', 2), entry('http://c.org/2', 1)]);
    const order = [start(), start(), start(), start()].map((e) => e?.url);
    expect(order).toEqual(['http://b.org/1', 'http://c.org/2', 'http://c.org/1', 'http://a.org/1']);
  });

  it('stops at the total budget and at the per-PLD budget, counting fetches in flight', async () => {
    const { frontier, scheduler, start, finish } = setup({ delayMs: 0, hostConcurrency: 5, maxDocs: 4, maxDocsPerPld: 2 });
    await frontier.add(['http://a.org/1', 'http://a.org/2', 'http://a.org/3', 'http://b.org/1', 'http://b.org/2'].map((u) => entry(u)));
    const a1 = start() as FrontierEntry;
    const a2 = start() as FrontierEntry;
    expect([a1.pld, a2.pld]).toEqual(['a.org', 'a.org']);
    expect(start()?.pld).toBe('b.org'); // a.org spent its 2 (in flight)
    expect(scheduler.budgetLeft()).toBe(1);
    finish(a1);
    finish(a2);
    expect(scheduler.budgetLeft()).toBe(1); // 2 recorded + 1 in flight of 4
    expect(start()?.url).toBe('http://b.org/2'); // never a.org/3: its PLD budget is spent
    expect(scheduler.budgetLeft()).toBe(0);
  });

  it('never serves an excluded PLD (BeeBot Not Available), even with work queued', async () => {
    const { frontier, scheduler, start } = setup({ delayMs: 0 });
    await frontier.add([entry('http://a.org/1'), entry('http://b.org/1', 2)]);
    scheduler.exclude('a.org');
    expect(start()?.url).toBe('http://b.org/1');
    expect(start()).toBeNull();
    expect(scheduler.nextWake()).toBe(1_000_000 + 50); // only the fetch in flight can change anything
  });

  it('sleeps a PLD until its retry back-off or Retry-After ends', async () => {
    const { state, dispose } = await tempState();
    try {
      const { clock, frontier, scheduler, start } = setup({ delayMs: 0 });
      await frontier.add([entry('http://a.org/1')]);
      const e = start() as FrontierEntry;
      scheduler.requestEnded(e, null);
      scheduler.backoff('a.org', clock.t + 5000);
      const txn = state.txn();
      frontier.retry(e, clock.t + 3000, txn);
      await txn.commit();
      scheduler.landed(e);
      scheduler.changed('a.org');
      expect(start()).toBeNull();
      expect(scheduler.nextWake()).toBe(clock.t + 5000); // the later of the two
      clock.t += 5000;
      expect(start()).toMatchObject({ url: 'http://a.org/1', attempts: 1 });
    } finally {
      await dispose();
    }
  });

  it('lets the bandit choose among ready PLDs only', async () => {
    const { frontier, start } = setup({ delayMs: 0, policy: createPolicy('round-robin', { budget: 10, seed: 1 }) });
    await frontier.add([entry('http://a.org/1'), entry('http://a.org/2'), entry('http://b.org/1'), entry('http://b.org/2')]);
    const plds = [start(), start(), start()].map((e) => e?.pld ?? null);
    expect(plds.slice(0, 2).sort()).toEqual(['a.org', 'b.org']); // one each: the other is busy (host concurrency 1)
    expect(plds[2]).toBeNull();
  });
});
