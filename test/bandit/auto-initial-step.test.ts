// Tests of auto's initial step: every site gets three pages before sampling, so one early hub cannot hide the others.
import { describe, expect, it } from 'vitest';
import { AUTO_INITIAL_STEP, createPolicy } from '../../src/bandit/create-policy.ts';
import { countOf, play } from './helpers.ts';

describe('auto initial step', () => {
  it('gives every arm AUTO_INITIAL_STEP (3) pulls before sampling, even after a hub', () => {
    expect(AUTO_INITIAL_STEP).toBe(3);
    // Arm "a" pays a hub on its first page; a sampler would stay there, the initial step does not.
    const choices = play(createPolicy('auto'), 12, () => ['a', 'b', 'c', 'd'], (arm, k) => (arm === 'a' && k === 0 ? 100 : 0));
    expect(countOf(choices)).toEqual({ a: 3, b: 3, c: 3, d: 3 });
  });

  it('keeps the option: initialStep 1 samples after one pull per arm', () => {
    // budget 40 over 4 arms: the spread (a tenth of N/K) is 1 pull, so sampling starts after the initial step.
    const choices = play(createPolicy('auto', { initialStep: 1, budget: 40 }), 12, () => ['a', 'b', 'c', 'd'], (arm, k) => (arm === 'a' && k === 0 ? 100 : 0));
    expect(choices.slice(0, 4).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(countOf(choices).a).toBeGreaterThan(3);
  });
});
