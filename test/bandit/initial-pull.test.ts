// Tests of the initial step shared by r2, r3, ducb, swucb, thompson and auto (BeeBot §3 R2 n, R3 m).
import { describe, expect, it } from 'vitest';
import { type ArmRecord, initialPull } from '../../src/bandit/policy-base.ts';
import { createPolicy } from '../../src/bandit/create-policy.ts';

const arm = (name: string, order: number, pulls: number, chosen = pulls): ArmRecord => ({
  arm: name, order, pulls, chosen, totalReward: 0, active: true,
});

describe('initialPull', () => {
  it('gives the pull to the awake arm with the fewest committed pulls, the earliest discovered on ties', () => {
    expect(initialPull([arm('a', 0, 2), arm('b', 1, 1), arm('c', 2, 1)], 3)?.arm).toBe('b');
  });

  it('counts choices in flight as committed pulls', () => {
    expect(initialPull([arm('a', 0, 0, 2), arm('b', 1, 1)], 3)?.arm).toBe('b');
  });

  it('is undefined once every awake arm has had its step, so the rule decides', () => {
    expect(initialPull([arm('a', 0, 3), arm('b', 1, 4)], 3)).toBeUndefined();
  });
});

describe('every index rule starts with the shared initial step', () => {
  for (const name of ['r2', 'r3', 'ducb', 'swucb', 'thompson', 'auto'] as const) {
    it(`${name}: with step 2, the first six pulls over three arms go a, b, c, a, b, c`, () => {
      const policy = createPolicy(name, { step: 2, initialStep: 2, seed: 1 });
      const order: string[] = [];
      for (let i = 0; i < 6; i++) {
        const chosen = policy.choose(['a', 'b', 'c']);
        order.push(chosen);
        policy.update(chosen, i === 0 ? 50 : 0);
      }
      expect(order).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
    });
  }
});
