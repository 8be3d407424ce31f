// Helpers of the bandit tests: drive a policy with scripted rewards.

import type { BanditPolicy } from '../../src/bandit/types.ts';

/** Plays `steps` rounds: choose among `candidates(step)`, feed back `reward(arm, k)` (k = that arm's pull index). Returns the choices. */
export function play(
  policy: BanditPolicy,
  steps: number,
  candidates: (step: number) => string[],
  reward: (arm: string, k: number) => number,
): string[] {
  const pulls = new Map<string, number>();
  const choices: string[] = [];
  for (let step = 0; step < steps; step++) {
    const arm = policy.choose(candidates(step));
    const k = pulls.get(arm) ?? 0;
    pulls.set(arm, k + 1);
    policy.update(arm, reward(arm, k));
    choices.push(arm);
  }
  return choices;
}

/** How many times each arm occurs in `choices`. */
export function countOf(choices: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of choices) out[c] = (out[c] ?? 0) + 1;
  return out;
}
