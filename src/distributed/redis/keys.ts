// **crawlKeys**: the one place that names the Redis keys of a shared crawl (a store owns its keys).

/** The keys of one crawl. All share the hash tag `{crawl}`, so that on a Redis Cluster they live on one slot. */
export interface CrawlKeys {
  /** ZSET pld → epoch ms from which a lease may be granted (`FULL_SCORE` while the PLD is at its concurrency limit). */
  ready: string;
  /** HASH pld → politeness time: epoch ms before which no new lease starts (kept when a PLD leaves `ready`). */
  polite: string;
  /** HASH pld → leases held now. */
  held: string;
  /** HASH token → `pld<TAB>worker`. */
  leases: string;
  /** ZSET token → epoch ms at which the lease expires unless renewed. */
  expiry: string;
  /** ZSET worker → epoch ms of its last heartbeat. */
  workers: string;
  /** ZSET fetch id → epoch ms its release was applied (so that a retried release never counts twice). */
  applied: string;
  /** Counter that makes lease tokens unique. */
  tokenSeq: string;
  /**
   * HASH pld → epoch ms before which no request to it is sent: the send gate, passed just before a request leaves
   * (`--delay-ms` after the last pass; pushed to a release's ready time). Leases space the claims, this the sends.
   */
  gate: string;
  /** HASH of one table of learned counts (add-only). */
  counts(table: string): string;
  /** SET of one bucket of the seen set (fingerprint remainders, as integers). */
  seenBucket(bucket: string): string;
  /** Every key of the crawl matches this pattern (for SCAN, e.g. to measure or delete a crawl). */
  pattern: string;
  /**
   * What every key of the crawl starts with. The shared queue's scripts (queue-scripts.ts) build their per-PLD keys
   * from it (`q:PLD`, `d:PLD`, …, listed there); all carry the crawl's hash tag.
   */
  prefix: string;
}

/** The keys of crawl `name` (letters, digits, `-`, `_`, `.`). */
export function crawlKeys(name: string): CrawlKeys {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
    throw new RangeError(`A crawl name is 1–64 letters, digits, '.', '_' or '-'; got ${JSON.stringify(name)}`);
  }
  const p = `rdfscout:{${name}}:`;
  return {
    ready: `${p}pld:ready`,
    polite: `${p}pld:polite`,
    held: `${p}pld:held`,
    leases: `${p}lease`,
    expiry: `${p}lease:expiry`,
    workers: `${p}workers`,
    applied: `${p}applied`,
    tokenSeq: `${p}lease:seq`,
    gate: `${p}pld:gate`,
    counts: (table) => `${p}counts:${table}`,
    seenBucket: (bucket) => `${p}seen:${bucket}`,
    pattern: `${p}*`,
    prefix: p,
  };
}
