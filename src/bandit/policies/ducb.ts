// **DiscountedUcbPolicy**: discounted UCB (Garivier & Moulines 2008) for arms whose yield dries up (ours, spec §5).

import { type ArmRecord, argmax, initialPull, PolicyBase } from '../policy-base.ts';

interface Discounted {
  /** Discounted pulls N_γ(i), as of step `at`. */
  n: number;
  /** Discounted reward sum, as of step `at`. */
  s: number;
  at: number;
}

/**
 * Discounted UCB. After T rewards, an arm's statistics weigh the reward of step u by γ^(T−u):
 * N_γ(i) = Σ γ^(T−u)·1{arm i at u}, S_γ(i) likewise with the rewards, n_γ = Σ_i N_γ(i). Index:
 *
 *   S_γ(i)/N_γ(i) + c·σ·sqrt(2 ln max(e, n_γ) / N_γ(i))
 *
 * where σ is the pooled standard deviation of all rewards (`rewardScale`, scale-free, instead of R3's X_max)
 * and c = `exploration` (default 1). Old evidence fades, so an arm that has dried up loses its lead and an arm
 * left alone regains a large bonus and is tried again. γ = 1 gives a plain UCB1 with σ scaling.
 * Every arm first gets `initialStep` pulls (default 1). Sleeping arms: the argmax is over awake arms only.
 */
export class DiscountedUcbPolicy extends PolicyBase {
  readonly name = 'ducb';
  readonly #gamma: number;
  readonly #exploration: number;
  readonly #initialStep: number;
  #disc = new Map<string, Discounted>();

  constructor(gamma: number, exploration: number, initialStep: number) {
    super();
    this.#gamma = gamma;
    this.#exploration = exploration;
    this.#initialStep = initialStep;
  }

  protected pick(awake: readonly ArmRecord[]): ArmRecord {
    const first = initialPull(awake, this.#initialStep);
    if (first !== undefined) return first;
    const total = this.#totalDiscounted();
    return argmax(awake, (rec) => this.#ucb(rec, total))!;
  }

  protected override observe(rec: ArmRecord, reward: number): void {
    const now = this.totalPulls;
    const d = this.#disc.get(rec.arm);
    const fade = d === undefined ? 0 : this.#gamma ** (now - d.at);
    this.#disc.set(rec.arm, {
      n: (d?.n ?? 0) * fade + 1,
      s: (d?.s ?? 0) * fade + reward,
      at: now,
    });
  }

  protected override index(rec: ArmRecord): number {
    return this.#ucb(rec, this.#totalDiscounted());
  }

  #ucb(rec: ArmRecord, total: number): number {
    const d = this.#disc.get(rec.arm);
    if (d === undefined) return Number.POSITIVE_INFINITY;
    const fade = this.#gamma ** (this.totalPulls - d.at);
    const n = d.n * fade;
    if (n <= 0) return Number.POSITIVE_INFINITY;
    const bonus = this.#exploration * this.rewardScale() * Math.sqrt((2 * Math.log(Math.max(Math.E, total))) / n);
    return (d.s * fade) / n + bonus;
  }

  #totalDiscounted(): number {
    let total = 0;
    for (const d of this.#disc.values()) total += d.n * this.#gamma ** (this.totalPulls - d.at);
    return total;
  }

  protected override saveArm(rec: ArmRecord): unknown {
    const d = this.#disc.get(rec.arm);
    return d === undefined ? undefined : { ...d };
  }

  protected override loadArm(rec: ArmRecord, own: unknown): void {
    this.#disc.set(rec.arm, own as Discounted);
  }

  protected override loadOwn(_own: unknown): void {
    this.#disc.clear(); // the arms' entries come with the arms (loadArm, called after this)
  }
}
