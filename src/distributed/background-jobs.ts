// **BackgroundJobs**: the Redis calls and timers a shared frontier runs in the background, and the first failure among them.

/**
 * Tracks promises that nobody awaits (claims, releases, refreshes, timers' calls): `settled()` waits for all of
 * them and throws the first failure, so that a Redis error surfaces in the crawl instead of being lost.
 */
export class BackgroundJobs {
  readonly #pending = new Set<Promise<unknown>>();
  readonly #timers: NodeJS.Timeout[] = [];
  #failure: unknown = null;

  /** Jobs under way. */
  get size(): number {
    return this.#pending.size;
  }

  /** Tracks `p`; resolves to its value, or to undefined when it failed (the failure is kept for `settled()`). */
  track<T>(p: Promise<T>): Promise<T | undefined> {
    const tracked = p.catch((err) => {
      this.#failure ??= err;
      return undefined;
    });
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
    return tracked;
  }

  /** The first failure of any job so far (null: none). */
  get failure(): unknown {
    return this.#failure;
  }

  /** Runs `fn` every `ms` (tracked; the timer does not keep the process alive) until `stop()`. */
  every(ms: number, fn: () => Promise<unknown>): void {
    const t = setInterval(() => void this.track(fn()), ms);
    t.unref();
    this.#timers.push(t);
  }

  /** Waits until no job is under way; throws the first failure of any. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
    if (this.#failure !== null) throw this.#failure;
  }

  /** Stops the timers and waits for the jobs under way (their failures are not thrown). */
  async stop(): Promise<void> {
    for (const t of this.#timers) clearInterval(t);
    this.#timers.length = 0;
    await Promise.allSettled([...this.#pending]);
  }
}
