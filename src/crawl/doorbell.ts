// **Doorbell**: the crawl loop's single wait for "a fetch ended" (one promise per wait, none per fetch in flight).
/**
 * What the run loop waits on for "a fetch ended". `Promise.race` over every fetch in flight added a reaction to each
 * of them on every turn of the loop (concurrency × turns closures per fetch); this is one promise per wait. A ring
 * with nobody waiting is kept, so the next wait returns at once (an extra turn of the loop, never a lost wake-up).
 */
export class Doorbell {
  #resolve: (() => void) | null = null;
  #waiting: Promise<void> | null = null;
  #rung = false;

  /** Wakes the current wait, or the next one if nobody waits. */
  ring(): void {
    const resolve = this.#resolve;
    if (resolve === null) {
      this.#rung = true;
      return;
    }
    this.#resolve = null;
    this.#waiting = null;
    resolve();
  }

  /** Resolves at the next ring (at once if one came since the last wait). */
  next(): Promise<void> {
    if (this.#rung) {
      this.#rung = false;
      return Promise.resolve();
    }
    this.#waiting ??= new Promise<void>((resolve) => {
      this.#resolve = resolve;
    });
    return this.#waiting;
  }
}
