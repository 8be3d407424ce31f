// The BanditPolicy contract, run against every policy: sleeping arms, new arms, retirement, snapshot/restore, errors.

import { describe, expect, it } from 'vitest';
import { createPolicy, POLICY_NAMES, type PolicyOptions } from '../../src/bandit/create-policy.ts';
import { joinSnapshot } from '../../src/bandit/policy-base.ts';
import { RdfscoutError } from '../../src/errors.ts';
import { play } from './helpers.ts';

const OPTS: PolicyOptions = { budget: 300, step: 3, initialStep: 2, seed: 11 };
/** A reward that depends on arm and page, with some spread. */
const reward = (arm: string, k: number) => ((arm.charCodeAt(0) * 7 + k * 13) % 11 === 0 ? 9 : (arm.charCodeAt(0) + k) % 3);

describe.each(POLICY_NAMES)('%s', (name) => {
  it('chooses only among the candidates: a sleeping arm is never served', () => {
    const p = createPolicy(name, OPTS);
    const all = ['a', 'b', 'c', 'd'];
    for (let step = 0; step < 200; step++) {
      const asleep = all[step % 4]!; // each arm sleeps one step in four
      const cands = all.filter((a) => a !== asleep);
      const arm = p.choose(cands);
      expect(cands).toContain(arm);
      p.update(arm, reward(arm, step));
    }
  });

  it('explores an arm that appears mid-run', () => {
    const p = createPolicy(name, { ...OPTS, budget: 3000 });
    const choices = play(p, 120, (s) => (s < 60 ? ['a', 'b'] : ['a', 'b', 'c']), reward);
    expect(choices.slice(60, 90)).toContain('c');
  });

  it('retire takes an arm out of the game; it comes back when it has work again', () => {
    const p = createPolicy(name, OPTS);
    play(p, 30, () => ['a', 'b', 'c'], reward);
    p.retire('a');
    expect(p.stats().find((s) => s.arm === 'a')?.retired).toBe(true);
    for (const arm of play(p, 30, () => ['b', 'c'], reward)) expect(arm).not.toBe('a');
    p.choose(['a', 'b', 'c']);
    expect(p.stats().find((s) => s.arm === 'a')?.retired).toBe(false);
  });

  it('keeps per-arm stats (pulls, total, mean)', () => {
    const p = createPolicy(name, OPTS);
    const choices = play(p, 50, () => ['a', 'b', 'c'], () => 2);
    for (const s of p.stats()) {
      const n = choices.filter((c) => c === s.arm).length;
      expect(s).toMatchObject({ pulls: n, totalReward: 2 * n, meanReward: n > 0 ? 2 : 0 });
    }
  });

  it('a policy restored from a JSON snapshot makes the same choices as the original', () => {
    const original = createPolicy(name, OPTS);
    const cands = (s: number) => (s % 5 === 0 ? ['a', 'c', 'd'] : ['a', 'b', 'c', 'd']);
    play(original, 137, cands, reward);
    const snap = JSON.parse(JSON.stringify(original.snapshot()));
    const restored = createPolicy(name, { ...OPTS, seed: 999 });
    restored.restore(snap);
    expect(restored.stats()).toEqual(original.stats());
    const next = (s: number) => cands(s + 137);
    const rewardLater = (arm: string, k: number) => reward(arm, k + 100);
    expect(play(restored, 150, next, rewardLater)).toEqual(play(original, 150, next, rewardLater));
    expect(restored.snapshot()).toEqual(original.snapshot());
  });

  it('changes() saves only the arms touched since the last call, and the saved parts restore the whole state', () => {
    const original = createPolicy(name, OPTS);
    const saved = new Map<string, unknown>();
    let head: unknown;
    const save = () => {
      const c = JSON.parse(JSON.stringify(original.changes())) as { head: unknown; arms: Array<{ arm: string }> };
      head = c.head;
      for (const a of c.arms) saved.set(a.arm, a);
      return c.arms.map((a) => a.arm);
    };
    const arms = Array.from({ length: 12 }, (_, i) => `pld${i}`);
    for (let step = 0; step < 240; step++) {
      const cands = arms.filter((_, i) => (i + step) % 3 !== 0);
      const arm = original.choose(cands);
      original.update(arm, reward(arm, step));
      if (step % 40 === 7) original.retire(cands[0]!);
      const touched = save();
      // the chosen arm, plus any arm that joined, came back or retired in this step; never all twelve
      expect(touched).toContain(arm);
      if (step > 20) expect(touched.length).toBeLessThan(arms.length);
    }
    expect(save()).toEqual([]); // nothing touched since
    const restored = createPolicy(name, { ...OPTS, seed: 999 });
    restored.restore(joinSnapshot(head, [...saved.values()]));
    expect(restored.snapshot()).toEqual(original.snapshot());
    const next = (s: number) => arms.filter((_, i) => (i + s) % 4 !== 1);
    expect(play(restored, 100, next, reward)).toEqual(play(original, 100, next, reward));
  });

  it('refuses a snapshot of another policy, an empty choice and a bad reward', () => {
    const p = createPolicy(name, OPTS);
    const other = createPolicy(name === 'r1' ? 'r2' : 'r1', OPTS);
    expect(() => p.restore(other.snapshot())).toThrowError(expect.objectContaining({ code: 'RDFSCOUT_RESUME_CONFLICT' }));
    expect(() => p.restore({ nonsense: true })).toThrowError(RdfscoutError);
    expect(() => p.choose([])).toThrowError(expect.objectContaining({ code: 'RDFSCOUT_INVALID_ARGUMENT' }));
    expect(() => p.update('a', -1)).toThrowError(expect.objectContaining({ code: 'RDFSCOUT_INVALID_ARGUMENT' }));
    expect(() => p.update('a', Number.NaN)).toThrowError(RdfscoutError);
  });
});
