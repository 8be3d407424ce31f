// **PolicyBase**: the bookkeeping every bandit policy shares (arms, pulls, rewards, retirement, snapshots).

import { RdfscoutError } from '../errors.ts';
import type { ArmStats, BanditPolicy } from './types.ts';

/** What a policy knows about one arm (a PLD). Plain data, so that it goes into a snapshot as is. */
export interface ArmRecord {
  arm: string;
  /** Discovery rank: arms are ordered, and ties broken, by when the policy first saw them. */
  order: number;
  /** Rewards received (`update` calls). */
  pulls: number;
  /** Times `choose` returned this arm. Equals `pulls` when the crawl waits for each reward; ahead of it while fetches are in flight. */
  chosen: number;
  totalReward: number;
  /** Still in the game; `retire` clears it, and the arm's reappearing among the candidates sets it again. */
  active: boolean;
}

/** The JSON shape of every policy's snapshot. */
export interface PolicySnapshot {
  policy: string;
  version: 1;
  arms: ArmRecord[];
  totalPulls: number;
  totalReward: number;
  /** Sum of squared rewards, for the pooled variance some policies use. */
  totalSquares: number;
  maxReward: number;
  /** The policy's own state (batch in progress, generator state, window, …). */
  own: unknown;
}

/**
 * The pulls committed to an arm: the larger of rewards received and choices made, so that batch and
 * initial-step rules neither repeat nor skip pulls while fetches are in flight.
 */
export function effortOf(rec: ArmRecord): number {
  return Math.max(rec.pulls, rec.chosen);
}

/** The arm's empirical mean reward (0 before its first reward). */
export function meanOf(rec: ArmRecord): number {
  return rec.pulls > 0 ? rec.totalReward / rec.pulls : 0;
}

/** The record with the largest score; ties go to the earliest-discovered arm (`recs` is in discovery order). */
export function argmax(recs: readonly ArmRecord[], score: (rec: ArmRecord) => number): ArmRecord | undefined {
  let best: ArmRecord | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const rec of recs) {
    const s = score(rec);
    if (best === undefined || s > bestScore) {
      best = rec;
      bestScore = s;
    }
  }
  return best;
}

/**
 * Base class of the policies. Subclasses implement `pick` (the rule) and may hook `observe`, `onRetire`,
 * `index`, `saveOwn` and `loadOwn`. `pick` receives the awake candidates as records, in discovery order,
 * and must return one of them.
 */
export abstract class PolicyBase implements BanditPolicy {
  abstract readonly name: string;
  protected readonly arms = new Map<string, ArmRecord>();
  protected totalPulls = 0;
  protected totalReward = 0;
  protected totalSquares = 0;
  /** The largest single reward seen so far (X_max of BeeBot §3 R3). */
  protected maxReward = 0;

  choose(candidates: readonly string[]): string {
    if (candidates.length === 0) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `${this.name}: choose() needs at least one candidate arm`);
    }
    const seen = new Set<ArmRecord>();
    for (const arm of candidates) {
      const rec = this.#see(arm);
      rec.active = true; // an arm that has work again comes back with its statistics
      seen.add(rec);
    }
    const awake = [...seen].sort((a, b) => a.order - b.order);
    const rec = this.pick(awake);
    rec.chosen++;
    return rec.arm;
  }

  update(arm: string, reward: number): void {
    if (!Number.isFinite(reward) || reward < 0) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `${this.name}: a reward must be a finite number ≥ 0 (got ${reward} for ${arm})`);
    }
    const rec = this.#see(arm);
    rec.pulls++;
    rec.totalReward += reward;
    this.totalPulls++;
    this.totalReward += reward;
    this.totalSquares += reward * reward;
    if (reward > this.maxReward) this.maxReward = reward;
    this.observe(rec, reward);
  }

  retire(arm: string): void {
    const rec = this.arms.get(arm);
    if (rec === undefined || !rec.active) return;
    rec.active = false;
    this.onRetire(rec);
  }

  stats(): ArmStats[] {
    return [...this.arms.values()].map((rec) => ({
      arm: rec.arm,
      pulls: rec.pulls,
      totalReward: rec.totalReward,
      meanReward: meanOf(rec),
      index: this.index(rec),
      retired: !rec.active,
    }));
  }

  snapshot(): PolicySnapshot {
    return structuredClone({
      policy: this.name,
      version: 1,
      arms: [...this.arms.values()],
      totalPulls: this.totalPulls,
      totalReward: this.totalReward,
      totalSquares: this.totalSquares,
      maxReward: this.maxReward,
      own: this.saveOwn(),
    });
  }

  restore(state: unknown): void {
    const snap = state as Partial<PolicySnapshot> | null;
    if (snap === null || typeof snap !== 'object' || snap.version !== 1 || !Array.isArray(snap.arms)) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `${this.name}: not a bandit policy snapshot (version 1)`);
    }
    if (snap.policy !== this.name) {
      throw new RdfscoutError(
        'RDFSCOUT_RESUME_CONFLICT',
        `The saved bandit state belongs to policy "${snap.policy}", not "${this.name}". Resume with --bandit ${snap.policy}.`,
      );
    }
    this.arms.clear();
    for (const rec of snap.arms) this.arms.set(rec.arm, { ...rec });
    this.totalPulls = snap.totalPulls ?? 0;
    this.totalReward = snap.totalReward ?? 0;
    this.totalSquares = snap.totalSquares ?? 0;
    this.maxReward = snap.maxReward ?? 0;
    this.loadOwn(structuredClone(snap.own));
  }

  /** The active arms, in discovery order. */
  protected liveArms(): ArmRecord[] {
    return [...this.arms.values()].filter((rec) => rec.active);
  }

  /** Pooled variance of all rewards received so far (0 before two rewards). */
  protected pooledVariance(): number {
    if (this.totalPulls < 2) return 0;
    const mean = this.totalReward / this.totalPulls;
    return Math.max(0, (this.totalSquares - this.totalPulls * mean * mean) / (this.totalPulls - 1));
  }

  /**
   * The scale of rewards for our UCB variants: the pooled standard deviation of all rewards, floored at 1e-9 so
   * that, while every reward is equal, exploration still breaks ties (toward the least-pulled arm).
   * Scale-free, unlike X_max: one page with hundreds of links does not flatten every mean to 0 (R3's weakness
   * on RAS-like sets).
   */
  protected rewardScale(): number {
    return Math.max(Math.sqrt(this.pooledVariance()), 1e-9);
  }

  /** The rule: one of `awake` (non-empty, in discovery order). */
  protected abstract pick(awake: readonly ArmRecord[]): ArmRecord;

  /** The policy's index for `stats()`; NaN when the rule has none. */
  protected index(_rec: ArmRecord): number {
    return Number.NaN;
  }

  /** Called after the base bookkeeping of `update`. */
  protected observe(_rec: ArmRecord, _reward: number): void {}

  /** Called when an active arm retires. */
  protected onRetire(_rec: ArmRecord): void {}

  /** The policy's own JSON-safe state. */
  protected saveOwn(): unknown {
    return null;
  }

  protected loadOwn(_own: unknown): void {}

  #see(arm: string): ArmRecord {
    let rec = this.arms.get(arm);
    if (rec === undefined) {
      rec = { arm, order: this.arms.size, pulls: 0, chosen: 0, totalReward: 0, active: true };
      this.arms.set(arm, rec);
    }
    return rec;
  }
}
