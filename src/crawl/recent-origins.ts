// **RecentOrigins**: the last origins that gave an HTTP response, kept by a resume (restore-crawl.ts) and by Redis
// workers (shared-learning.ts) as probe targets for OriginHealth.answeredEarlier.

/** How many origins that answered are remembered (a resume's, and the shared learning log's). */
export const ANSWERED_ORIGINS = 16;

/** The last `max` distinct origins added, most recent last (a normalized URL's origin read from the string). */
export class RecentOrigins {
  readonly #max: number;
  readonly #seen = new Set<string>();

  constructor(max: number) {
    this.#max = max;
  }

  add(url: string): void {
    const hostStart = url.indexOf('//') + 2;
    const end = url.indexOf('/', hostStart);
    this.addOrigins([end < 0 ? url : url.slice(0, end)]);
  }

  /** Adds origins as they are (most recent last). */
  addOrigins(origins: Iterable<string>): void {
    for (const o of origins) {
      this.#seen.delete(o);
      this.#seen.add(o);
      if (this.#seen.size > this.#max) this.#seen.delete(this.#seen.values().next().value as string);
    }
  }

  list(): string[] {
    return [...this.#seen];
  }
}
