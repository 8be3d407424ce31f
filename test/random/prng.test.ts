// Tests of the one seeded generator and its samplers: the numbers the two former wrappers drew, for the same seeds.
import { describe, expect, it } from 'vitest';
import { hashParts, Prng } from '../../src/random/prng.ts';
import { sampleGamma, samplePoisson } from '../../src/random/samplers.ts';

describe('Prng', () => {
  it('draws what the simulated web drew before the wrappers were merged (Rng.of, int, chance, pick, pareto)', () => {
    // Values recorded from src/simweb/prng.ts at dc92d06, before the merge: the simulated webs must not change.
    expect(hashParts(7, 'host.example', 'render', 3)).toBe(2535247338);
    const r = Prng.of(7, 'host.example', 'render', 3);
    expect([r.next(), r.int(1, 6), r.chance(0.5), r.pick(['a', 'b', 'c']), r.pareto(1, 1.2, 500)]).toEqual([
      0.44128766539506614, 1, true, 'c', 2,
    ]);
  });

  it('draws what the bandit drew before the merge (next, nextInt, Gamma, Poisson, state)', () => {
    // Values recorded from src/bandit/prng.ts at dc92d06: Thompson sampling picks the same arms for the same seed.
    const p = new Prng(42);
    expect([p.next(), p.nextInt(10), sampleGamma(p, 0.5, 2), samplePoisson(p, 3), samplePoisson(p, 80), p.state]).toEqual([
      0.6011037519201636, 4, 0.022439396847200477, 4, 80, 2335519131,
    ]);
  });

  it('continues the same sequence after restore(state)', () => {
    const a = new Prng(9);
    a.next();
    const b = new Prng(0);
    b.restore(a.state);
    expect([b.next(), b.next()]).toEqual([a.next(), a.next()]);
  });

  it('separates label parts, so (ab, c) and (a, bc) seed different generators', () => {
    expect(hashParts('ab', 'c')).not.toBe(hashParts('a', 'bc'));
  });
});
