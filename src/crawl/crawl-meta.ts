// **Crawl options in the state**: a resume needs no flags repeated, and conflicting flags are refused clearly.
import { RdfscoutError } from '../errors.ts';
import type { CrawlState } from '../state/open-state.ts';
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
 * (strategy, bandit, …) may not change on a resume; limits and speed may. Seeds given again are added.
 */
export async function loadCrawlOptions(state: CrawlState, explicit: ExplicitOptions): Promise<{ options: ResolvedCrawlOptions; resumed: boolean }> {
  const stored = (await state.sub.meta.get('options')) as Record<string, unknown> | undefined;
  if (stored === undefined) {
    const options = resolveCrawlOptions(explicit);
    if (options.seeds.length === 0) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', 'No seeds: give seed URLs or PLDs as arguments or with --seeds-file FILE.');
    }
    return { options, resumed: false };
  }
  const previous = optionsFromJson(stored);
  for (const key of IDENTITY_KEYS) {
    const given = explicit[key];
    // Options stored before a key existed hold its default; lists (include/exclude) compare by value.
    const before = previous[key] ?? DEFAULT_CRAWL_OPTIONS[key];
    if (given !== undefined && JSON.stringify(given) !== JSON.stringify(before)) {
      throw new RdfscoutError(
        'RDFSCOUT_RESUME_CONFLICT',
        `${state.dir} holds a crawl with --${kebab(key)} ${String(before)}; this command asks for ${String(given)}. ` +
          'Resume it without that flag, or crawl into a new --out folder.',
      );
    }
  }
  const merged = { ...previous, ...stripUndefined(explicit), seeds: explicit.seeds ?? [] } as ExplicitOptions;
  return { options: resolveCrawlOptions(merged), resumed: true };
}

export async function saveCrawlOptions(state: CrawlState, options: ResolvedCrawlOptions): Promise<void> {
  const { seeds: _seeds, ...rest } = options;
  await state.sub.meta.put('options', optionsToJson({ ...rest, seeds: [] } as ResolvedCrawlOptions));
}
