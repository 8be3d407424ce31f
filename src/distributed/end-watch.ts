// **EndWatch**: asks the shared counters whether a crawl is over, in the background, at most every `everyMs`.
import type { SharedEnd } from '../frontier/types.ts';

/**
 * A worker idle with nothing in flight anywhere (as its mirror knows) polls this each turn of its loop: the first
 * poll starts a reading (one MULTI), a later one returns its verdict. Once over, over: with nothing in flight
 * anywhere no worker adds links (a new worker's seeds come before its loop starts).
 */
export class EndWatch {
  readonly #read: () => Promise<SharedEnd | null>;
  readonly #now: () => number;
  readonly #everyMs: number;
  #end: SharedEnd | null = null;
  #asking = false;
  #askedAt = Number.NEGATIVE_INFINITY;

  constructor(read: () => Promise<SharedEnd | null>, now: () => number, everyMs = 100) {
    this.#read = read;
    this.#now = now;
    this.#everyMs = everyMs;
  }

  /** The verdict known so far (null: not over, or not read yet); starts a reading when due. */
  poll(): SharedEnd | null {
    if (this.#end !== null || this.#asking || this.#now() - this.#askedAt < this.#everyMs) return this.#end;
    this.#asking = true;
    this.#read()
      .then(
        (end) => {
          this.#end = end;
        },
        () => {}, // Redis unreachable: asked again on a later turn
      )
      .finally(() => {
        this.#asking = false;
        this.#askedAt = this.#now();
      });
    return null;
  }
}
