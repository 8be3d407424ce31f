// **Prng**: the one seeded generator of rdfscout (mulberry32), used by the bandit policies, the simulated web and the benches.
import { mulberry32 } from './mulberry32.ts';

/** Hashes a seed and any number of string/number parts into a 32-bit unsigned integer (FNV-1a + avalanche). */
export function hashParts(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = typeof part === 'number' ? `#${part}` : part;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x1f; // part separator, so ('ab','c') ≠ ('a','bc')
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A seeded pseudo-random generator (mulberry32): the same seed always yields the same sequence. Its state is a
 * single unsigned 32-bit integer, so a policy can snapshot it into the crawl state and a restored generator draws
 * exactly the same numbers afterwards.
 */
export class Prng {
  #state: number;

  /** @param seed any finite number; it is truncated to an unsigned 32-bit integer. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A generator seeded from a seed and labels, e.g. `Prng.of(seed, host, 'render', docId)`. */
  static of(...parts: ReadonlyArray<string | number>): Prng {
    return new Prng(hashParts(...parts));
  }

  /** The next number, uniform in [0, 1). */
  next(): number {
    const { state, value } = mulberry32(this.#state);
    this.#state = state;
    return value;
  }

  /** An integer uniform in [0, n). */
  nextInt(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer uniform in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A heavy-tailed positive integer (Pareto-like) with the given minimum and tail exponent, capped at max. */
  pareto(min: number, alpha: number, max: number): number {
    const u = 1 - this.next();
    return Math.min(max, Math.floor(min / u ** (1 / alpha)));
  }

  /** The generator's state, to persist; `new Prng(0).restore(s)` continues the same sequence. */
  get state(): number {
    return this.#state;
  }

  restore(state: number): void {
    this.#state = state >>> 0;
  }
}
