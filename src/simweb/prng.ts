// **Rng** is the seeded pseudo-random generator (mulberry32) that makes every simulated web reproducible.
import { mulberry32 } from '../random/mulberry32.ts';

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

/** A small deterministic generator: the same seed always yields the same sequence. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A generator seeded from a seed and labels, e.g. `Rng.of(seed, host, 'render', docId)`. */
  static of(...parts: ReadonlyArray<string | number>): Rng {
    return new Rng(hashParts(...parts));
  }

  /** Uniform float in [0, 1) (mulberry32). */
  next(): number {
    const { state, value } = mulberry32(this.#state);
    this.#state = state;
    return value;
  }

  /** Uniform integer in [lo, hi] (both inclusive). */
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
}
