// **SlidingWindowUcbPolicy**: sliding-window UCB (Garivier & Moulines 2008) — only the last W rewards count (ours, spec §5).

import { type ArmRecord, argmax, initialPull, PolicyBase } from '../policy-base.ts';

/**
 * Sliding-window UCB: statistics over the last W rewards (all arms together), index
 *
 *   S_W(i)/N_W(i) + c·σ·sqrt(2 ln min(T, W) / N_W(i))
 *
 * with σ the pooled standard deviation of all rewards (`rewardScale`) and c = `exploration` (default 1). An arm
 * absent from the window has an infinite index, so it is tried again once its evidence has slid out.
 * Every arm first gets `initialStep` pulls (default 1). Sleeping arms: the argmax is over awake arms only.
 */
export class SlidingWindowUcbPolicy extends PolicyBase {
  readonly name = 'swucb';
  readonly #window: number;
  readonly #exploration: number;
  readonly #initialStep: number;
  /** The last W rewards, oldest first, as [arm, reward]. */
  #recent: Array<[string, number]> = [];
  /** Position of the oldest entry once the buffer is full (a ring). */
  #head = 0;
  #counts = new Map<string, { n: number; s: number }>();

  constructor(window: number, exploration: number, initialStep: number) {
    super();
    this.#window = window;
    this.#exploration = exploration;
    this.#initialStep = initialStep;
  }

  protected pick(awake: readonly ArmRecord[]): ArmRecord {
    const first = initialPull(awake, this.#initialStep);
    if (first !== undefined) return first;
    return argmax(awake, (rec) => this.#ucb(rec))!;
  }

  protected override observe(rec: ArmRecord, reward: number): void {
    if (this.#recent.length < this.#window) {
      this.#recent.push([rec.arm, reward]);
    } else {
      const [oldArm, oldReward] = this.#recent[this.#head]!;
      const c = this.#counts.get(oldArm)!;
      c.n--;
      c.s -= oldReward;
      if (c.n === 0) this.#counts.delete(oldArm);
      this.#recent[this.#head] = [rec.arm, reward];
      this.#head = (this.#head + 1) % this.#window;
    }
    const c = this.#counts.get(rec.arm) ?? { n: 0, s: 0 };
    c.n++;
    c.s += reward;
    this.#counts.set(rec.arm, c);
  }

  protected override index(rec: ArmRecord): number {
    return this.#ucb(rec);
  }

  #ucb(rec: ArmRecord): number {
    const c = this.#counts.get(rec.arm);
    if (c === undefined) return Number.POSITIVE_INFINITY;
    const horizon = Math.min(this.totalPulls, this.#window);
    const bonus = this.#exploration * this.rewardScale() * Math.sqrt((2 * Math.log(Math.max(Math.E, horizon))) / c.n);
    return Math.max(0, c.s) / c.n + bonus;
  }

  /** The window (W entries: the one part of a policy's saved state that grows with W rather than with the arms). */
  protected override saveOwn(): unknown {
    return { recent: this.#recent.map(([arm, reward]) => [arm, reward]), head: this.#head };
  }

  protected override loadOwn(own: unknown): void {
    const s = own as { recent: Array<[string, number]>; head: number };
    this.#recent = s.recent;
    this.#head = s.head;
    this.#counts = new Map();
    for (const [arm, reward] of this.#recent) {
      const c = this.#counts.get(arm) ?? { n: 0, s: 0 };
      c.n++;
      c.s += reward;
      this.#counts.set(arm, c);
    }
  }
}
