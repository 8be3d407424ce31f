// **SeenSet**: the crawl's shared set of URLs ever queued, as 64-bit fingerprints in small Redis sets bucketed by prefix.
import type { Redis } from 'ioredis';
import { RdfscoutError } from '../../errors.ts';
import { splitFingerprint, urlFingerprint } from './fingerprint.ts';
import { type CrawlKeys, crawlKeys } from './keys.ts';
import { type RunScript, redisScript } from './script.ts';

/** Has. KEYS: the URLs' buckets; ARGV: their members, in the same order. Returns 1 or 0 per URL. */
const HAS_LUA = `local out = {}
for i = 1, #KEYS do out[i] = redis.call('SISMEMBER', KEYS[i], ARGV[i]) end
return out
`;

/** Options of {@link SeenSet}; every worker of a crawl must use the same `bucketBits` (a crawl option). */
export interface SeenSetOptions {
  /** The crawl's name in Redis. */
  crawl: string;
  /** Bits of the fingerprint that choose the bucket, 0–32 (`bucketBitsFor(expected URLs)`). */
  bucketBits: number;
}

/**
 * Which URLs the crawl has seen, shared by all workers. A URL is stored as its 64-bit fingerprint: the low
 * 64 − bucketBits bits, as an integer member of one of 2^bucketBits sets chosen by the top bits. Redis keeps a set
 * of integers with ≤ 512 members as an intset (8 B a member, sorted, no per-member header): `bench/redis-memory.ts`
 * measures the bytes per URL. Why not a set of hex digests: ~90 B a URL. Why not small hashes (listpacks): ~13 B.
 * Why not a Bloom filter: a false positive drops a new URL for good, and Debian's Redis has no RedisBloom module.
 * `add` is atomic per URL (SADD), so when two workers add the same URL at once exactly one learns it is new.
 */
export class SeenSet {
  readonly keys: CrawlKeys;
  readonly bucketBits: number;
  readonly #client: Redis;
  readonly #has: RunScript;

  constructor(client: Redis, options: SeenSetOptions) {
    const { bucketBits } = options;
    if (!Number.isInteger(bucketBits) || bucketBits < 0 || bucketBits > 32) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `bucketBits must be an integer from 0 to 32, got ${bucketBits}`);
    }
    this.keys = crawlKeys(options.crawl);
    this.bucketBits = bucketBits;
    this.#client = client;
    this.#has = redisScript(client, 'rdfscoutSeenHas', HAS_LUA);
  }

  /** Adds URLs (one round trip); for each, whether it was new. A URL repeated in `urls` is new only the first time. */
  async add(urls: readonly string[]): Promise<boolean[]> {
    return this.addFingerprints(urls.map(urlFingerprint));
  }

  /** Adds fingerprints (`urlFingerprint`) directly; for each, whether it was new. */
  async addFingerprints(fingerprints: readonly bigint[]): Promise<boolean[]> {
    const pipe = this.#client.pipeline();
    for (const fp of fingerprints) {
      const { key, member } = this.#place(fp);
      pipe.sadd(key, member);
    }
    return (await this.#run(pipe)).map((v) => v === 1);
  }

  /**
   * Whether each URL was added before (one round trip: one script, not a pipeline of one SISMEMBER per URL, so the
   * client builds and parses one command: CPU per page of a worker).
   */
  async has(urls: readonly string[]): Promise<boolean[]> {
    if (urls.length === 0) return [];
    const keys: string[] = [];
    const members: string[] = [];
    for (const url of urls) {
      const { key, member } = this.#place(urlFingerprint(url));
      keys.push(key);
      members.push(member);
    }
    return ((await this.#has(keys, members)) as number[]).map((v) => v === 1);
  }

  #place(fp: bigint): { key: string; member: string } {
    const { bucket, member } = splitFingerprint(fp, this.bucketBits);
    return { key: this.keys.seenBucket(bucket), member };
  }

  async #run(pipe: ReturnType<Redis['pipeline']>): Promise<unknown[]> {
    const results = (await pipe.exec()) ?? [];
    return results.map(([err, value]) => {
      if (err) throw new RdfscoutError('RDFSCOUT_REDIS_FAILED', `Redis refused a seen-set update: ${err.message}`, { cause: err });
      return value;
    });
  }
}
