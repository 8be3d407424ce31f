// simulateConcurrent: the replay of a policy as a polite crawl runs it (several fetches in flight, one per PLD).
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/bandit/create-policy.ts';
import { simulateConcurrent } from '../../src/bandit/simulate-concurrent.ts';
import { simulate } from '../../src/bandit/simulate.ts';
import type { BanditPolicy } from '../../src/bandit/types.ts';

/** Wraps a policy to log each choice with its candidates and the rewards received before it. */
function spy(policy: BanditPolicy, log: Array<{ arm: string; candidates: string[]; updates: number }>): BanditPolicy {
  let updates = 0;
  return {
    ...policy,
    name: policy.name,
    choose: (c) => {
      const arm = policy.choose(c);
      log.push({ arm, candidates: [...c], updates });
      return arm;
    },
    update: (arm, reward) => {
      updates++;
      policy.update(arm, reward);
    },
    retire: policy.retire.bind(policy),
  };
}

describe('simulateConcurrent', () => {
  it('with concurrency 1 is the one-at-a-time replay', () => {
    const arms = [
      { id: 'a', rewards: [0, 3, 0, 1, 2, 0, 0, 5] },
      { id: 'b', rewards: [1, 1, 1, 1, 1, 1] },
      { id: 'c', rewards: [4, 0, 0, 0] },
    ];
    for (const name of ['round-robin', 'r2', 'r3', 'auto']) {
      const one = simulate(createPolicy(name, { step: 2 }), arms, 12);
      const conc = simulateConcurrent(createPolicy(name, { step: 2 }), arms, 12, { concurrency: 1 });
      expect(conc).toEqual(one);
    }
  });

  it('never offers an arm with a pull in flight, and keeps `concurrency` pulls in flight', () => {
    const arms = ['a', 'b', 'c', 'd', 'e'].map((id, k) => ({ id, rewards: Array(40).fill(k) }));
    const log: Array<{ arm: string; candidates: string[]; updates: number }> = [];
    const r = simulateConcurrent(spy(createPolicy('r2', { step: 3 }), log), arms, 60, { concurrency: 3 });
    expect(r.pulls).toBe(60);
    // The first three choices are made before any reward arrives, each among the arms not yet in flight.
    expect(log.slice(0, 3).map((l) => l.updates)).toEqual([0, 0, 0]);
    expect(log[1]!.candidates).not.toContain(log[0]!.arm);
    expect(log[2]!.candidates).not.toContain(log[0]!.arm);
    expect(log[2]!.candidates).not.toContain(log[1]!.arm);
    for (const l of log) expect(l.candidates.length).toBeLessThanOrEqual(5);
    // In steady state a choice sees two arms busy: 5 − 2 = 3 candidates (a rule would serve the best arm every time otherwise).
    expect(log.slice(3, 50).every((l) => l.candidates.length === 3)).toBe(true);
    // The best arm (e) can hold at most one slot in three.
    expect(r.pullsPerArm.e).toBeLessThanOrEqual(Math.ceil(60 / 3) + 3);
    expect(r.curve.at(-1)).toBe(r.total);
  });

  it('delivers rewards in the order fetches end (latency), and retires an arm when its last pull ends', () => {
    const arms = [
      { id: 'slow', rewards: [10, 10] },
      { id: 'fast', rewards: [1, 1, 1, 1, 1, 1] },
    ];
    const r = simulateConcurrent(createPolicy('round-robin'), arms, 8, { concurrency: 2, latency: (arm) => (arm === 'slow' ? 5 : 1) });
    // slow's first pull ends at t = 5, after fast has served five pulls (t = 1 … 5): the curve shows it.
    expect(r.curve.slice(0, 5)).toEqual([1, 2, 3, 4, 14]);
    expect(r.pullsPerArm).toEqual({ slow: 2, fast: 6 });
    expect(r.total).toBe(26);
  });

  it('rejects a bad concurrency, a bad latency and duplicate arms with clear errors', () => {
    const arms = [{ id: 'a', rewards: [1] }];
    expect(() => simulateConcurrent(createPolicy('r3'), arms, 1, { concurrency: 0 })).toThrow(/concurrency must be an integer ≥ 1/);
    expect(() => simulateConcurrent(createPolicy('r3'), arms, 1, { latency: () => 0 })).toThrow(/latency must be > 0/);
    expect(() => simulateConcurrent(createPolicy('r3'), [...arms, ...arms], 1)).toThrow(/duplicate arm id a/);
  });
});
