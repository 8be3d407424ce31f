// **URL fingerprints**: 64 bits of SHA-256 per URL, split into a bucket (a small Redis set) and the rest (its member): the shared seen set.
import { hash } from 'node:crypto';

/**
 * Average members per bucket that `bucketBitsFor` aims at: under Redis's `set-max-intset-entries` (512, in the
 * compiled defaults and in Debian's redis.conf) with room for a crawl twice as large as expected.
 */
const TARGET_BUCKET_FILL = 200;

/** The first 64 bits of SHA-256 of the URL's UTF-8 bytes (the URL as given: normalise it first). */
export function urlFingerprint(url: string): bigint {
  return hash('sha256', url, 'buffer').readBigUInt64BE(0);
}

/**
 * Bucket bits for a crawl expected to see `expectedUrls` URLs: enough buckets that each holds about
 * `TARGET_BUCKET_FILL` fingerprints, so every bucket stays a compact intset (8 B a member). A crawl that grows to
 * more than twice its expected size still works; a bucket that passes 512 members turns into a hash table
 * (several times the memory).
 */
export function bucketBitsFor(expectedUrls: number): number {
  if (!(expectedUrls >= 1)) return 0;
  return Math.min(32, Math.max(0, Math.ceil(Math.log2(expectedUrls / TARGET_BUCKET_FILL))));
}

/**
 * Splits a fingerprint: its top `bucketBits` bits name the bucket (lower-case hex), the other 64 − bucketBits bits
 * are the member, as a decimal integer, so that Redis stores the bucket as an intset (a sorted array of 16-, 32- or
 * 64-bit integers, no per-member overhead). Together they keep all 64 bits: over a crawl of n URLs the expected
 * number of new URLs taken for seen is ≈ n²/2⁶⁵ (3·10⁻⁴ at 100 million).
 */
export function splitFingerprint(fp: bigint, bucketBits: number): { bucket: string; member: string } {
  const restBits = BigInt(64 - bucketBits);
  const bucket = bucketBits === 0 ? '0' : (fp >> restBits).toString(16);
  return { bucket, member: (fp & ((1n << restBits) - 1n)).toString() };
}
