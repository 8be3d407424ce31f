// **simulateConcurrent** replays a bandit policy as a polite crawl runs it: several fetches in flight, one per PLD (BeeBot §3 X(i, j)).

import { RdfscoutError } from '../errors.ts';
import type { ReplayArm, SimulateResult } from './simulate.ts';
import type { BanditPolicy } from './types.ts';

export interface ConcurrentOptions {
  /** Fetches in flight at once (the crawl's `--concurrency`). Default: 4. */
  concurrency?: number;
  /**
   * How long the k-th pull of `arm` takes (any positive number, in any unit). Default: 1 for every pull, so the
   * fetches of one round end together.
   */
  latency?: (arm: string, k: number) => number;
}

interface Flight {
  arm: ReplayArm;
  reward: number;
  last: boolean;
  endsAt: number;
  /** Start order, to break ties between fetches ending at the same time. */
  order: number;
}

/**
 * Replays `policy` for `budget` pulls the way the crawl's scheduler runs it under politeness with host concurrency 1:
 * up to `concurrency` pulls are in flight; an arm with a pull in flight is not a candidate (it cannot be pulled now,
 * so it is not offered, as `Scheduler.pick` offers only ready PLDs); a pull's reward reaches the policy (`update`)
 * when it ends, the earliest first; the free slots are then filled, each by one `choose` among the arms with pages
 * left and nothing in flight. An arm whose last page was pulled retires when that pull ends.
 * Pure: the same policy state, arms and options give the same result.
 */
export function simulateConcurrent(policy: BanditPolicy, arms: readonly ReplayArm[], budget: number, opts: ConcurrentOptions = {}): SimulateResult {
  const concurrency = opts.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `simulateConcurrent: concurrency must be an integer ≥ 1 (got ${concurrency})`);
  }
  const latency = opts.latency ?? (() => 1);
  const byId = new Map<string, ReplayArm>();
  const next = new Map<string, number>();
  const pullsPerArm: Record<string, number> = {};
  for (const arm of arms) {
    if (byId.has(arm.id)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `simulateConcurrent: duplicate arm id ${arm.id}`);
    byId.set(arm.id, arm);
    next.set(arm.id, 0);
    pullsPerArm[arm.id] = 0;
  }
  const flying: Flight[] = [];
  const curve: number[] = [];
  let started = 0;
  let order = 0;
  let now = 0;
  let total = 0;
  for (;;) {
    while (flying.length < concurrency && started < budget) {
      const busy = new Set(flying.map((f) => f.arm.id));
      const candidates = arms.filter((a) => !busy.has(a.id) && next.get(a.id)! < a.rewards.length).map((a) => a.id);
      if (candidates.length === 0) break;
      const chosen = policy.choose(candidates);
      const arm = byId.get(chosen);
      if (arm === undefined || !candidates.includes(chosen)) {
        throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `simulateConcurrent: ${policy.name} chose ${chosen}, not a candidate`);
      }
      const j = next.get(chosen)!;
      next.set(chosen, j + 1);
      pullsPerArm[chosen]!++;
      const duration = latency(chosen, j);
      if (!(duration > 0)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `simulateConcurrent: latency must be > 0 (got ${duration})`);
      flying.push({ arm, reward: arm.rewards[j]!, last: j + 1 >= arm.rewards.length, endsAt: now + duration, order: order++ });
      started++;
    }
    if (flying.length === 0) break;
    let k = 0;
    for (let i = 1; i < flying.length; i++) {
      const f = flying[i]!;
      const g = flying[k]!;
      if (f.endsAt < g.endsAt || (f.endsAt === g.endsAt && f.order < g.order)) k = i;
    }
    const done = flying.splice(k, 1)[0]!;
    now = done.endsAt;
    policy.update(done.arm.id, done.reward);
    if (done.last) policy.retire(done.arm.id);
    total += done.reward;
    curve.push(total);
  }
  return { total, pullsPerArm, curve, pulls: started };
}
