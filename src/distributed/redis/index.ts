// Public face of the Redis groundwork (issue 15): connection, PLD leases with learned counts, the shared seen set.
export { connectRedis, type RedisConnectOptions } from './connect.ts';
export { bucketBitsFor, splitFingerprint, urlFingerprint } from './fingerprint.ts';
export { type CrawlKeys, crawlKeys } from './keys.ts';
export { type CountIncrement, readCounts } from './learned-counts.ts';
export {
  type AcquireResult,
  PldLeases,
  type PldLeasesOptions,
  type ReclaimedLease,
  type ReleaseInfo,
  type ReleaseResult,
} from './pld-leases.ts';
export { SeenSet, type SeenSetOptions } from './seen-set.ts';
export { parseRedisUrl, type RedisTarget } from './url.ts';
