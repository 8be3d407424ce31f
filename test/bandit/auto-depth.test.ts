// `auto` on sites whose yield changes with depth: a spread of a tenth of R1's share reaches data that starts deep,
// and evidence fades with the arm's own pulls, not the crawl's clock (ours; BeeBot §3 R1, §4).
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/bandit/create-policy.ts';
import type { ArmRecord } from '../../src/bandit/policy-base.ts';
import { SPREAD_SHARE, spreadOwed } from '../../src/bandit/policies/auto.ts';
import { ThompsonPolicy } from '../../src/bandit/policies/thompson.ts';
import { simulate } from '../../src/bandit/simulate.ts';

const rec = (arm: string, order: number, pulls: number): ArmRecord => ({ arm, order, pulls, chosen: pulls, totalReward: 0, active: true });

describe('spreadOwed', () => {
  it('gives the least pulled arm under the share, once every awake arm has had its initial pulls', () => {
    expect(spreadOwed([rec('a', 0, 9), rec('b', 1, 4), rec('c', 2, 6)], 3, 8)?.arm).toBe('b');
    expect(spreadOwed([rec('a', 0, 9), rec('b', 1, 2)], 3, 8)).toBeUndefined(); // the initial step comes first
    expect(spreadOwed([rec('a', 0, 9), rec('b', 1, 8)], 3, 8)).toBeUndefined(); // every arm has had its share
    expect(SPREAD_SHARE).toBe(0.1);
  });
});

describe('auto over sites whose data starts deep', () => {
  // A thesis-like set of four sites and 2,000 fetches: one site pays every third page from the start, one pays on
  // almost every page after 38 listing pages (dbtune-like), two pay nothing.
  const arms = [
    { id: 'steady', rewards: Array.from({ length: 2000 }, (_, k) => (k % 3 === 1 ? 1 : 0)) },
    { id: 'deep', rewards: Array.from({ length: 800 }, (_, k) => (k >= 38 && k % 10 !== 0 ? 1 : 0)) },
    { id: 'none1', rewards: new Array<number>(2000).fill(0) },
    { id: 'none2', rewards: new Array<number>(2000).fill(0) },
  ];

  it('reaches the deep data and stays there', () => {
    for (const seed of [1, 2, 3]) {
      const auto = simulate(createPolicy('auto', { budget: 2000, seed }), arms, 2000);
      const rr = simulate(createPolicy('round-robin'), arms, 2000);
      // Measured: the whole deep site (800 pages), 1,050 in all; before the spread, 13 pages of it and 654.
      expect(auto.pullsPerArm.deep, `seed ${seed}`).toBeGreaterThan(600);
      expect(auto.total, `seed ${seed}`).toBeGreaterThan(1.5 * rr.total);
    }
  });
});

describe('forgetting with depth', () => {
  it('an arm left alone keeps its posterior: barren sites are sampled again less often than with the clock', () => {
    // One site pays a little (one page in nine), twelve pay nothing, and the discounted posterior is used: with the
    // crawl's clock every site left alone gets its prior's width back and is sampled again.
    const arms = [
      { id: 'p', rewards: Array.from({ length: 600 }, (_, k) => (k % 9 === 4 ? 1 : 0)) },
      ...Array.from({ length: 12 }, (_, i) => ({ id: `z${i}`, rewards: new Array<number>(600).fill(0) })),
    ];
    let depth = 0;
    let time = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      depth += 600 - simulate(new ThompsonPolicy(seed, 1, 3, 0.95, 'depth'), arms, 600).pullsPerArm.p!;
      time += 600 - simulate(new ThompsonPolicy(seed, 1, 3, 0.99, 'time'), arms, 600).pullsPerArm.p!;
    }
    // Measured: 979 pulls on barren sites over five seeds by depth, 1,295 by the clock.
    expect(depth).toBeLessThan(0.85 * time);
  });
});
