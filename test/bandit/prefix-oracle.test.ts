import { describe, expect, it } from 'vitest';
import { prefixOracle } from '../../src/bandit/prefix-oracle.ts';
import { Prng } from '../../src/random/prng.ts';

/** Every split of the budget over the sites, tried one by one (small cases only). */
function bruteForce(seqs: number[][], budget: number): number {
  let best = 0;
  const go = (i: number, left: number, sum: number): void => {
    if (i === seqs.length) {
      best = Math.max(best, sum);
      return;
    }
    let prefix = 0;
    go(i + 1, left, sum);
    for (let t = 1; t <= Math.min(left, seqs[i]!.length); t++) {
      prefix += seqs[i]![t - 1]!;
      go(i + 1, left - t, sum + prefix);
    }
  };
  go(0, budget, 0);
  return best;
}

describe('prefixOracle', () => {
  it('takes a late payer when its payoff is worth the wait', () => {
    // Site A pays 1 a fetch; site B nothing for 3 fetches, then 10. With 4 fetches B's prefix of 4 (10) beats A's 4.
    expect(prefixOracle([[1, 1, 1, 1], [0, 0, 0, 10]], 4)).toBe(10);
    expect(prefixOracle([[1, 1, 1, 1], [0, 0, 0, 10]], 3)).toBe(3);
    expect(prefixOracle([[1, 1, 1, 1], [0, 0, 0, 10]], 8)).toBe(14);
  });

  it('equals the brute force on random small sets', () => {
    const rng = new Prng(7);
    for (let k = 0; k < 200; k++) {
      const seqs = Array.from({ length: rng.int(1, 4) }, () => Array.from({ length: rng.int(0, 6) }, () => (rng.chance(0.4) ? rng.int(0, 5) : 0)));
      const budget = rng.int(0, 12);
      expect(prefixOracle(seqs, budget), JSON.stringify({ seqs, budget })).toBe(bruteForce(seqs, budget));
    }
  });
});
