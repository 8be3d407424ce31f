// **RoundRobinPolicy**: BeeBot's time quanta — every arm gets `quantum` pulls in turn (BeeBot §2, §3 last rule).

import { type ArmRecord, PolicyBase } from '../policy-base.ts';

/**
 * Round-robin over the arms in discovery order; each turn is `quantum` pulls. New arms join the end of the ring.
 *
 * Sleeping arms: when the arm whose turn it is is asleep, the pull goes to the next awake arm in ring order
 * (a detour). The detour neither moves the ring nor spends anyone's quantum, so the sleeping arm keeps the
 * rest of its turn and gets it as soon as it is awake again.
 */
export class RoundRobinPolicy extends PolicyBase {
  readonly name = 'round-robin';
  readonly #quantum: number;
  /** Discovery rank of the arm whose turn it is (or the first arm after it, if that one left). */
  #turn = 0;
  /** Pulls of the current turn already served. */
  #used = 0;

  /** @param quantum pulls per turn, ≥ 1. */
  constructor(quantum: number) {
    super();
    this.#quantum = quantum;
  }

  protected pick(awake: readonly ArmRecord[]): ArmRecord {
    const ring = this.liveArms();
    const start = ring.findIndex((rec) => rec.order >= this.#turn);
    const at = start === -1 ? 0 : start;
    const current = ring[at]!; // awake arms are live, so the ring is not empty
    if (current.order !== this.#turn) {
      this.#turn = current.order;
      this.#used = 0;
    }
    if (awake.includes(current)) {
      this.#used++;
      if (this.#used >= this.#quantum) {
        this.#turn = current.order + 1;
        this.#used = 0;
      }
      return current;
    }
    for (let k = 1; k < ring.length; k++) {
      const rec = ring[(at + k) % ring.length]!;
      if (awake.includes(rec)) return rec;
    }
    return awake[0]!;
  }

  protected override saveOwn(): unknown {
    return { turn: this.#turn, used: this.#used };
  }

  protected override loadOwn(own: unknown): void {
    const s = own as { turn: number; used: number };
    this.#turn = s.turn;
    this.#used = s.used;
  }
}
