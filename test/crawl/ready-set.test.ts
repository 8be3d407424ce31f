// ReadySet: PLDs placed ready, asleep or out; time wakes sleepers in order; re-placing supersedes earlier times.
import { describe, expect, it } from 'vitest';
import { ReadySet } from '../../src/crawl/ready-set.ts';

describe('ReadySet', () => {
  it('puts a PLD ready, asleep until a time, or out of the game', () => {
    const r = new ReadySet();
    r.place('a.org', 0, 100); // due before now
    r.place('b.org', 100, 100); // due now
    r.place('c.org', 150, 100);
    r.place('d.org', Number.POSITIVE_INFINITY, 100); // host busy: out until placed again
    r.place('e.org', null, 100); // nothing to serve
    expect([...r.wake(100)]).toEqual(['a.org', 'b.org']);
    expect(r.nextWake()).toBe(150);
    expect([...r.wake(149)]).toEqual(['a.org', 'b.org']);
    expect([...r.wake(150)]).toEqual(['a.org', 'b.org', 'c.org']);
    expect(r.nextWake()).toBeNull();
    expect(r.sleepingCount).toBe(0);
  });

  it('wakes sleepers in time order, whatever the order they were placed in', () => {
    const r = new ReadySet();
    const times = [50, 10, 40, 30, 20, 60, 5, 45];
    for (const [i, t] of times.entries()) r.place(`p${i}.org`, 1000 + t, 1000);
    const woken: string[] = [];
    for (let now = 1000; now <= 1060; now++) for (const p of r.wake(now)) if (!woken.includes(p)) woken.push(p);
    const expected = times.map((t, i) => [t, `p${i}.org`] as const).sort((a, b) => a[0] - b[0]).map(([, p]) => p);
    expect(woken).toEqual(expected);
  });

  it('a new placement supersedes the old one: later, earlier, ready or out', () => {
    const r = new ReadySet();
    r.place('a.org', 200, 100);
    r.place('a.org', 300, 100); // later: the 200 wake-up is stale
    expect(r.nextWake()).toBe(300);
    expect([...r.wake(250)]).toEqual([]);
    r.place('a.org', 220, 250); // earlier than now: ready at once
    expect([...r.wake(250)]).toEqual(['a.org']);
    r.place('a.org', null, 250);
    expect([...r.wake(1000)]).toEqual([]);
    expect(r.nextWake()).toBeNull();
    r.place('b.org', 400, 250);
    r.place('b.org', Number.POSITIVE_INFINITY, 250); // busy now: the wake-up is dropped
    expect([...r.wake(1000)]).toEqual([]);
    expect(r.readyCount).toBe(0);
  });
});
