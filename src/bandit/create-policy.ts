// **createPolicy** resolves `--bandit NAME` and its options, once, into a policy instance.

import { RdfscoutError } from '../errors.ts';
import { AutoPolicy } from './policies/auto.ts';
import { DiscountedUcbPolicy } from './policies/ducb.ts';
import { R1Policy } from './policies/r1.ts';
import { R2Policy } from './policies/r2.ts';
import { R3Policy } from './policies/r3.ts';
import { RoundRobinPolicy } from './policies/round-robin.ts';
import { SlidingWindowUcbPolicy } from './policies/swucb.ts';
import { ThompsonPolicy } from './policies/thompson.ts';
import type { BanditPolicy } from './types.ts';

/** Every policy `createPolicy` knows. (`none`, the frontier's global order, is the crawl's business: no policy.) */
export const POLICY_NAMES = ['round-robin', 'r1', 'r2', 'r3', 'thompson', 'ducb', 'swucb', 'auto'] as const;

type PolicyName = (typeof POLICY_NAMES)[number];

/** Options of the policies; each policy reads the ones it needs and ignores the others. */
export interface PolicyOptions {
  /** round-robin: pulls per turn (BeeBot's time quantum). Default: 1. */
  quantum?: number;
  /** r1, auto: N, the crawl's total budget of pulls (pages). Default: 2000 (BeeBot §4). auto spreads a tenth of N/K over every arm. */
  budget?: number;
  /** r1: K, the number of arms, when known in advance. Default: the arms seen so far (see R1Policy). */
  arms?: number;
  /** r2: n, the batch size. Default: 10. */
  step?: number;
  /** r3: m, initial pulls per arm. Default: 1. Also thompson, ducb, swucb: initial pulls per arm, default 1; auto: 3 (see AutoPolicy). */
  initialStep?: number;
  /** ducb, thompson, auto: the discount γ in (0, 1] of old evidence (1 = none). Default: 0.995 (the best of 0.99–1 in bench/bandit-replay.ts); auto: 0.95 per pull of the same arm (depth, not the crawl's clock), used only while rewards are not heavy-tailed. */
  gamma?: number;
  /** swucb: the window W, in pulls. Default: 500. */
  window?: number;
  /** ducb, swucb: the exploration factor c. Default: 1. */
  exploration?: number;
  /** thompson, auto: the prior's weight p0, in pulls. Default: 1. */
  priorPulls?: number;
  /** thompson, auto: the generator's seed. Default: 1. */
  seed?: number;
}

/** auto's discount per pull of the same arm, while rewards are not heavy-tailed (see AutoPolicy); `gamma` overrides it. */
const AUTO_GAMMA = 0.95;

/** auto's initial pulls per arm (see AutoPolicy: a start page alone says nothing on heavy-tailed sets); `initialStep` overrides it. */
export const AUTO_INITIAL_STEP = 3;

const DEFAULTS: Required<Omit<PolicyOptions, 'arms'>> = {
  quantum: 1,
  budget: 2000,
  step: 10,
  initialStep: 1,
  gamma: 0.995,
  window: 500,
  exploration: 1,
  priorPulls: 1,
  seed: 1,
};

type Check = (v: number) => boolean;
const positiveInt: Check = (v) => Number.isInteger(v) && v >= 1;
const CHECKS: Record<keyof PolicyOptions, [Check, string]> = {
  quantum: [positiveInt, 'an integer ≥ 1'],
  budget: [positiveInt, 'an integer ≥ 1'],
  arms: [positiveInt, 'an integer ≥ 1'],
  step: [positiveInt, 'an integer ≥ 1'],
  initialStep: [positiveInt, 'an integer ≥ 1'],
  gamma: [(v) => v > 0 && v <= 1, 'a number in (0, 1]'],
  window: [positiveInt, 'an integer ≥ 1'],
  exploration: [(v) => v >= 0 && Number.isFinite(v), 'a finite number ≥ 0'],
  priorPulls: [(v) => v > 0 && Number.isFinite(v), 'a finite number > 0'],
  seed: [Number.isInteger, 'an integer'],
};

/** Checks the options (unknown keys, ranges) and fills in the defaults. */
export function resolvePolicyOptions(opts: PolicyOptions = {}): Readonly<PolicyOptions & typeof DEFAULTS> {
  for (const [key, value] of Object.entries(opts)) {
    const check = CHECKS[key as keyof PolicyOptions];
    if (check === undefined) {
      throw new RdfscoutError(
        'RDFSCOUT_INVALID_ARGUMENT',
        `Unknown bandit option "${key}". Valid options: ${Object.keys(CHECKS).join(', ')}.`,
      );
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !check[0](value)) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Bandit option ${key} must be ${check[1]} (got ${String(value)}).`);
    }
  }
  const defined = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
  return Object.freeze({ ...DEFAULTS, ...defined });
}

/**
 * A new policy by name (`--bandit`), with options resolved and checked once.
 * @throws RdfscoutError RDFSCOUT_INVALID_ARGUMENT for an unknown name (the message lists the valid ones) or a bad option.
 */
export function createPolicy(name: string, opts: PolicyOptions = {}): BanditPolicy {
  const o = resolvePolicyOptions(opts);
  switch (name as PolicyName) {
    case 'round-robin':
      return new RoundRobinPolicy(o.quantum);
    case 'r1':
      return new R1Policy(o.budget, o.arms);
    case 'r2':
      return new R2Policy(o.step);
    case 'r3':
      return new R3Policy(o.initialStep);
    case 'thompson':
      return new ThompsonPolicy(o.seed, o.priorPulls, o.initialStep, o.gamma);
    case 'ducb':
      return new DiscountedUcbPolicy(o.gamma, o.exploration, o.initialStep);
    case 'swucb':
      return new SlidingWindowUcbPolicy(o.window, o.exploration, o.initialStep);
    case 'auto':
      return new AutoPolicy(o.seed, o.priorPulls, opts.initialStep ?? AUTO_INITIAL_STEP, opts.gamma ?? AUTO_GAMMA, o.budget);
    default:
      throw new RdfscoutError(
        'RDFSCOUT_INVALID_ARGUMENT',
        `Unknown bandit policy "${name}". Valid policies: ${POLICY_NAMES.join(', ')}.`,
      );
  }
}
