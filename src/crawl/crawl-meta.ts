// **Crawl options in the state**: a resume needs no flags repeated, and conflicting flags are refused clearly.
import { RdfscoutError } from '../errors.ts';
import type { CrawlState } from '../state/open-state.ts';
import { levelTxn, type Txn } from '../state/txn.ts';
import {
  type CrawlOptions,
  DEFAULT_CRAWL_OPTIONS,
  IDENTITY_KEYS,
  type ResolvedCrawlOptions,
  kebab,
  optionsFromJson,
  optionsToJson,
  resolveCrawlOptions,
  stripUndefined,
} from './options.ts';

export type ExplicitOptions = Partial<CrawlOptions> & { out: string };

/**
 * Merges the options stored by an earlier run of this crawl (if any) with those given now. Identity options
 * (strategy, bandit, …) may not change on a resume; limits and speed may. Seeds given again are added. A worker's
 * shard of a shared crawl starts without seeds (`requireSeeds: false`): they are in the shared frontier.
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
  const previous = optionsFromJson(stored);
  const conflict = identityConflict(previous, explicit, IDENTITY_KEYS);
  if (conflict !== null) {
    throw new RdfscoutError(
      'RDFSCOUT_RESUME_CONFLICT',
      `${state.dir} holds a crawl with --${kebab(conflict.key)} ${String(conflict.before)}; this command asks for ${String(conflict.given)}. ` +
        'Resume it without that flag, or crawl into a new --out folder.',
    );
  }
  const merged = { ...previous, ...stripUndefined(explicit), seeds: explicit.seeds ?? [] } as ExplicitOptions;
  return { options: resolveCrawlOptions(merged), resumed: true };
}

/** The first option of `keys` given in `explicit` with another value than `previous` holds, or null. */
export function identityConflict(
  previous: Partial<CrawlOptions>,
  explicit: Partial<CrawlOptions>,
  keys: readonly (keyof typeof DEFAULT_CRAWL_OPTIONS)[],
): { key: string; before: unknown; given: unknown } | null {
  for (const key of keys) {
    const given = explicit[key];
    // Options stored before a key existed hold its default; lists (include/exclude) compare by value.
    const before = previous[key] ?? DEFAULT_CRAWL_OPTIONS[key];
    if (given !== undefined && JSON.stringify(given) !== JSON.stringify(before)) return { key, before, given };
  }
  return null;
}

export async function saveCrawlOptions(state: CrawlState, options: ResolvedCrawlOptions): Promise<void> {
  const { seeds: _seeds, ...rest } = options;
  await state.sub.meta.put('options', optionsToJson({ ...rest, seeds: [] } as ResolvedCrawlOptions));
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

/** Links dropped by --max-depth over the crawl's earlier runs (for the stop reason of a resume that finds nothing left). */
export async function loadDepthDropped(state: CrawlState): Promise<number> {
  return Number((await state.sub.meta.get('depthDropped')) ?? 0);
}

export async function saveDepthDropped(state: CrawlState, total: number): Promise<void> {
  await state.sub.meta.put('depthDropped', total);
}
