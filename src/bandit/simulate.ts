// **simulate** replays a bandit policy over recorded per-arm reward sequences (BeeBot §3: X(i, j) in BFS page order).

import { RdfscoutError } from '../errors.ts';
import type { BanditPolicy } from './types.ts';

/** One arm of a replay: its rewards X(i, 1), X(i, 2), … in the order its pages would be crawled. */
export interface ReplayArm {
  id: string;
  rewards: readonly number[];
}

export interface SimulateOptions {
  /**
   * Whether `arm` is asleep at time step `step` (politeness, or not yet discovered). A step in which every live
   * arm is asleep passes without a pull. Default: never asleep.
   */
  sleeping?: (arm: string, step: number) => boolean;
  /** Safety limit on time steps, pulls or not. Default: 100 × budget + 1000. */
  maxSteps?: number;
}

export interface SimulateResult {
  /** S_R(N): the total reward collected. */
  total: number;
  /** T(i, N) per arm (arms never pulled are listed with 0). */
  pullsPerArm: Record<string, number>;
  /** curve[k] = total reward after k + 1 pulls. */
  curve: number[];
  /** Pulls made: the budget, unless every arm ran out first. */
  pulls: number;
}

/**
 * Replays `policy` for `budget` pulls: at each time step the candidates are the arms with pages left that are
 * awake; the chosen arm's next reward is fed back with `update`; an arm whose sequence is exhausted retires.
 * Pure: the same policy state, arms and options give the same result.
 */
export function simulate(
  policy: BanditPolicy,
  arms: readonly ReplayArm[],
  budget: number,
  opts: SimulateOptions = {},
): SimulateResult {
  const next = new Map<string, number>();
  const byId = new Map<string, ReplayArm>();
  const pullsPerArm: Record<string, number> = {};
  for (const arm of arms) {
    if (byId.has(arm.id)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `simulate: duplicate arm id ${arm.id}`);
    byId.set(arm.id, arm);
    next.set(arm.id, 0);
    pullsPerArm[arm.id] = 0;
  }
  const sleeping = opts.sleeping ?? (() => false);
  const maxSteps = opts.maxSteps ?? 100 * budget + 1000;
  const curve: number[] = [];
  let total = 0;
  let pulls = 0;
  for (let step = 0; pulls < budget && step < maxSteps; step++) {
    const live = arms.filter((arm) => next.get(arm.id)! < arm.rewards.length);
    if (live.length === 0) break;
    const candidates = live.filter((arm) => !sleeping(arm.id, step)).map((arm) => arm.id);
    if (candidates.length === 0) continue;
    const chosen = policy.choose(candidates);
    const arm = byId.get(chosen);
    if (arm === undefined || !candidates.includes(chosen)) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `simulate: ${policy.name} chose ${chosen}, not a candidate`);
    }
    const j = next.get(chosen)!;
    const reward = arm.rewards[j]!;
    next.set(chosen, j + 1);
    pullsPerArm[chosen]!++;
    policy.update(chosen, reward);
    if (j + 1 >= arm.rewards.length) policy.retire(chosen);
    total += reward;
    pulls++;
    curve.push(total);
  }
  return { total, pullsPerArm, curve, pulls };
}
