// `auto` and barren arms: only the most and the least pulled take part in a choice, only the most pulled under concurrency (ours).
import { describe, expect, it } from 'vitest';
import type { ArmRecord } from '../../src/bandit/policy-base.ts';
import { AutoPolicy, barrenContenders, SECOND_LOOK } from '../../src/bandit/policies/auto.ts';

const rec = (arm: string, order: number, pulls: number, chosen = pulls): ArmRecord => ({ arm, order, pulls, chosen, totalReward: 0, active: true });

describe('barrenContenders', () => {
  it('keeps the most pulled barren arm (pulls in flight count) and the least pulled while on its second look', () => {
    const arms = [rec('a', 0, 5), rec('b', 1, 9), rec('c', 2, 3), rec('d', 3, 9), rec('e', 4, 3, 4)];
    expect(barrenContenders(arms, 10).map((r) => r.arm)).toEqual(['b', 'c']);
    expect(barrenContenders(arms, 3).map((r) => r.arm)).toEqual(['b']);
  });

  it('gives one arm when they are all alike, and none for none', () => {
    expect(barrenContenders([rec('a', 0, 4), rec('b', 1, 4)], 10).map((r) => r.arm)).toEqual(['a']);
    expect(barrenContenders([], 10)).toEqual([]);
  });
});

describe('auto one fetch at a time', () => {
  it('is plain auto: every barren arm may be drawn (no digging without pulls in flight)', () => {
    const policy = new AutoPolicy(1, 1, 1, 0.99);
    const arms = ['p', 'z0', 'z1', 'z2', 'z3', 'z4', 'z5'];
    const picked = new Set<string>();
    for (let step = 0; step < 600; step++) {
      const arm = policy.choose(step % 2 === 0 ? arms : arms.slice(1));
      picked.add(arm);
      policy.update(arm, arm === 'p' ? 1 : 0);
      expect(policy.digs).toBe(false);
    }
    expect(picked.size).toBe(7);
  });
});

describe('auto under concurrency (pulls in flight)', () => {
  /**
   * Four fetches in flight at a time, host concurrency 1: arms p (pays 1) and z0…z7 (pay nothing) of `length` pages
   * each. Returns the picks with, for each, the pulls every barren arm had committed before it.
   */
  function polite(seed: number, length: number): { policy: AutoPolicy; picks: Array<{ arm: string; before: Map<string, number> }> } {
    const policy = new AutoPolicy(seed, 1, 1, 0.99);
    const arms = ['p', ...Array.from({ length: 8 }, (_, k) => `z${k}`)];
    const committed = new Map(arms.map((a) => [a, 0]));
    const flying: string[] = [];
    const picks: Array<{ arm: string; before: Map<string, number> }> = [];
    for (let step = 0; step < 240; step++) {
      while (flying.length < 4) {
        const candidates = arms.filter((a) => !flying.includes(a) && committed.get(a)! < length);
        if (candidates.length === 0) break;
        const before = new Map(committed);
        const arm = policy.choose(candidates);
        picks.push({ arm, before });
        committed.set(arm, committed.get(arm)! + 1);
        flying.push(arm);
      }
      const done = flying.shift();
      if (done === undefined) break;
      policy.update(done, done === 'p' ? 1 : 0);
      if (committed.get(done)! >= length) policy.retire(done);
    }
    return { policy, picks };
  }

  it('digs the most pulled barren arms, others only on their second look, while no arm has run out', () => {
    const { picks } = polite(2, 1000);
    const late = picks.slice(40).filter((p) => p.arm !== 'p');
    expect(late.length).toBeGreaterThan(50);
    for (const { arm, before } of late) {
      const barren = [...before].filter(([a]) => a !== 'p');
      // One of the deepest (the deepest may be in flight: three slots), or one still on its second look.
      const deeper = barren.filter(([, n]) => n > before.get(arm)!).length;
      expect(deeper <= 3 || before.get(arm)! < SECOND_LOOK).toBe(true);
    }
    // Pulls are concentrated: the most pulled barren arm holds far more than an even share.
    const pulls = new Map<string, number>();
    for (const { arm } of picks) pulls.set(arm, (pulls.get(arm) ?? 0) + 1);
    const barrenPulls = [...pulls].filter(([a]) => a !== 'p').map(([, n]) => n);
    expect(Math.max(...barrenPulls)).toBeGreaterThan(2 * (barrenPulls.reduce((a, b) => a + b, 0) / 8));
  });

  it('stops digging once an arm has run out of pages, and without pulls in flight', () => {
    const small = polite(2, 30);
    expect(small.policy.stats().some((s) => s.retired && s.pulls >= 30)).toBe(true);
    expect(small.policy.digs).toBe(false);
    const serial = new AutoPolicy(1, 1, 1, 0.99);
    for (const a of ['a', 'b', 'c']) serial.update(serial.choose([a]), 0);
    expect(serial.digs).toBe(false);
    serial.choose(['a', 'b', 'c']); // chosen, not yet rewarded: in flight
    expect(serial.digs).toBe(true);
  });
});
