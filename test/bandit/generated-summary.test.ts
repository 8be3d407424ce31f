import { describe, expect, it } from 'vitest';
import { bestFixed, losingSets, ratioOf, rewardOf, type SetResult, summarize } from '../../bench/lib/bandit-generated.ts';

const set = (seed: number, by: Record<string, number[]>): SetResult => ({ seed, reward: 'external-links', concurrency: 1, plds: 5, oracle: 100, by });

describe('the generated-set summary with repeats', () => {
  // One set: R3 is lucky once (60 then 20, 20), R1 steady at 40; auto 35, 45, 40.
  const noisy = set(7, { 'round-robin': [30, 30, 30], r1: [40, 40, 40], r2: [10, 10, 10], r3: [60, 20, 20], auto: [35, 45, 40] });

  it('judges one crawl against the best fixed rule of that crawl, and the mean against the best mean', () => {
    expect(bestFixed(noisy, 'single')).toEqual({ rule: 'r3', reward: 60 });
    expect(bestFixed(noisy, 'mean')).toEqual({ rule: 'r1', reward: 40 });
    expect(rewardOf(noisy, 'auto', 'mean')).toBe(40);
    expect(ratioOf(noisy, 'auto', 'single')).toBeCloseTo(35 / 60);
    expect(ratioOf(noisy, 'auto', 'mean')).toBe(1);
  });

  it('counts a set where no fixed rule earns anything as a tie, and lists the losing sets with every crawl', () => {
    const empty = set(8, { 'round-robin': [0], r1: [0], r2: [0], r3: [0], auto: [0] });
    expect(ratioOf(empty, 'auto', 'single')).toBe(1);
    const lines = summarize([noisy, empty], ['auto'], 'single');
    expect(lines[2]).toBe('| auto | 0.583 | 0.583 | 0.583 | 1/2 | 1/2 | 0.583 | 0.175 |');
    expect(summarize([noisy, empty], ['auto'], 'mean')[2]).toBe('| auto | 1.000 | 1.000 | 1.000 | 2/2 | 2/2 | 1.000 | 0.200 |');
    expect(losingSets([noisy, empty], 'auto', 'single')).toEqual([
      'set 7 (5 PLDs, oracle 100): auto 0.583 of r3; round-robin 30/30/30, r1 40/40/40, r2 10/10/10, r3 60/20/20, auto 35/45/40',
    ]);
    expect(losingSets([noisy, empty], 'auto', 'mean')).toEqual([]);
  });
});
