// **ReadySet**: which PLDs may be served now, kept up to date by events instead of a scan of every PLD per pick.

/**
 * The PLDs a crawl may serve now, and when the others wake up. Pure bookkeeping: the caller says, whenever
 * something about a PLD changed (a fetch started or ended, work was queued, a back-off began), when that PLD may
 * next be served (`place`); time moves PLDs from asleep to ready (`wake`). A pick then looks only at ready PLDs,
 * and the crawl sleeps until `nextWake()`: the cost of a pick no longer grows with the number of PLDs that are
 * waiting out a politeness delay or a retry back-off (profiled at 1,000 PLDs: scans took half the CPU).
 */
export class ReadySet {
  readonly #ready = new Set<string>();
  /** Wake time of each sleeping PLD; the heap may hold stale pairs, recognised by a differing time here. */
  readonly #sleepUntil = new Map<string, number>();
  readonly #heap: Array<{ at: number; pld: string }> = [];

  /**
   * Places a PLD: ready when `at ≤ now`, asleep until `at` when later, out of the game when `at` is Infinity or
   * null (nothing to serve, budget spent, host busy: only a new `place` brings it back).
   */
  place(pld: string, at: number | null, now: number): void {
    if (at !== null && at <= now) {
      this.#sleepUntil.delete(pld);
      this.#ready.add(pld);
      return;
    }
    this.#ready.delete(pld);
    if (at === null || !Number.isFinite(at)) {
      this.#sleepUntil.delete(pld);
      return;
    }
    if (this.#sleepUntil.get(pld) === at) return;
    this.#sleepUntil.set(pld, at);
    this.#push({ at, pld });
  }

  /** Moves the PLDs whose wake time has come to the ready set, and returns the ready set (insertion order). */
  wake(now: number): ReadonlySet<string> {
    for (;;) {
      const top = this.#heap[0];
      if (top === undefined || top.at > now) break;
      this.#pop();
      if (this.#sleepUntil.get(top.pld) !== top.at) continue; // stale
      this.#sleepUntil.delete(top.pld);
      this.#ready.add(top.pld);
    }
    return this.#ready;
  }

  /** The earliest wake time of a sleeping PLD, or null when none sleeps. */
  nextWake(): number | null {
    while (this.#heap.length > 0) {
      const top = this.#heap[0] as { at: number; pld: string };
      if (this.#sleepUntil.get(top.pld) === top.at) return top.at;
      this.#pop(); // stale
    }
    return null;
  }

  /** Ready PLDs (as of the last `wake`). */
  get readyCount(): number {
    return this.#ready.size;
  }

  /** Sleeping PLDs. */
  get sleepingCount(): number {
    return this.#sleepUntil.size;
  }

  #push(item: { at: number; pld: string }): void {
    const h = this.#heap;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((h[parent] as { at: number }).at <= item.at) break;
      h[i] = h[parent] as { at: number; pld: string };
      i = parent;
    }
    h[i] = item;
  }

  #pop(): void {
    const h = this.#heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && (h[r] as { at: number }).at < (h[l] as { at: number }).at ? r : l;
      if ((h[c] as { at: number }).at >= last.at) break;
      h[i] = h[c] as { at: number; pld: string };
      i = c;
    }
    h[i] = last;
  }
}
