// **SeenTriples** remembers the triples a merge has let through, exactly while few, then as a fixed-size Bloom filter.
import type { Quad } from '@rdfjs/types';
import { termsKey } from './union-dedupe.ts';

/** Triples kept exactly; past it they move into the filter. */
const EXACT = 2048;
/** Bits of the filter: 2 MB, at most, whatever the data (about 1% false positives at 1.7M triples, 10% at 3.5M). */
const BITS = 2 ** 24;
const HASHES = 4;

/**
 * The answer of {@link SeenTriples.has}: `no` is certain (the triple was never added); `yes` is certain too; `maybe`
 * asks the caller to look in the store (a Bloom filter's positive can be false).
 */
export type Seen = 'no' | 'maybe' | 'yes';

/**
 * The triples let through so far, in bounded memory: a set while it holds at most {@link EXACT}, then a Bloom filter of
 * {@link BITS} bits (Kirsch–Mitzenmacher double hashing, two FNV-1a variants). A bound lookup (a subject given) adds a
 * few triples and never allocates the filter; a scan allocates it once.
 */
export class SeenTriples {
  readonly #limit: number;
  readonly #size: number;
  #exact: Set<string> | null = new Set();
  #bits: Uint32Array | null = null;

  /** `exact`: triples kept exactly (default {@link EXACT}); `bits`: the filter's size, a power of two ≥ 32 (default {@link BITS}). */
  constructor(opts: { exact?: number; bits?: number } = {}) {
    this.#limit = opts.exact ?? EXACT;
    this.#size = opts.bits ?? BITS;
    if (!(this.#size >= 32 && (this.#size & (this.#size - 1)) === 0)) throw new RangeError(`bits must be a power of two ≥ 32, got ${this.#size}`);
  }

  add(q: Quad): void {
    const key = tripleKey(q);
    if (this.#exact !== null) {
      this.#exact.add(key);
      if (this.#exact.size <= this.#limit) return;
      this.#bits = new Uint32Array(this.#size / 32);
      for (const k of this.#exact) this.#set(k);
      this.#exact = null;
      return;
    }
    this.#set(key);
  }

  has(q: Quad): Seen {
    const key = tripleKey(q);
    if (this.#exact !== null) return this.#exact.has(key) ? 'yes' : 'no';
    const bits = this.#bits as Uint32Array;
    const [h1, h2] = hashes(key);
    for (let i = 0; i < HASHES; i++) {
      const b = (h1 + Math.imul(i, h2)) & (this.#size - 1);
      if (((bits[b >>> 5] as number) & (1 << (b & 31))) === 0) return 'no';
    }
    return 'maybe';
  }

  #set(key: string): void {
    const bits = this.#bits as Uint32Array;
    const [h1, h2] = hashes(key);
    for (let i = 0; i < HASHES; i++) {
      const b = (h1 + Math.imul(i, h2)) & (this.#size - 1);
      bits[b >>> 5] = (bits[b >>> 5] as number) | (1 << (b & 31));
    }
  }
}

function tripleKey(q: Quad): string {
  return termsKey([q.subject, q.predicate, q.object]);
}

/** Two 32-bit FNV-1a hashes of `key` with different offset bases; the second made odd so its multiples cover the bits. */
function hashes(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return [a >>> 0, (b | 1) >>> 0];
}
