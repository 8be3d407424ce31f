// BeeBot §3's rules on scripted reward sequences: round-robin, R1, R2, R3.

import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/bandit/create-policy.ts';
import { countOf, play } from './helpers.ts';

const ABC = () => ['a', 'b', 'c'];

describe('round-robin', () => {
  it('gives every arm its quantum in turn, in discovery order', () => {
    const p = createPolicy('round-robin', { quantum: 2 });
    expect(play(p, 8, ABC, () => 0)).toEqual(['a', 'a', 'b', 'b', 'c', 'c', 'a', 'a']);
  });

  it('detours around a sleeping arm and gives it the rest of its turn when it wakes', () => {
    const p = createPolicy('round-robin', { quantum: 2 });
    // b's turn starts at step 2; b sleeps during steps 2–3.
    const cands = (s: number) => (s === 2 || s === 3 ? ['a', 'c'] : ['a', 'b', 'c']);
    expect(play(p, 9, cands, () => 0)).toEqual(['a', 'a', 'c', 'c', 'b', 'b', 'c', 'c', 'a']);
  });

  it('appends new arms to the ring and skips retired ones', () => {
    const p = createPolicy('round-robin');
    expect(play(p, 4, (s) => (s < 2 ? ['a', 'b'] : ['a', 'b', 'c']), () => 0)).toEqual(['a', 'b', 'c', 'a']);
    p.retire('b');
    expect(play(p, 3, () => ['a', 'c'], () => 0)).toEqual(['c', 'a', 'c']);
    expect(p.stats().find((s) => s.arm === 'b')?.retired).toBe(true);
  });
});

describe('r1', () => {
  it('spreads ⌊N/K⌉ pulls round-robin, then exploits the arm with the largest total yield', () => {
    const p = createPolicy('r1', { budget: 30 });
    const yields: Record<string, number> = { a: 1, b: 3, c: 2 };
    const choices = play(p, 45, ABC, (arm) => yields[arm]!);
    expect(choices.slice(0, 6)).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
    expect(countOf(choices.slice(0, 30))).toEqual({ a: 10, b: 10, c: 10 });
    expect(new Set(choices.slice(30))).toEqual(new Set(['b']));
  });

  it('ignores an arm discovered after phase 1 until the chosen arm retires, then takes the next best', () => {
    const p = createPolicy('r1', { budget: 6 });
    const yields: Record<string, number> = { a: 1, b: 3, c: 2, d: 9 };
    play(p, 6, ABC, (arm) => yields[arm]!);
    expect(play(p, 5, () => ['a', 'b', 'c', 'd'], (arm) => yields[arm]!)).toEqual(['b', 'b', 'b', 'b', 'b']);
    p.retire('b');
    expect(play(p, 3, () => ['a', 'c', 'd'], (arm) => yields[arm]!)).toEqual(['c', 'c', 'c']);
  });

  it('detours to the best awake arm while the chosen arm sleeps, and goes back to it', () => {
    const p = createPolicy('r1', { budget: 6 });
    const yields: Record<string, number> = { a: 1, b: 3, c: 2 };
    play(p, 6, ABC, (arm) => yields[arm]!);
    expect(play(p, 3, (s) => (s === 1 ? ['a', 'c'] : ABC()), (arm) => yields[arm]!)).toEqual(['b', 'c', 'b']);
  });
});

describe('r2', () => {
  it('crawls n pages of every arm, then batches of n on the arm with the best mean', () => {
    const p = createPolicy('r2', { step: 3 });
    // a pays 2 on its first 6 pages then 0; b pays 1 always; c pays 0.
    const reward = (arm: string, k: number) => (arm === 'a' ? (k < 6 ? 2 : 0) : arm === 'b' ? 1 : 0);
    const choices = play(p, 30, ABC, reward);
    expect(countOf(choices.slice(0, 9))).toEqual({ a: 3, b: 3, c: 3 });
    // a's mean stays above b's (1) until its mean falls: a pulled in whole batches of 3.
    expect(choices.slice(9, 15)).toEqual(['a', 'a', 'a', 'a', 'a', 'a']);
    expect(countOf(choices).a! % 3).toBe(0);
  });

  it('never returns to an arm whose first n pulls paid nothing while another arm pays', () => {
    const p = createPolicy('r2', { step: 5 });
    // a would pay 100 per page after its 5th page: greedy R2 never finds out.
    const reward = (arm: string, k: number) => (arm === 'a' ? (k < 5 ? 0 : 100) : 1);
    const choices = play(p, 200, () => ['a', 'b'], reward);
    expect(countOf(choices)).toEqual({ a: 5, b: 195 });
  });

  it('detours while the batch arm sleeps and resumes the batch without losing pulls', () => {
    const p = createPolicy('r2', { step: 3 });
    const reward = (arm: string) => (arm === 'a' ? 3 : arm === 'b' ? 2 : 0);
    play(p, 9, ABC, reward); // initial pulls
    // batch on a; a asleep at step 1: detour to b (best awake mean); batch of a continues after.
    const choices = play(p, 7, (s) => (s === 1 ? ['b', 'c'] : ABC()), reward);
    expect(choices).toEqual(['a', 'b', 'a', 'a', 'a', 'a', 'a']);
  });

  it('explores an arm discovered mid-run with its n initial pulls', () => {
    const p = createPolicy('r2', { step: 2 });
    const choices = play(p, 30, (s) => (s < 20 ? ['a', 'b'] : ['a', 'b', 'c']), (arm) => (arm === 'a' ? 1 : 0));
    expect(choices.slice(20, 22)).toEqual(['c', 'c']);
  });
});

describe('r3', () => {
  it('explores every arm m times, then prefers the better arm', () => {
    const p = createPolicy('r3', { initialStep: 3 });
    const yields: Record<string, number> = { a: 0, b: 4, c: 1, d: 0 };
    const choices = play(p, 400, () => ['a', 'b', 'c', 'd'], (arm, k) => (k % 2 === 0 ? yields[arm]! : 0));
    expect(countOf(choices.slice(0, 12))).toEqual({ a: 3, b: 3, c: 3, d: 3 });
    const counts = countOf(choices);
    expect(counts.b!).toBeGreaterThan(counts.c!);
    expect(counts.c!).toBeGreaterThan(counts.a!);
    expect(counts.a!).toBeGreaterThanOrEqual(3);
    // the index is X̄/X_max + sqrt(2 ln n / t)
    const b = p.stats().find((s) => s.arm === 'b')!;
    expect(b.index).toBeCloseTo(b.meanReward / 4 + Math.sqrt((2 * Math.log(400)) / b.pulls), 9);
  });
});
