// **hash64**: a 64-bit non-cryptographic hash of a string, computed in JavaScript without allocating.
// Shared by the frontier's URL table and a stored document's line fingerprints (MD5 through node:crypto
// cost ~1 µs a line more).

/** The last hash computed: two 32-bit words, high then low, written by {@link hash64}; never both zero. */
export const HASH64 = new Uint32Array(2);

/**
 * Hashes `text`'s UTF-16 code units into {@link HASH64}: two multiplicative lanes (the constants of cyrb53, a
 * public-domain string hash), seeded with the length and mixed into each other at the end so that every input bit
 * reaches both words. (0, 0) is never written — callers may use it to mark an empty slot. Not for inputs crafted to
 * collide: two different strings share a hash with a probability of about 2⁻⁶⁴ otherwise.
 */
export function hash64(text: string): void {
  let h1 = 0xdeadbeef ^ text.length;
  let h2 = 0x41c6ce57 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  HASH64[0] = h1 >>> 0;
  HASH64[1] = h2 >>> 0;
  if (HASH64[0] === 0 && HASH64[1] === 0) HASH64[1] = 1;
}
