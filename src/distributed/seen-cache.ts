// **SeenCache**: a worker's memory of URLs known to be in the crawl's shared seen set, so it asks Redis only about the others.
import type { SeenSet } from './redis/seen-set.ts';

/** URLs remembered at most (~100 B each), over two generations: past half of it, the older half is forgotten. */
const KNOWN_MAX = 100_000;

/**
 * The seen set only grows: a URL once known to be in it stays in it, so a positive answer can be remembered. What a
 * worker learns: its links once a release queued them, the entries it claimed, the positives of `has`. Memory is
 * bounded by two generations of URLs (the newer one fills, then replaces the older one): a URL met again is
 * usually in one of them, where one set cleared when full would forget all at once.
 */
export class SeenCache {
  readonly #seen: SeenSet;
  #older = new Set<string>();
  #newer = new Set<string>();

  constructor(seen: SeenSet) {
    this.#seen = seen;
  }

  /** For each URL, whether it is in the seen set; one round trip for those not known (none if all are). */
  async has(urls: readonly string[]): Promise<boolean[]> {
    const ask = urls.filter((url) => !this.#knows(url));
    const answers = ask.length === 0 ? [] : await this.#seen.has(ask);
    const found = new Set(ask.filter((_, i) => answers[i] === true));
    const out = urls.map((url) => this.#knows(url) || found.has(url));
    this.learn(found);
    return out;
  }

  /** For each URL, whether this worker knows it is in the seen set (Redis is not asked: false may be out of date). */
  known(urls: readonly string[]): boolean[] {
    return urls.map((url) => this.#knows(url));
  }

  /** These URLs are in the seen set (a script added them). */
  learn(urls: Iterable<string>): void {
    for (const url of urls) {
      if (this.#newer.has(url)) continue;
      if (this.#newer.size >= KNOWN_MAX / 2) {
        this.#older = this.#newer;
        this.#newer = new Set();
      }
      this.#newer.add(url);
    }
  }

  #knows(url: string): boolean {
    return this.#newer.has(url) || this.#older.has(url);
  }
}
