// **joinSharedCrawl**: creates a crawl in Redis or joins it as a worker, with its stored options; conflicting ones are refused (issue 15).
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { ArgumentError, RdfscoutError } from '../errors.ts';
import { pldOf } from '../links/normalize-url.ts';
import { bucketBitsFor } from '../redis/fingerprint.ts';
import { CrawlRegistry, SHARED_CRAWL_NAME, type SharedSettings } from '../redis/crawl-registry.ts';
import { SharedQueue } from '../redis/shared-queue.ts';
import { type ExplicitOptions, identityConflict } from './crawl-meta.ts';
import { IDENTITY_KEYS, kebab, optionsFromJson, optionsToJson, resolveCrawlOptions, stripUndefined } from './options.ts';

/** Options every worker must share besides the identity ones: the shared budgets and politeness. */
export const SHARED_KEYS = [...IDENTITY_KEYS, 'maxDocs', 'maxDocsPerPld', 'delayMs', 'hostConcurrency'] as const;

/**
 * Entries each PLD's queue holds in Redis by default; past it the least urgent wait in the PLD's overflow, a
 * compact sorted list (src/redis/queue-overflow.ts; README "Distributed crawls (Redis): memory").
 */
export const DEFAULT_QUEUE_CAP = 1000;

/** Default lease length (`--lease-ms`): a fetch's lease is renewed every third of it; a dead worker's work returns after it. */
export const DEFAULT_LEASE_MS = 30_000;

/** A worker's place in a shared crawl. */
export interface SharedCrawl {
  /** The options this worker crawls with (the stored ones, its own per-worker ones, its seeds, its shard). */
  explicit: ExplicitOptions;
  created: boolean;
  settings: SharedSettings;
  queue: SharedQueue;
  registry: CrawlRegistry;
}

/**
 * Creates the crawl in Redis when the database holds none (seeds required) or joins the one there. A worker given
 * no options gets the stored ones; a shared option (identity, budgets, politeness, lease length) given with another
 * value is refused (`RDFSCOUT_RESUME_CONFLICT`, exit code 2), as a resume refuses one. Per-worker options
 * (--concurrency, --user-agent, --proxy, …) and the seeds may differ: seeds join the shared frontier.
 */
export async function joinSharedCrawl(client: Redis, redisUrl: string, explicit: ExplicitOptions, leaseMs: number | undefined): Promise<SharedCrawl> {
  const registry = new CrawlRegistry(client);
  let settings = await registry.settings();
  let created = false;
  if (settings === undefined) {
    if ((explicit.seeds ?? []).length === 0) {
      throw new ArgumentError(`There is no crawl in Redis at ${redisUrl} yet: give seed URLs (or --seeds-file) to create it.`);
    }
    const { seeds: _seeds, out: _out, ...rest } = resolveCrawlOptions(explicit);
    const expected = Number.isFinite(rest.maxDocs) ? rest.maxDocs * 50 : 10_000_000; // links seen per fetch, generously
    const made = await registry.create({
      options: optionsToJson(rest as never),
      bucketBits: bucketBitsFor(expected),
      leaseMs: leaseMs ?? DEFAULT_LEASE_MS,
      queueCap: DEFAULT_QUEUE_CAP,
      created: new Date().toISOString(),
    });
    created = made.created;
    settings = made.settings;
  }
  const stored = optionsFromJson(settings.options);
  const conflict = identityConflict(stored, explicit, SHARED_KEYS) ?? (leaseMs !== undefined && leaseMs !== settings.leaseMs ? { key: 'leaseMs', before: settings.leaseMs, given: leaseMs } : null);
  if (conflict !== null && !created) {
    throw new RdfscoutError(
      'RDFSCOUT_RESUME_CONFLICT',
      `The crawl in Redis at ${redisUrl} runs with --${kebab(conflict.key)} ${String(conflict.before)}; this worker asks for ${String(conflict.given)}. ` +
        'Join it without that flag, or use another Redis database for another crawl.',
    );
  }
  const merged = { ...stored, ...stripUndefined(explicit), seeds: explicit.seeds ?? [], out: explicit.out } as ExplicitOptions;
  const options = resolveCrawlOptions(merged);
  // Before any worker judges a link: the scope of a crawl is its seeds' PLDs, whoever gave them (thesis §11).
  await registry.addSeedPlds(options.seeds.flatMap((url) => {
    try {
      return [pldOf(url)];
    } catch {
      return []; // a bad seed is reported when the crawl opens
    }
  }));
  const worker = `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`;
  const queue = new SharedQueue(client, {
    crawl: SHARED_CRAWL_NAME,
    worker,
    hostConcurrency: options.hostConcurrency,
    delayMs: options.delayMs,
    leaseMs: settings.leaseMs,
    bucketBits: settings.bucketBits,
  });
  await queue.setQueueCap(settings.queueCap ?? DEFAULT_QUEUE_CAP); // kept if set: one cap for the crawl
  return { explicit: merged, created, settings, queue, registry };
}
