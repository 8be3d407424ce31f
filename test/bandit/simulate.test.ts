// simulate: the replay of a policy over per-arm reward sequences; and the seeded generator it relies on.

import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/bandit/create-policy.ts';
import { Prng } from '../../src/random/prng.ts';
import { sampleGamma } from '../../src/random/samplers.ts';
import { simulate } from '../../src/bandit/simulate.ts';

describe('simulate', () => {
  it('replays rewards in page order, retires exhausted arms, and reports the curve', () => {
    const arms = [
      { id: 'a', rewards: [1, 0, 2] },
      { id: 'b', rewards: [5, 5, 5, 5, 5, 5] },
    ];
    const r = simulate(createPolicy('round-robin'), arms, 8);
    // a, b, a, b, a (a exhausted → retired), b, b, b
    expect(r.pullsPerArm).toEqual({ a: 3, b: 5 });
    expect(r.curve).toEqual([1, 6, 6, 11, 13, 18, 23, 28]);
    expect(r.total).toBe(28);
    expect(r.pulls).toBe(8);
  });

  it('stops when every arm has run out, before the budget', () => {
    const r = simulate(createPolicy('r3'), [{ id: 'a', rewards: [1, 1] }, { id: 'b', rewards: [3] }], 100);
    expect(r).toMatchObject({ total: 5, pulls: 3, pullsPerArm: { a: 2, b: 1 } });
  });

  it('never serves a sleeping arm; a step with every arm asleep passes without a pull', () => {
    const arms = [
      { id: 'a', rewards: Array(50).fill(1) },
      { id: 'b', rewards: Array(50).fill(2) },
    ];
    const served: string[] = [];
    const policy = createPolicy('r2', { step: 2 });
    const spy = { ...policy, name: policy.name, choose: (c: readonly string[]) => { const arm = policy.choose(c); served.push(`${arm}:${c.join('')}`); return arm; }, update: policy.update.bind(policy), retire: policy.retire.bind(policy) };
    // b sleeps on odd steps; everything sleeps on steps divisible by 10.
    const r = simulate(spy, arms, 20, { sleeping: (arm, step) => step % 10 === 0 || (arm === 'b' && step % 2 === 1) });
    expect(r.pulls).toBe(20);
    for (const s of served) expect(s.split(':')[1]).toContain(s.split(':')[0]);
    expect(served.length).toBe(20);
  });

  it('is deterministic: the same seed and arms give the same result', () => {
    const arms = [
      { id: 'a', rewards: [0, 0, 9, 0, 1, 0, 0, 3, 0, 0] },
      { id: 'b', rewards: [1, 1, 0, 1, 1, 0, 1, 1, 0, 1] },
    ];
    const one = simulate(createPolicy('thompson', { seed: 5 }), arms, 15);
    const two = simulate(createPolicy('thompson', { seed: 5 }), arms, 15);
    expect(two).toEqual(one);
  });
});

describe('Prng', () => {
  it('continues the same sequence after its state is restored', () => {
    const a = new Prng(123);
    for (let i = 0; i < 10; i++) a.next();
    const b = new Prng(0);
    b.restore(a.state);
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(Array.from({ length: 5 }, () => a.next()));
  });

  it('draws Gamma variates with the right mean, shape below and above 1', () => {
    const prng = new Prng(9);
    for (const [shape, rate] of [[0.3, 2], [4, 0.5]] as const) {
      let sum = 0;
      for (let i = 0; i < 20000; i++) sum += sampleGamma(prng, shape, rate);
      expect(sum / 20000).toBeCloseTo(shape / rate, 1);
    }
  });
});
