// **resolveCrawlOptions** turns user input into one frozen, validated crawl configuration.
import { ArgumentError } from '../errors.ts';
import type { FetcherOptions } from '../fetch/options.ts';
import { compilePattern } from '../frontier/scope.ts';
import { seedToUrl } from '../links/seed-url.ts';
import { CRAWL_OPTION_SPECS } from './crawl-option-specs.ts';
import { checkOptionValue, kebab, type OptionSpec } from './option-spec.ts';

export { kebab, seedToUrl };

/** The value type of each spec, by key. */
type SpecValues<T extends readonly OptionSpec<string, unknown>[]> = { -readonly [S in T[number] as S['key']]: S extends OptionSpec<string, infer V> ? V : never };

/**
 * Every option of a crawl: the seeds, the output folder, and one field per entry of CRAWL_OPTION_SPECS
 * (crawl-option-specs.ts holds each one's default, help and resume rule).
 */
export type CrawlOptions = SpecValues<typeof CRAWL_OPTION_SPECS> & {
  /** Seed URLs (or bare PLDs, which become `http://PLD/`). */
  seeds: string[];
  /** Output folder (LevelDB inside). Required. */
  out: string;
};

export type ResolvedCrawlOptions = Readonly<CrawlOptions>;

type OptionKey = keyof typeof DEFAULT_CRAWL_OPTIONS;

/** Each option's spec by key. */
export const OPTION_SPECS: ReadonlyMap<string, OptionSpec> = new Map(CRAWL_OPTION_SPECS.map((s) => [s.key, s as OptionSpec]));

/** Every option's default (seeds and out excepted). */
export const DEFAULT_CRAWL_OPTIONS: Readonly<SpecValues<typeof CRAWL_OPTION_SPECS>> = Object.freeze(
  Object.fromEntries(CRAWL_OPTION_SPECS.map((s) => [s.key, s.default])) as SpecValues<typeof CRAWL_OPTION_SPECS>,
);

const KEYS = new Set<string>(['seeds', 'out', ...OPTION_SPECS.keys()]);

/** Options that define what a crawl is; a resume must not change them. The rest (speed, limits) may change. */
export const IDENTITY_KEYS = CRAWL_OPTION_SPECS.filter((s) => s.resume === 'identity').map((s) => s.key) as OptionKey[];

/** Options needed to reach the network (proxy, private addresses, user agent, timeouts): a resume keeps them. */
export const NETWORK_KEYS = CRAWL_OPTION_SPECS.filter((s) => s.network).map((s) => s.key) as OptionKey[];

/**
 * Validates and freezes crawl options; unknown keys and bad values throw an ArgumentError that names the flag.
 * Defaults that follow other options (the total budget, BeeBot mode's bandit and link tables) are filled here.
 */
export function resolveCrawlOptions(input: Partial<CrawlOptions> & { out: string }): ResolvedCrawlOptions {
  for (const key of Object.keys(input)) {
    if (!KEYS.has(key)) throw new ArgumentError(`Unknown crawl option "${key}". Known: ${[...KEYS].join(', ')}.`);
  }
  const merged: Record<string, unknown> = { ...DEFAULT_CRAWL_OPTIONS, seeds: [], ...stripUndefined(input) };
  // a default never cuts a budget the user asked for: a per-PLD budget alone means no total budget
  if (input.maxDocs === undefined && input.maxDocsPerPld !== undefined) merged.maxDocs = Number.POSITIVE_INFINITY;
  if (merged.reward === 'external-links') {
    // BeeBot mode (BeeBot §2, §3)
    if (input.bandit === undefined) merged.bandit = 'auto';
    if (input.linkTables === undefined) merged.linkTables = true;
    if (input.stayOnSite === undefined) merged.stayOnSite = true;
  }
  if (!merged.out) throw new ArgumentError('--out DIR is required: the folder where the crawl state is kept.');
  if (!Array.isArray(merged.seeds)) throw new ArgumentError('seeds must be a list of URLs or PLDs.');
  merged.seeds = (merged.seeds as string[]).map(seedToUrl);
  for (const s of OPTION_SPECS.values()) merged[s.key] = checkOptionValue(s, merged[s.key]);
  for (const k of ['include', 'exclude'] as const) {
    for (const p of merged[k] as string[]) compilePattern(p); // a bad regular expression is refused now, not mid-crawl
  }
  if (merged.proxy !== null) {
    try {
      const p = new URL(merged.proxy as string);
      if (p.protocol !== 'http:') throw new Error('not http');
    } catch {
      throw new ArgumentError(`--proxy must be an http:// URL such as http://127.0.0.1:8080 (got ${showProxy(merged.proxy as string)}).`);
    }
  }
  return Object.freeze(merged as CrawlOptions);
}

/** A proxy URL as messages show it: without its password. */
export function showProxy(proxy: string): string {
  return proxy.replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}

/** The object without its undefined fields (so that spreading it never overwrites a value with undefined). */
export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** JSON form for the state (Infinity is not JSON). */
export function optionsToJson(o: ResolvedCrawlOptions): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === Number.POSITIVE_INFINITY ? 'Infinity' : v]));
}

/**
 * The options as a crawl keeps them (its folder, a WARC's warcinfo): JSON, without secrets such as a proxy's password.
 * `omitted` lists the keys whose secret was left out; a resume must be given them again.
 */
export function storableOptions(o: ResolvedCrawlOptions): { json: Record<string, unknown>; omitted: string[] } {
  const kept: Record<string, unknown> = { ...o };
  const omitted: string[] = [];
  for (const s of OPTION_SPECS.values()) {
    if (s.secret === undefined || !(s.key in kept)) continue;
    const { stored, omitted: left } = s.secret(kept[s.key]);
    kept[s.key] = stored;
    if (left) omitted.push(s.key);
  }
  return { json: optionsToJson(kept as ResolvedCrawlOptions), omitted };
}

export function optionsFromJson(j: Record<string, unknown>): Partial<CrawlOptions> {
  return Object.fromEntries(Object.entries(j).map(([k, v]) => [k, v === 'Infinity' ? Number.POSITIVE_INFINITY : v])) as Partial<CrawlOptions>;
}

/** The fetcher's options from the crawl's. */
export function fetcherOptions(o: ResolvedCrawlOptions): FetcherOptions {
  return {
    proxy: o.proxy ?? undefined,
    allowPrivate: o.allowPrivate,
    connectTimeoutMs: o.connectTimeoutMs,
    headersTimeoutMs: o.headersTimeoutMs,
    bodyTimeoutMs: o.bodyTimeoutMs,
    totalTimeoutMs: o.totalTimeoutMs,
    maxBodyBytes: o.maxBodyBytes,
    ...(o.userAgent ? { userAgent: o.userAgent } : {}),
  };
}
