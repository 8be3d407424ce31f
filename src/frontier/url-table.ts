// **UrlTable** remembers every URL the frontier has seen in ~17 bytes per slot: a 64-bit hash, a state, a priority.
import { HASH64, hash64 } from '../hash/hash64.ts';

/** What the frontier knows of a URL. `reserved`: staged in a transaction not committed yet. */
export const URL_STATE = { absent: 0, reserved: 1, queued: 2, done: 3 } as const;
export type UrlState = (typeof URL_STATE)[keyof typeof URL_STATE];

/**
 * An open-addressing hash set of URL hashes (linear probing, no deletion: the seen set only grows) with a state
 * and a priority per URL, in typed arrays: 1M URLs take ~36 MB and no per-URL JS object. Two URLs with the same
 * 64-bit hash are one URL here (odds ~3·10⁻⁸ at 1M URLs); the `seen` sublevel stays the truth for `has()`.
 */
export class UrlTable {
  #mask: number;
  #hi: Uint32Array;
  #lo: Uint32Array;
  #state: Uint8Array;
  #prio: Float64Array;
  #count = 0;

  constructor(initialCapacity = 1 << 16) {
    let cap = 1024;
    while (cap < initialCapacity) cap *= 2;
    this.#mask = cap - 1;
    this.#hi = new Uint32Array(cap);
    this.#lo = new Uint32Array(cap);
    this.#state = new Uint8Array(cap);
    this.#prio = new Float64Array(cap);
  }

  get size(): number {
    return this.#count;
  }

  /** Bytes held by the arrays. */
  get bytes(): number {
    return (this.#mask + 1) * 17;
  }

  /** State of `url` (`URL_STATE.absent` when never set). */
  state(url: string): UrlState {
    const slot = this.#find(url);
    return (slot < 0 ? 0 : this.#state[slot]) as UrlState;
  }

  /** Priority recorded with `url` (NaN when absent). */
  priority(url: string): number {
    const slot = this.#find(url);
    return slot < 0 ? Number.NaN : (this.#prio[slot] as number);
  }

  /** Sets the state and priority of `url`, adding it when absent. */
  set(url: string, state: UrlState, priority: number): void {
    if ((this.#count + 1) * 10 > (this.#mask + 1) * 7) this.#grow();
    hash64(url);
    const h1 = HASH64[0]!;
    const h2 = HASH64[1]!;
    let i = h2 & this.#mask;
    for (;;) {
      const hi = this.#hi[i] as number;
      const lo = this.#lo[i] as number;
      if (hi === 0 && lo === 0) {
        this.#hi[i] = h1;
        this.#lo[i] = h2;
        this.#count++;
        break;
      }
      if (hi === h1 && lo === h2) break;
      i = (i + 1) & this.#mask;
    }
    this.#state[i] = state;
    this.#prio[i] = priority;
  }

  #find(url: string): number {
    hash64(url);
    const h1 = HASH64[0]!;
    const h2 = HASH64[1]!;
    let i = h2 & this.#mask;
    for (;;) {
      const hi = this.#hi[i] as number;
      const lo = this.#lo[i] as number;
      if (hi === h1 && lo === h2) return i;
      if (hi === 0 && lo === 0) return -1;
      i = (i + 1) & this.#mask;
    }
  }

  #grow(): void {
    const { hi: oldHi, lo: oldLo, state: oldState, prio: oldPrio } = { hi: this.#hi, lo: this.#lo, state: this.#state, prio: this.#prio };
    const cap = (this.#mask + 1) * 2;
    this.#mask = cap - 1;
    this.#hi = new Uint32Array(cap);
    this.#lo = new Uint32Array(cap);
    this.#state = new Uint8Array(cap);
    this.#prio = new Float64Array(cap);
    for (let j = 0; j < oldHi.length; j++) {
      const hi = oldHi[j] as number;
      const lo = oldLo[j] as number;
      if (hi === 0 && lo === 0) continue;
      let i = lo & this.#mask;
      while ((this.#hi[i] as number) !== 0 || (this.#lo[i] as number) !== 0) i = (i + 1) & this.#mask;
      this.#hi[i] = hi;
      this.#lo[i] = lo;
      this.#state[i] = oldState[j] as number;
      this.#prio[i] = oldPrio[j] as number;
    }
  }
}
