// **R1Policy**: BeeBot §3 R1, the "trivial" rule — spread ⌊N/K⌉ pulls over every arm, then everything on the best.

import { type ArmRecord, PolicyBase, argmax, effortOf } from '../policy-base.ts';

/**
 * BeeBot §3 R1. Phase 1 ("spread"): every arm gets a share of q = max(1, round(N / K)) pulls, served
 * round-robin (the awake arm with the fewest pulls first). Phase 2 ("exploit"): every pull goes to the arm
 * with the largest total yield.
 *
 * Arms appearing later (ours): K is `arms` when given, else the number of arms seen so far (retired ones
 * included), so q shrinks as arms are discovered during phase 1 and a new arm joins the spread. Phase 1 ends
 * when every live arm has had its share; K is then frozen. An arm discovered in phase 2 is ignored unless the
 * chosen arm retires: the next best live arm by total yield (possibly a new one, with yield 0) takes over.
 *
 * Sleeping arms: in phase 1, if every arm still owed a share is asleep, the pull is a detour to the awake arm
 * with the largest total yield; in phase 2, if the chosen arm is asleep, the detour goes to the best awake arm.
 * Detours change neither the phase nor the chosen arm.
 */
export class R1Policy extends PolicyBase {
  readonly name = 'r1';
  readonly #budget: number;
  readonly #fixedArms: number | undefined;
  #phase: 'spread' | 'exploit' = 'spread';
  /** K as frozen at the end of phase 1. */
  #frozenArms = 0;
  /** The arm phase 2 exploits. */
  #best: string | undefined;

  /**
   * @param budget N, the total pulls the crawl will make.
   * @param arms K when known in advance; else the arms seen so far.
   */
  constructor(budget: number, arms?: number) {
    super();
    this.#budget = budget;
    this.#fixedArms = arms;
  }

  /** The share of each arm in phase 1: ⌊N/K⌉. */
  get share(): number {
    const k = this.#phase === 'exploit' ? this.#frozenArms : (this.#fixedArms ?? this.arms.size);
    return Math.max(1, Math.round(this.#budget / Math.max(1, k)));
  }

  get phase(): 'spread' | 'exploit' {
    return this.#phase;
  }

  protected pick(awake: readonly ArmRecord[]): ArmRecord {
    const byYield = (rec: ArmRecord) => rec.totalReward;
    if (this.#phase === 'spread') {
      const share = this.share;
      const owed = this.liveArms().filter((rec) => effortOf(rec) < share);
      if (owed.length > 0) {
        const awakeOwed = awake.filter((rec) => effortOf(rec) < share);
        if (awakeOwed.length === 0) return argmax(awake, byYield)!;
        const rec = argmax(awakeOwed, (r) => -effortOf(r))!;
        // This pull may complete phase 1: freeze K now, so that an arm discovered later is not spread to.
        if (owed.length === 1 && owed[0] === rec && effortOf(rec) + 1 >= share) this.#endSpread();
        return rec;
      }
      this.#endSpread();
    }
    const current = this.#best === undefined ? undefined : this.arms.get(this.#best);
    if (current === undefined || !current.active) {
      this.#best = argmax(this.liveArms(), byYield)!.arm;
    }
    const best = this.arms.get(this.#best!)!;
    return awake.includes(best) ? best : argmax(awake, byYield)!;
  }

  #endSpread(): void {
    this.#phase = 'exploit';
    this.#frozenArms = this.#fixedArms ?? this.arms.size;
  }

  protected override index(rec: ArmRecord): number {
    return rec.totalReward;
  }

  protected override saveOwn(): unknown {
    return { phase: this.#phase, frozenArms: this.#frozenArms, best: this.#best ?? null };
  }

  protected override loadOwn(own: unknown): void {
    const s = own as { phase: 'spread' | 'exploit'; frozenArms: number; best: string | null };
    this.#phase = s.phase;
    this.#frozenArms = s.frozenArms;
    this.#best = s.best ?? undefined;
  }
}
