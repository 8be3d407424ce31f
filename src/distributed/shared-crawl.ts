// **joinSharedCrawl**: creates a crawl in Redis or joins it as a worker, with its stored options; conflicting ones are refused.
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { ArgumentError, RdfscoutError } from '../errors.ts';
import { pldOf } from '../links/normalize-url.ts';
import { bucketBitsFor } from './redis/fingerprint.ts';
import { CrawlRegistry, SHARED_CRAWL_NAME, type SharedSettings } from './redis/crawl-registry.ts';
import { PldLeases } from './redis/pld-leases.ts';
import { readSharedEnd } from './redis/shared-end.ts';
import { SharedQueue } from './redis/shared-queue.ts';
import { type ExplicitOptions, identityConflict } from '../crawl/crawl-meta.ts';
import { IDENTITY_KEYS, kebab, optionsFromJson, optionsToJson, resolveCrawlOptions, stripUndefined } from '../crawl/options.ts';

/** The shared budgets: changed for every worker once the crawl is over (a resume with a larger budget continues it). */
const BUDGET_KEYS = ['maxDocs', 'maxDocsPerPld'] as const;

/** Options every worker must share besides the identity ones: the shared budgets and politeness. */
const SHARED_KEYS = [...IDENTITY_KEYS, ...BUDGET_KEYS, 'delayMs', 'hostConcurrency'] as const;

/**
 * Entries each PLD's queue holds in Redis by default; past it the least urgent wait in the PLD's overflow, a
 * compact sorted list (redis/queue-overflow.ts; README "Distributed crawls (Redis): memory").
 */
export const DEFAULT_QUEUE_CAP = 1000;

/** Default lease length (`--lease-ms`): a fetch's lease is renewed every third of it; a dead worker's work returns after it. */
const DEFAULT_LEASE_MS = 30_000;

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
  let stored = optionsFromJson(settings.options);
  const fixed = SHARED_KEYS.filter((k) => !(BUDGET_KEYS as readonly string[]).includes(k));
  const conflict = identityConflict(stored, explicit, fixed) ?? (leaseMs !== undefined && leaseMs !== settings.leaseMs ? { key: 'leaseMs', before: settings.leaseMs, given: leaseMs } : null);
  if (conflict !== null && !created) {
    throw new RdfscoutError(
      'RDFSCOUT_RESUME_CONFLICT',
      `The crawl in Redis at ${redisUrl} runs with --${kebab(conflict.key)} ${String(conflict.before)}; this worker asks for ${String(conflict.given)}. ` +
        'Join it without that flag, or use another Redis database for another crawl.',
    );
  }
  const budget = created ? null : identityConflict(stored, explicit, BUDGET_KEYS);
  if (budget !== null) {
    settings = await changeBudgets(client, registry, settings, explicit, redisUrl, budget);
    stored = optionsFromJson(settings.options);
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

/**
 * A worker given other budgets than the crawl's: allowed once the crawl is over (no worker has anything in flight
 * and the stored budgets end it), so that every worker crawls with one budget; the PLDs a per-PLD budget had closed
 * are offered for leases again. While it runs: refused, as another shared option.
 */
async function changeBudgets(
  client: Redis,
  registry: CrawlRegistry,
  settings: SharedSettings,
  explicit: ExplicitOptions,
  redisUrl: string,
  first: { key: string; before: unknown; given: unknown },
): Promise<SharedSettings> {
  const stored = resolveCrawlOptions({ ...optionsFromJson(settings.options), seeds: [], out: '.' } as ExplicitOptions);
  const prefix = registry.keys.prefix;
  const over = await readSharedEnd(client, prefix, { maxDocs: stored.maxDocs, maxDocsPerPld: stored.maxDocsPerPld });
  if (over === null) {
    throw new RdfscoutError(
      'RDFSCOUT_RESUME_CONFLICT',
      `The crawl in Redis at ${redisUrl} runs with --${kebab(first.key)} ${String(first.before)}; this worker asks for ${String(first.given)}. ` +
        'A shared budget changes only once the crawl is over (every worker ended): join it without that flag until then.',
    );
  }
  const options = { ...settings.options };
  for (const key of BUDGET_KEYS) {
    const given = explicit[key];
    if (given !== undefined) options[key] = given === Number.POSITIVE_INFINITY ? 'Infinity' : given;
  }
  const next = await registry.replaceSettings({ ...settings, options });
  const leases = new PldLeases(client, { crawl: SHARED_CRAWL_NAME, worker: 'budget', hostConcurrency: stored.hostConcurrency, delayMs: stored.delayMs, leaseMs: settings.leaseMs });
  for (const pld of await client.hkeys(`${prefix}pq`)) await leases.offer(pld); // closed by the old per-PLD budget
  return next;
}
