// **FingerprintSet** remembers which lines a document has stated, as 64-bit fingerprints in one typed array.
import { HASH64, hash64 } from '../hash/hash64.ts';
/** Slots of a new set (a power of two); it doubles whenever it is half full. */
const INITIAL_SLOTS = 1024;

/**
 * A set of strings kept as 64-bit fingerprints in an open-addressing table outside the V8 heap: 16 to 32 bytes a
 * line, where a `Set` of MD5 strings took ~70 bytes of heap a line (3.4 MB for a 1.5 MB Turtle file, all of it
 * promoted to the old generation). The fingerprint is a non-cryptographic 64-bit hash computed in
 * JavaScript (`src/hash/hash64.ts`): MD5 through node:crypto cost ~1 µs a line more (0.85 of the 2.2 CPU s of storing
 * bench:store's 3,000 documents went to it). Two different lines are taken as the same with a probability
 * of about n²/2⁶⁵ (3·10⁻⁷ for a document of ten million lines) for lines that were not crafted to collide; a
 * document crafted so can at worst lose some of its own triples.
 */
export class FingerprintSet {
  /** Pairs of 32-bit words (high, low) per slot; a slot of two zero words is empty (a zero fingerprint is stored as 1). */
  #slots = new Uint32Array(INITIAL_SLOTS * 2);
  #size = 0;

  /** Lines added (distinct fingerprints). */
  get size(): number {
    return this.#size;
  }

  /** Adds `line`; returns false when it was in the set already. */
  add(line: string): boolean {
    hash64(line);
    const hi = HASH64[0]!;
    const lo = HASH64[1]!;
    if (!this.#insert(hi, lo)) return false;
    this.#size++;
    if (this.#size * 2 >= this.#slots.length / 2) this.#grow();
    return true;
  }

  /** Inserts a fingerprint; false when present. Linear probing from the slot its low word picks. */
  #insert(hi: number, lo: number): boolean {
    const slots = this.#slots;
    const mask = slots.length / 2 - 1;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      const h = slots[2 * i]!;
      const l = slots[2 * i + 1]!;
      if (h === 0 && l === 0) {
        slots[2 * i] = hi;
        slots[2 * i + 1] = lo;
        return true;
      }
      if (h === hi && l === lo) return false;
    }
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] !== 0 || old[i + 1] !== 0) this.#insert(old[i]!, old[i + 1]!);
    }
  }

  /** Forgets every line. */
  clear(): void {
    this.#slots = new Uint32Array(INITIAL_SLOTS * 2);
    this.#size = 0;
  }
}
