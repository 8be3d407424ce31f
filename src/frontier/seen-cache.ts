// **SeenCache**: a worker's memory of URLs known to be in the crawl's shared seen set, so it asks Redis only about the others (issue 15).
import type { SeenSet } from '../redis/seen-set.ts';

/** URLs remembered at most (~100 B each); past it the memory starts afresh. */
const KNOWN_MAX = 50_000;

/** The seen set only grows: a URL once known to be in it stays in it, so a positive answer can be remembered. */
export class SeenCache {
  readonly #seen: SeenSet;
  readonly #known = new Set<string>();

  constructor(seen: SeenSet) {
    this.#seen = seen;
  }

  /** For each URL, whether it is in the seen set; one round trip for those not known (none if all are). */
  async has(urls: readonly string[]): Promise<boolean[]> {
    const ask = urls.filter((url) => !this.#known.has(url));
    const answers = ask.length === 0 ? [] : await this.#seen.has(ask);
    const found = new Set(ask.filter((_, i) => answers[i] === true));
    const out = urls.map((url) => this.#known.has(url) || found.has(url));
    this.learn(found);
    return out;
  }

  /** These URLs are in the seen set (a script added them). */
  learn(urls: Iterable<string>): void {
    const list = [...urls];
    if (this.#known.size + list.length > KNOWN_MAX) this.#known.clear();
    for (const url of list) this.#known.add(url);
  }
}
