// Our policies (spec §5) on scripted reward sequences: Thompson sampling, discounted and sliding-window UCB.

import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/bandit/create-policy.ts';
import { Prng } from '../../src/random/prng.ts';
import { samplePoisson } from '../../src/random/samplers.ts';
import { countOf, play } from './helpers.ts';

describe('thompson', () => {
  it('converges to the arm with the larger Poisson mean (fixed seed)', () => {
    const p = createPolicy('thompson', { seed: 42, gamma: 1 });
    const world = new Prng(7);
    const means: Record<string, number> = { a: 0.5, b: 2, c: 1 };
    const choices = play(p, 600, () => ['a', 'b', 'c'], (arm) => samplePoisson(world, means[arm]!));
    expect(countOf(choices.slice(400)).b ?? 0).toBeGreaterThan(160);
    const stats = Object.fromEntries(p.stats().map((s) => [s.arm, s]));
    expect(stats.b!.index).toBeGreaterThan(stats.a!.index);
  });

  it('is not fooled for long by one huge page on an arm that otherwise pays nothing', () => {
    const p = createPolicy('thompson', { seed: 3 });
    // a: one page with 300 links, then nothing; b: 1 link per page.
    const choices = play(p, 1000, () => ['a', 'b'], (arm, k) => (arm === 'a' ? (k === 0 ? 300 : 0) : 1));
    expect(countOf(choices.slice(700)).b ?? 0).toBeGreaterThan(250);
  });
});

describe.each([
  ['ducb', { gamma: 0.99 }],
  ['swucb', { window: 100 }],
] as const)('%s', (name, opts) => {
  it('switches to the other arm when the best arm dries up', () => {
    const p = createPolicy(name, opts);
    // a pays 5 per page for its first 150 pages, then nothing; b pays 1 per page throughout.
    const reward = (arm: string, k: number) => (arm === 'a' ? (k < 150 ? 5 : 0) : 1);
    const choices = play(p, 600, () => ['a', 'b'], reward);
    expect(countOf(choices.slice(0, 150)).a ?? 0).toBeGreaterThan(120);
    const late = countOf(choices.slice(400)).b ?? 0;
    expect(late).toBeGreaterThan(150);
    // without forgetting (γ = 1, no window) the switch is much slower
    const plain = createPolicy('ducb', { gamma: 1 });
    expect(countOf(play(plain, 600, () => ['a', 'b'], reward).slice(400)).b ?? 0).toBeLessThan(late - 50);
  });

  it('goes back to an arm left alone long enough (its evidence fades)', () => {
    const p = createPolicy(name, opts);
    const choices = play(p, 600, () => ['a', 'b'], (arm) => (arm === 'a' ? 1 : 0));
    expect(countOf(choices.slice(300)).b ?? 0).toBeGreaterThan(0);
  });
});
