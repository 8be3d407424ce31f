// **R2Policy**: BeeBot §3 R2 — batched greedy by mean (the article calls it a Gittins index; it is not one).

import { type ArmRecord, PolicyBase, argmax, effortOf, initialPull, meanOf } from '../policy-base.ts';

/**
 * BeeBot §3 R2 with step n: n pulls on every arm, then repeatedly n more pulls on i* = argmax Ind(i), where
 * Ind(i) = s(i)/t(i) is the arm's mean yield. Ties go to the earliest-discovered arm.
 *
 * Reproduced faithfully, weakness included: an arm whose first n pulls paid nothing has Ind = 0 and is never
 * pulled again while another arm has Ind > 0.
 *
 * Details (ours): the initial n pulls are interleaved across arms (the awake arm with the fewest pulls first),
 * which yields the same sums as crawling them site by site and is kinder to politeness. An arm discovered
 * later gets its n initial pulls as soon as it is awake, before batches continue. i* is taken among the live
 * arms that have had their n initial pulls, when the previous batch is over or its arm retired.
 *
 * Sleeping arms: if the batch's arm is asleep, the pull is a detour to the awake arm with the largest Ind;
 * the batch keeps its arm and its remaining pulls, and the detour's reward updates that arm's s and t as any
 * pull does.
 */
export class R2Policy extends PolicyBase {
  readonly name = 'r2';
  readonly #step: number;
  #batchArm: string | undefined;
  #batchLeft = 0;

  /** @param step n, the batch size (≥ 1). */
  constructor(step: number) {
    super();
    this.#step = step;
  }

  protected pick(awake: readonly ArmRecord[]): ArmRecord {
    const n = this.#step;
    const first = initialPull(awake, n);
    if (first !== undefined) return first;

    let batch = this.#batchArm === undefined ? undefined : this.arms.get(this.#batchArm);
    if (batch === undefined || !batch.active || this.#batchLeft <= 0) {
      const live = this.liveArms();
      const ready = live.filter((rec) => effortOf(rec) >= n);
      batch = argmax(ready.length > 0 ? ready : live, meanOf)!;
      this.#batchArm = batch.arm;
      this.#batchLeft = n;
    }
    if (awake.includes(batch)) {
      this.#batchLeft--;
      return batch;
    }
    return argmax(awake, meanOf)!;
  }

  protected override index(rec: ArmRecord): number {
    return meanOf(rec);
  }

  protected override saveOwn(): unknown {
    return { batchArm: this.#batchArm ?? null, batchLeft: this.#batchLeft };
  }

  protected override loadOwn(own: unknown): void {
    const s = own as { batchArm: string | null; batchLeft: number };
    this.#batchArm = s.batchArm ?? undefined;
    this.#batchLeft = s.batchLeft;
  }
}
