// Tests of `auto`: it remembers everything on heavy-tailed rewards and forgets on light-tailed ones.
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/bandit/create-policy.ts';
import { AutoPolicy, HEAVY_TAIL_DISPERSION } from '../../src/bandit/policies/auto.ts';
import { simulate } from '../../src/bandit/simulate.ts';
import { countOf, play } from './helpers.ts';

describe('auto', () => {
  it('is made by createPolicy and explores every arm once first', () => {
    const policy = createPolicy('auto');
    expect(policy.name).toBe('auto');
    const choices = play(policy, 5, () => ['a', 'b', 'c', 'd', 'e'], () => 0);
    expect(new Set(choices).size).toBe(5);
  });

  it('classifies hub-shaped rewards as heavy-tailed and small counts as not', () => {
    const heavy = new AutoPolicy(1, 1, 1, 0.99);
    play(heavy, 200, () => ['a', 'b'], (_arm, k) => (k % 50 === 7 ? 300 : 0));
    expect(heavy.heavyTailed).toBe(true);
    const light = new AutoPolicy(1, 1, 1, 0.99);
    play(light, 200, () => ['a', 'b'], (arm, k) => (arm === 'a' ? k % 3 : (k + 1) % 2));
    expect(light.heavyTailed).toBe(false);
    expect(HEAVY_TAIL_DISPERSION).toBeGreaterThan(1);
  });

  it('remembers everything when yields are stationary, and forgets when they drift', () => {
    const stationary = new AutoPolicy(3, 1, 1, 0.99);
    play(stationary, 400, () => ['a', 'b'], (arm, k) => (arm === 'a' ? (k * 7) % 3 : (k * 5) % 2));
    expect(stationary.heavyTailed).toBe(false);
    expect(stationary.remembersAll).toBe(true);
    const drifting = new AutoPolicy(3, 1, 1, 0.99);
    // Each arm pays 2 per page for a while, then 0, then 2 again: the recent past predicts better than the whole past.
    play(drifting, 400, () => ['a', 'b'], (arm, k) => (Math.floor((k + (arm === 'a' ? 0 : 30)) / 60) % 2 === 0 ? 2 : 0));
    expect(drifting.heavyTailed).toBe(false);
    expect(drifting.remembersAll).toBe(false);
  });

  it('stays with a site whose hubs paid (RAS-like), where it does not forget', () => {
    // Arm "hub" pays 200 on every 40th page, the others 0: plain evidence keeps its lead between hubs.
    const arms = [
      { id: 'hub', rewards: Array.from({ length: 2000 }, (_, j) => (j % 40 === 3 ? 200 : 0)) },
      ...['x', 'y', 'z'].map((id) => ({ id, rewards: Array.from({ length: 2000 }, (_, j) => (j === 500 ? 1 : 0)) })),
    ];
    const result = simulate(createPolicy('auto'), arms, 1000);
    expect(result.pullsPerArm.hub).toBeGreaterThan(800);
  });

  it('moves to the site that pays now when the first one dries up (university-like), where it forgets', () => {
    // "early" pays 1–2 per page for 300 pages then nothing; "late" pays 1 per page throughout (light tails).
    const arms = [
      { id: 'early', rewards: Array.from({ length: 2000 }, (_, j) => (j < 300 ? 1 + (j % 2) : 0)) },
      { id: 'late', rewards: Array.from({ length: 2000 }, () => 1) },
    ];
    const result = simulate(createPolicy('auto'), arms, 1500);
    // After "early" dries up most pulls go to "late": far more than the 50% a blind split would give.
    expect(result.pullsPerArm.late).toBeGreaterThan(1000);
    expect(result.total).toBeGreaterThan(1500);
  });

  it('never chooses a sleeping arm, and a restored policy continues the same sequence', () => {
    const a = createPolicy('auto', { seed: 7 });
    const choices = play(a, 100, (step) => (step % 2 === 0 ? ['a', 'b'] : ['b', 'c']), (arm, k) => (arm === 'a' ? (k % 10 === 0 ? 50 : 0) : 1));
    for (const [step, arm] of choices.entries()) expect(step % 2 === 0 ? ['a', 'b'] : ['b', 'c']).toContain(arm);
    const b = createPolicy('auto', { seed: 99 });
    b.restore(a.snapshot());
    const next = (p: typeof a) => play(p, 50, () => ['a', 'b', 'c'], (arm) => (arm === 'c' ? 2 : 0));
    expect(next(b)).toEqual(next(a));
    expect(countOf(choices).a).toBeGreaterThan(0);
  });
});
