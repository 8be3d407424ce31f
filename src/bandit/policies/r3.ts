// **R3Policy**: BeeBot §3 R3 — UCB1 (Auer, Cesa-Bianchi & Fischer 2002) with the article's X_max normalisation.

import { type ArmRecord, PolicyBase, argmax, effortOf, initialPull, meanOf } from '../policy-base.ts';

/**
 * BeeBot §3 R3 with initial step m: m pulls on every arm, then each pull on
 * i* = argmax X̄(i)/X_max + sqrt(2 ln n / t(i)), where n = Σ t(i) and X_max is the largest single-page reward
 * seen so far (X̄/X_max is taken as 0 while X_max = 0).
 *
 * Details (ours): t(i) counts committed pulls (choices as well as rewards, so that fetches in flight count);
 * an arm discovered later gets its m initial pulls first. Sleeping arms need no special care: the argmax is
 * over the awake arms only.
 */
export class R3Policy extends PolicyBase {
  readonly name = 'r3';
  readonly #initialStep: number;

  /** @param initialStep m, the initial pulls per arm (≥ 1). */
  constructor(initialStep: number) {
    super();
    this.#initialStep = initialStep;
  }

  protected pick(awake: readonly ArmRecord[]): ArmRecord {
    const first = initialPull(awake, this.#initialStep);
    if (first !== undefined) return first;
    const n = this.#totalEffort();
    return argmax(awake, (rec) => this.#ucb(rec, n))!;
  }

  protected override index(rec: ArmRecord): number {
    return this.#ucb(rec, this.#totalEffort());
  }

  #ucb(rec: ArmRecord, n: number): number {
    const t = effortOf(rec);
    if (t === 0) return Number.POSITIVE_INFINITY;
    const exploit = this.maxReward > 0 ? meanOf(rec) / this.maxReward : 0;
    return exploit + Math.sqrt((2 * Math.log(Math.max(1, n))) / t);
  }

  #totalEffort(): number {
    let n = 0;
    for (const rec of this.arms.values()) n += effortOf(rec);
    return n;
  }
}
