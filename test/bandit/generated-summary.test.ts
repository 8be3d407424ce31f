import { describe, expect, it } from 'vitest';
import { bestFixed, losingSets, noiseFloor, perSetLines, ratioOf, rewardOf, type SetResult, summarize, twoCrawls } from '../../bench/lib/bandit-generated.ts';

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
      'set 7 (5 PLDs, oracle 100): auto 0.583 of r3 (self 0.333); round-robin 30/30/30, r1 40/40/40, r2 10/10/10, r3 60/20/20, auto 35/45/40',
    ]);
    expect(losingSets([noisy, empty], 'auto', 'mean')).toEqual([]);
  });
});

describe('the noise floor of the target (two crawls of every fixed rule)', () => {
  // Set 7: R3 wins crawl 1 by luck (60), then finds 20 (R1's 40 is crawl 2's best); auto 35 then 45.
  const lucky = set(7, { 'round-robin': [30, 30], r1: [40, 40], r2: [10, 10], r3: [60, 20], auto: [35, 45] });
  // Set 9: R2 wins both crawls, 100 then 95; auto 97.
  const steady = set(9, { 'round-robin': [50, 50], r1: [60, 60], r2: [100, 95], r3: [70, 70], auto: [97, 90] });

  it('takes the winner of crawl 1 and reads it on crawl 2', () => {
    expect(twoCrawls(lucky)).toEqual({ winner: 'r3', first: 60, second: 20, bestSecond: 40 });
    expect(twoCrawls(set(8, { 'round-robin': [1], r1: [1], r2: [1], r3: [1, 1] }))).toBeUndefined();
  });

  it('prints self (crawl 2 ÷ crawl 1 of the winner), the winner against crawl 2, and auto against the winner on crawl 2', () => {
    const lines = noiseFloor([lucky, steady], ['auto']);
    // self: 20/60 = 0.333 and 95/100 = 0.95; in total 115/160.
    expect(lines[0]).toBe(`| self: best fixed rule of crawl 1, its crawl 2 ÷ crawl 1 | 0.333 | 0.333 | 0.333 | 0/2 | 1/2 | ${(115 / 160).toFixed(3)} | — |`);
    // on crawl 2: 20/40 = 0.5, 95/95 = 1; in total 115/135.
    expect(lines[1]).toBe(`| that rule on crawl 2 ÷ best fixed rule of crawl 2 | 0.500 | 0.500 | 0.500 | 1/2 | 1/2 | ${(115 / 135).toFixed(3)} | — |`);
    // auto's first crawl ÷ the winner's crawl 2: 35/20 = 1.75, 97/95 = 1.021; in total 132/115.
    expect(lines[2]).toBe(`| auto ÷ best fixed rule of crawl 1 judged on crawl 2 | 1.021 | 1.021 | 1.021 | 2/2 | 2/2 | ${(132 / 115).toFixed(3)} | — |`);
    expect(noiseFloor([set(8, { 'round-robin': [1], r1: [1], r2: [1], r3: [1], auto: [1] })], ['auto'])).toEqual([]);
  });

  it('lists each set with its own floor', () => {
    expect(perSetLines([lucky], 'auto')).toEqual([
      "set 7 (5 PLDs): auto 0.583 of r3, mean 1.000; r3 self 0.333, on crawl 2 0.500 of the best; auto ÷ r3's crawl 2 1.750",
    ]);
  });
});
