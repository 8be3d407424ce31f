// **Crawl options in the state**: a resume needs no flags repeated, and conflicting flags are refused clearly.
import { RdfscoutError } from '../errors.ts';
import type { CrawlState } from '../state/open-state.ts';
import { levelTxn, type Txn } from '../state/txn.ts';
import { type OptionSpec, showFlag } from './option-spec.ts';
import {
  type CrawlOptions,
  DEFAULT_CRAWL_OPTIONS,
  IDENTITY_KEYS,
  kebab,
  NETWORK_KEYS,
  OPTION_SPECS,
  optionsFromJson,
  type ResolvedCrawlOptions,
  resolveCrawlOptions,
  showProxy,
  storableOptions,
  stripUndefined,
} from './options.ts';

export type ExplicitOptions = Partial<CrawlOptions> & { out: string };

/**
 * Merges the options stored by an earlier run of this crawl (if any) with those given now. Identity options
 * (strategy, bandit, …) may not change on a resume; limits, speed and network options may, and are kept when not
 * given. A secret left out of the stored options (a proxy's password) must be given again. Seeds given again are
 * added. A worker's shard of a shared crawl starts without seeds (`requireSeeds: false`): they are in the shared
 * frontier; opened as a crawl of its own (`requireSeeds: true`), a shard is refused, since its queue is in Redis.
 */
export async function loadCrawlOptions(
  state: CrawlState,
  explicit: ExplicitOptions,
  { requireSeeds = true }: { requireSeeds?: boolean } = {},
): Promise<{ options: ResolvedCrawlOptions; resumed: boolean }> {
  const stored = await readStoredOptions(state);
  if (stored === undefined) {
    const options = resolveCrawlOptions(explicit);
    if (options.seeds.length === 0 && requireSeeds) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', 'No seeds: give seed URLs or PLDs as arguments or with --seeds-file FILE.');
    }
    return { options, resumed: false };
  }
  const shardOf = requireSeeds ? await readShardMark(state) : undefined;
  if (shardOf !== undefined) {
    throw new RdfscoutError(
      'RDFSCOUT_INVALID_ARGUMENT',
      `${state.dir} is one worker's shard of the crawl shared through Redis at ${shardOf}: its queue is there, not in this folder. Give --redis URL again to go on with it.`,
    );
  }
  const previous = optionsFromJson(stored);
  const conflicts = identityConflicts(previous, explicit, IDENTITY_KEYS);
  if (conflicts.length > 0) throw new RdfscoutError('RDFSCOUT_RESUME_CONFLICT', describeConflicts(state.dir, conflicts));
  const missing = ((await state.sub.meta.get(OMITTED_KEY)) as string[] | undefined)?.filter((key) => explicit[key as keyof ExplicitOptions] === undefined) ?? [];
  if (missing.length > 0) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', describeMissingSecrets(state.dir, previous, missing));
  const merged = { ...previous, ...stripUndefined(explicit), seeds: explicit.seeds ?? [] } as ExplicitOptions;
  return { options: resolveCrawlOptions(merged), resumed: true };
}

/** An identity option given on a resume with another value than the crawl holds. */
export interface OptionConflict {
  key: string;
  before: unknown;
  given: unknown;
}

/** The options of `keys` given in `explicit` with another value than `previous` holds, in `keys` order. */
export function identityConflicts(previous: Partial<CrawlOptions>, explicit: Partial<CrawlOptions>, keys: readonly (keyof typeof DEFAULT_CRAWL_OPTIONS)[]): OptionConflict[] {
  const conflicts: OptionConflict[] = [];
  for (const key of keys) {
    const given = explicit[key];
    // Options stored before a key existed hold its default; lists (include/exclude) compare by value.
    const before = previous[key] ?? DEFAULT_CRAWL_OPTIONS[key];
    if (given !== undefined && JSON.stringify(given) !== JSON.stringify(before)) conflicts.push({ key, before, given });
  }
  return conflicts;
}

/** The first of {@link identityConflicts}, or null. */
export function identityConflict(
  previous: Partial<CrawlOptions>,
  explicit: Partial<CrawlOptions>,
  keys: readonly (keyof typeof DEFAULT_CRAWL_OPTIONS)[],
): OptionConflict | null {
  return identityConflicts(previous, explicit, keys)[0] ?? null;
}

/** The refusal of a resume that changes identity options: each flag with the stored value and the one given. */
export function describeConflicts(dir: string, conflicts: readonly OptionConflict[]): string {
  const flags = conflicts.map((c) => OPTION_SPECS.get(c.key) ?? null);
  const show = (c: OptionConflict, i: number, v: unknown) => {
    const spec = flags[i];
    return spec ? showFlag(spec, v) : `--${kebab(c.key)} ${String(v)}`;
  };
  const before = conflicts.map((c, i) => show(c, i, c.before)).join(', ');
  const given = conflicts.map((c, i) => show(c, i, c.given)).join(', ');
  const names = conflicts.map((c, i) => `--${flags[i]?.flag ?? kebab(c.key)}`).join(', ');
  return `${dir} holds a crawl with ${before}; this command asks for ${given}. These define the crawl and cannot change on a resume: resume it without ${names}, or crawl into a new --out folder.`;
}

function describeMissingSecrets(dir: string, previous: Partial<CrawlOptions>, missing: readonly string[]): string {
  const parts = missing.map((key) => {
    const spec = OPTION_SPECS.get(key);
    const flag = `--${spec?.flag ?? kebab(key)}`;
    const value = previous[key as keyof CrawlOptions];
    return `${flag}${typeof value === 'string' ? ` (${value})` : ''}`;
  });
  return `${dir} holds a crawl that ran with ${parts.join(', ')}, whose password is not stored: give ${missing.map((k) => `--${OPTION_SPECS.get(k)?.flag ?? kebab(k)}`).join(', ')} again, with the password, to resume it.`;
}

/**
 * The network options (proxy, private addresses, user agent, timeouts) a resume took from the crawl's store, not
 * from its flags, and that differ from the defaults: what to tell the user this run reuses.
 */
export function keptNetworkOptions(explicit: Partial<CrawlOptions>, options: ResolvedCrawlOptions): string[] {
  return NETWORK_KEYS.filter((key) => explicit[key] === undefined && JSON.stringify(options[key]) !== JSON.stringify(DEFAULT_CRAWL_OPTIONS[key])).map((key) => {
    const spec = OPTION_SPECS.get(key) as OptionSpec;
    const value = options[key];
    return key === 'proxy' && typeof value === 'string' ? `--proxy ${showProxy(value)}` : showFlag(spec, value);
  });
}

/** `meta` key: the options whose secret part the store does not hold (a proxy's password). */
const OMITTED_KEY = 'omittedSecrets';

/**
 * Stores the options for the next runs without secrets; seeds are in the frontier, and options for this run only
 * (`--retry-failed`) are stored as their defaults.
 */
export async function saveCrawlOptions(state: CrawlState, options: ResolvedCrawlOptions): Promise<void> {
  const thisRunOnly = [...OPTION_SPECS.values()].filter((s) => s.resume === 'run').map((s) => [s.key, s.default]);
  const { json, omitted } = storableOptions({ ...options, ...Object.fromEntries(thisRunOnly), seeds: [] });
  await state.sub.meta.put('options', json);
  if (omitted.length > 0) await state.sub.meta.put(OMITTED_KEY, omitted);
  else await state.sub.meta.del(OMITTED_KEY);
}

/** The options stored by the crawl in `state` as saved (JSON), or undefined for a folder without a crawl. */
export async function readStoredOptions(state: CrawlState): Promise<Record<string, unknown> | undefined> {
  return (await state.sub.meta.get('options')) as Record<string, unknown> | undefined;
}

/** PLDs of all seeds ever given to the crawl (thesis §11 scope). */
export async function loadSeedPlds(state: CrawlState): Promise<Set<string>> {
  return new Set<string>(((await state.sub.meta.get('seedPlds')) as string[] | undefined) ?? []);
}

export async function saveSeedPlds(state: CrawlState, plds: ReadonlySet<string>): Promise<void> {
  await state.sub.meta.put('seedPlds', [...plds]);
}

/** Stages the seeds' PLDs in `txn` (seeds added while the crawl runs are saved with their frontier entries). */
export function stageSeedPlds(state: CrawlState, txn: Txn, plds: ReadonlySet<string>): void {
  levelTxn(txn).put(state.sub.meta, 'seedPlds', [...plds]);
}

/** `meta` key of the crawl's `--warc` (archive-choice.ts). */
const WARC_KEY = 'warc';

/** The `--warc` an earlier run of the crawl asked for (its writer options, as stored), or undefined. */
export async function readStoredArchive<T extends object>(state: CrawlState): Promise<T | undefined> {
  return (await state.sub.meta.get(WARC_KEY)) as T | undefined;
}

/** Keeps `warc` for the next runs of the crawl; undefined forgets it (`--no-warc`). */
export async function saveStoredArchive(state: CrawlState, warc: object | undefined): Promise<void> {
  if (warc === undefined) await state.sub.meta.del(WARC_KEY);
  else await state.sub.meta.put(WARC_KEY, warc);
}

/** `meta` key: the Redis crawl (its URL, password hidden) whose worker keeps its records in this folder. */
const SHARD_KEY = 'shardOf';

/** Marks the folder as a worker's shard of the crawl shared at `redisDisplay` (a resume must rejoin it). */
export async function saveShardMark(state: CrawlState, redisDisplay: string): Promise<void> {
  await state.sub.meta.put(SHARD_KEY, redisDisplay);
}

/** The Redis crawl this folder is a worker's shard of, or undefined. */
async function readShardMark(state: CrawlState): Promise<string | undefined> {
  return (await state.sub.meta.get(SHARD_KEY)) as string | undefined;
}

/** Links dropped by --max-depth over the crawl's earlier runs (for the stop reason of a resume that finds nothing left). */
export async function loadDepthDropped(state: CrawlState): Promise<number> {
  return Number((await state.sub.meta.get('depthDropped')) ?? 0);
}

export async function saveDepthDropped(state: CrawlState, total: number): Promise<void> {
  await state.sub.meta.put('depthDropped', total);
}

/** Stages the crawl's total of links dropped by --max-depth into the transaction of the fetch that dropped some. */
export function stageDepthDropped(txn: Txn, state: CrawlState, total: number): void {
  levelTxn(txn).put(state.sub.meta, 'depthDropped', total);
}
