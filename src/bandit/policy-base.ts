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

/** An arm as saved: its record and the policy's own state for it (`saveArm`), if any. */
export interface SavedArm extends ArmRecord {
  own?: unknown;
}

/** The JSON shape of every policy's snapshot. */
export interface PolicySnapshot {
  policy: string;
  version: 2;
  arms: SavedArm[];
  totalPulls: number;
  totalReward: number;
  /** Sum of squared rewards, for the pooled variance some policies use. */
  totalSquares: number;
  maxReward: number;
  /** The policy's own state (batch in progress, generator state, window, …). */
  own: unknown;
}

/** A snapshot without its arms: what `changes()` saves on every call. */
export type PolicyHead = Omit<PolicySnapshot, 'arms'>;

/**
 * What changed since the previous `changes()` call: the head (small, always) and only the arms touched since.
 * A crawl saves this with every fetch, so saving costs O(arms touched), not O(arms) (profiled: the
 * full snapshot of 169 arms was 29% of a crawl's CPU). `joinSnapshot` puts the saved parts back together.
 */
export interface PolicyChanges {
  head: PolicyHead;
  arms: SavedArm[];
}

/** The snapshot made of a saved head and every saved arm (in any order). */
export function joinSnapshot(head: unknown, arms: readonly unknown[]): unknown {
  if (head === null || typeof head !== 'object') return head;
  return { ...head, arms: [...(arms as SavedArm[])].sort((a, b) => a.order - b.order) };
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
 * The initial step every index rule starts with (BeeBot §3: R2's n, R3's m; our `ducb`, `swucb`, `thompson`):
 * while an awake arm has fewer than `step` committed pulls, the pull goes to the awake arm with the fewest
 * (ties: the earliest discovered), so the initial pulls are interleaved across arms. Undefined once every awake
 * arm has had its `step` pulls: the rule's own index decides.
 */
export function initialPull(awake: readonly ArmRecord[], step: number): ArmRecord | undefined {
  const fresh = awake.filter((rec) => effortOf(rec) < step);
  return fresh.length > 0 ? argmax(fresh, (rec) => -effortOf(rec)) : undefined;
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
  /** Arms touched since the last `changes()`. */
  #dirty = new Set<ArmRecord>();

  choose(candidates: readonly string[]): string {
    if (candidates.length === 0) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `${this.name}: choose() needs at least one candidate arm`);
    }
    const seen = new Set<ArmRecord>();
    for (const arm of candidates) {
      const rec = this.#see(arm);
      if (!rec.active) {
        rec.active = true; // an arm that has work again comes back with its statistics
        this.#dirty.add(rec);
      }
      seen.add(rec);
    }
    const awake = [...seen].sort((a, b) => a.order - b.order);
    const rec = this.pick(awake);
    rec.chosen++;
    this.#dirty.add(rec);
    return rec.arm;
  }

  update(arm: string, reward: number): void {
    if (!Number.isFinite(reward) || reward < 0) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `${this.name}: a reward must be a finite number ≥ 0 (got ${reward} for ${arm})`);
    }
    const rec = this.#see(arm);
    this.#dirty.add(rec);
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
    this.#dirty.add(rec);
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
    return { ...this.#head(), arms: [...this.arms.values()].map((rec) => this.#saved(rec)) };
  }

  changes(): PolicyChanges {
    const arms = [...this.#dirty].map((rec) => this.#saved(rec));
    this.#dirty.clear();
    return { head: this.#head(), arms };
  }

  /** Copies: values are encoded when the write commits, after later choices may have changed the records. */
  #head(): PolicyHead {
    return {
      policy: this.name,
      version: 2,
      totalPulls: this.totalPulls,
      totalReward: this.totalReward,
      totalSquares: this.totalSquares,
      maxReward: this.maxReward,
      own: this.saveOwn(),
    };
  }

  #saved(rec: ArmRecord): SavedArm {
    const own = this.saveArm(rec);
    return own === undefined ? { ...rec } : { ...rec, own };
  }

  restore(state: unknown): void {
    const snap = state as Partial<PolicySnapshot> | null;
    if (snap === null || typeof snap !== 'object' || snap.version !== 2 || !Array.isArray(snap.arms)) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `${this.name}: not a bandit policy snapshot (version 2)`);
    }
    if (snap.policy !== this.name) {
      throw new RdfscoutError(
        'RDFSCOUT_RESUME_CONFLICT',
        `The saved bandit state belongs to policy "${snap.policy}", not "${this.name}". Resume with --bandit ${snap.policy}.`,
      );
    }
    this.totalPulls = snap.totalPulls ?? 0;
    this.totalReward = snap.totalReward ?? 0;
    this.totalSquares = snap.totalSquares ?? 0;
    this.maxReward = snap.maxReward ?? 0;
    this.loadOwn(structuredClone(snap.own));
    this.arms.clear();
    this.#dirty.clear();
    for (const { own, ...rec } of [...snap.arms].sort((a, b) => a.order - b.order)) {
      this.arms.set(rec.arm, rec);
      if (own !== undefined) this.loadArm(rec, structuredClone(own));
    }
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

  /** The policy's own JSON-safe state, as a fresh value (it is saved later; the policy must not mutate it). */
  protected saveOwn(): unknown {
    return null;
  }

  protected loadOwn(_own: unknown): void {}

  /**
   * The policy's own JSON-safe state for one arm, as a fresh value (undefined: none). It may change only in
   * `observe` for that arm, so that `changes()` (which saves the arms touched) never misses it.
   */
  protected saveArm(_rec: ArmRecord): unknown {
    return undefined;
  }

  protected loadArm(_rec: ArmRecord, _own: unknown): void {}

  #see(arm: string): ArmRecord {
    let rec = this.arms.get(arm);
    if (rec === undefined) {
      rec = { arm, order: this.arms.size, pulls: 0, chosen: 0, totalReward: 0, active: true };
      this.arms.set(arm, rec);
      this.#dirty.add(rec);
    }
    return rec;
  }
}
