// **resolveCrawlOptions** turns user input into one frozen, validated crawl configuration.
import { ArgumentError } from '../errors.ts';
import { seedToUrl } from '../links/seed-url.ts';

export { seedToUrl };
import { FETCHER_DEFAULTS, type FetcherOptions } from '../fetch/options.ts';
import { compilePattern } from '../frontier/scope.ts';
import { STRATEGY_NAMES } from '../strategies/index.ts';

/** Every option of a crawl, with its default. */
export interface CrawlOptions {
  /** Seed URLs (or bare PLDs, which become `http://PLD/`). */
  seeds: string[];
  /** Output folder (LevelDB inside). Required. */
  out: string;
  /** Link-scoring strategy (thesis §10). Default: 'fc-r+hr'. */
  strategy: string;
  /**
   * PLD scheduler (BeeBot §3). 'none' = the frontier's global (priority, discovery) order. Default, from
   * `npm run bench:bandit`: 'round-robin' for the RDF rewards (×1.18 RDF over 'none' with fc-r+hr on the thesis-like
   * web; thompson, auto and r2 abandon sites whose first pages are listings without RDF yet), 'auto' for
   * 'external-links' (BeeBot mode: the best or near-best rule on RAS-like, university-like and mixed sets).
   */
  bandit: string;
  /** What the bandit counts as reward. Default: 'rdf-docs'. */
  reward: 'rdf-docs' | 'triples' | 'external-links';
  /**
   * Total fetch budget (requests sent; robots refusals spend none). Default: 1000, or none (Infinity) when only
   * `maxDocsPerPld` is given: a default never cuts a budget the user asked for (issue 14 item 7).
   */
  maxDocs: number;
  /** Fetch budget per PLD (thesis §11: 2000). Default: Infinity. */
  maxDocsPerPld: number;
  /** Only the first N links of a document count (thesis §11: 500). Default: 500. */
  maxLinksPerDoc: number;
  /** Links deeper than this (seeds are depth 0) are not queued. Default: Infinity. */
  maxDepth: number;
  /** Fetches in flight at once (thesis §11: 5 threads). Default: 5. */
  concurrency: number;
  /** Requests in flight at once to one PLD. Default: 1. */
  hostConcurrency: number;
  /** Minimum delay between request starts to the same PLD, ms. Default: 1000. */
  delayMs: number;
  /** HTTP forward proxy for every request. Default: none. */
  proxy: string | null;
  /** Allow private, loopback and link-local targets (and seeds). Default: false. */
  allowPrivate: boolean;
  /** Framework 2 (thesis §8.2): fetch RDF documents' IRIs too. Default: false. */
  followRdfLinks: boolean;
  /**
   * Fetch the JSON-LD remote contexts that rdfscout does not ship (once per crawl, kept in the crawl's store, through
   * the crawl's fetcher and its limits); false (`--no-remote-contexts`): a document that needs one fails with
   * RDFSCOUT_REMOTE_CONTEXT. Default: true.
   */
  remoteContexts: boolean;
  /** 'two': the two-queue variant (thesis §8.2, Figure 3-5): an RDF queue and an HTML queue. Default: 'one'. */
  queues: 'one' | 'two';
  /** With two queues: the share of the fetch workers that serve the RDF queue, in [0, 1]. Default: 0.5. */
  rdfShare: number;
  /**
   * Crawl only links of the page's own PLD; links to other PLDs are recorded (link tables), not crawled (BeeBot §2).
   * Default: on when reward is 'external-links', else off (thesis §11: one hop out of the seeds' PLDs).
   */
  stayOnSite: boolean;
  /** Keep BeeBot's internal/external link tables (BeeBot §2). Default: on when reward is 'external-links'. */
  linkTables: boolean;
  /**
   * When C_HR(t) learns an RDF parent, judge the queued links similar to it again (they may now be HR). Off: a
   * link keeps the label it got when it was extracted (the thesis's Figure 3-2 read literally). Default: true.
   */
  rejudgeQueued: boolean;
  /** Probe every seed origin's /sitemap.xml (when robots.txt names no sitemap) and /.well-known/void. Default: false. */
  probeWellKnown: boolean;
  /** URL normalisation: 'standard' (WHATWG) or 'beebot' (lower-case, no trailing slash; BeeBot §2). Default: 'standard'. */
  normalize: 'standard' | 'beebot';
  /**
   * Which PLDs the crawl may fetch (issue 16 item 1): 'seeds' = the seeds' PLDs, plus `offsiteHops` hops out;
   * 'open' = any PLD. Default: 'seeds'.
   */
  scope: 'seeds' | 'open';
  /** With scope 'seeds': how many hops through other PLDs a link may be from the seeds' PLDs (thesis §11: 1). Default: 0. */
  offsiteHops: number;
  /** URL patterns (globs with `*`, or `/regex/`) a link must match one of to be crawled; [] = any. Default: []. */
  include: string[];
  /** URL patterns a link must match none of to be crawled (wins over include). Default: []. */
  exclude: string[];
  /**
   * How long the crawl waits, paused, while every request fails at the connection level (network or proxy down),
   * before it stops with `stoppedBy: 'offline'` (what failed stays queued; a resume retries it). Default: 600000 ms.
   */
  maxOfflineMs: number;
  /** On a resume, queue again the URLs whose last fetch failed (final failures, after their retries). Default: false. */
  retryFailed: boolean;
  /** Retries of a retryable failure (connection reset, robots 5xx, 429/503) before giving up. Default: 2. */
  maxRetries: number;
  /** Seed for every random choice (bandit sampling). Default: 1. */
  seed: number;
  /** Timeouts and size limits, ms / bytes. */
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  totalTimeoutMs: number;
  maxBodyBytes: number;
  userAgent: string | null;
}

export type ResolvedCrawlOptions = Readonly<CrawlOptions>;

/** Every strategy `--strategy` accepts (the registry's names). */
export const STRATEGY_CHOICES = STRATEGY_NAMES;
export const REWARD_CHOICES = ['rdf-docs', 'triples', 'external-links'] as const;

/** Every option's default (seeds and out excepted). */
export const DEFAULT_CRAWL_OPTIONS: Readonly<Omit<CrawlOptions, 'seeds' | 'out'>> = {
  strategy: 'fc-r+hr',
  bandit: 'round-robin',
  reward: 'rdf-docs',
  maxDocs: 1000,
  maxDocsPerPld: Number.POSITIVE_INFINITY,
  maxLinksPerDoc: 500,
  maxDepth: Number.POSITIVE_INFINITY,
  concurrency: 5,
  hostConcurrency: 1,
  delayMs: 1000,
  proxy: null,
  allowPrivate: false,
  followRdfLinks: false,
  remoteContexts: true,
  queues: 'one',
  rdfShare: 0.5,
  probeWellKnown: false,
  rejudgeQueued: true,
  linkTables: false,
  stayOnSite: false,
  normalize: 'standard',
  scope: 'seeds',
  offsiteHops: 0,
  include: [],
  exclude: [],
  maxOfflineMs: 600_000,
  retryFailed: false,
  maxRetries: 2,
  seed: 1,
  connectTimeoutMs: FETCHER_DEFAULTS.connectTimeoutMs,
  headersTimeoutMs: FETCHER_DEFAULTS.headersTimeoutMs,
  bodyTimeoutMs: FETCHER_DEFAULTS.bodyTimeoutMs,
  totalTimeoutMs: FETCHER_DEFAULTS.totalTimeoutMs,
  maxBodyBytes: FETCHER_DEFAULTS.maxBodyBytes,
  userAgent: null,
};

const KEYS = new Set<string>(['seeds', 'out', ...Object.keys(DEFAULT_CRAWL_OPTIONS)]);

/** Options that define what a crawl is; a resume must not change them. The rest (speed, limits) may change. */
export const IDENTITY_KEYS = [
  'strategy',
  'bandit',
  'reward',
  'followRdfLinks',
  'queues',
  'normalize',
  'maxLinksPerDoc',
  'seed',
  'scope',
  'offsiteHops',
  'include',
  'exclude',
] as const;

function positiveInt(name: string, value: unknown, allowZero = false, allowInfinity = false): number {
  if (allowInfinity && value === Number.POSITIVE_INFINITY) return value;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new ArgumentError(`--${kebab(name)} must be a whole number ${allowZero ? '≥ 0' : '≥ 1'} (got ${String(value)}).`);
  }
  return value;
}

function oneOf<T extends string>(name: string, value: unknown, choices: readonly T[]): T {
  if (typeof value !== 'string' || !choices.includes(value as T)) {
    throw new ArgumentError(`--${kebab(name)} must be one of ${choices.join(', ')} (got ${String(value)}).`);
  }
  return value as T;
}

export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * Validates and freezes crawl options; unknown keys and bad values throw an ArgumentError that names the flag.
 * `bandit` and `strategy` names are checked against the factories by the caller (they own the lists).
 */
export function resolveCrawlOptions(input: Partial<CrawlOptions> & { out: string }): ResolvedCrawlOptions {
  for (const key of Object.keys(input)) {
    if (!KEYS.has(key)) throw new ArgumentError(`Unknown crawl option "${key}". Known: ${[...KEYS].join(', ')}.`);
  }
  const merged: CrawlOptions = { ...DEFAULT_CRAWL_OPTIONS, seeds: [], ...stripUndefined(input) } as CrawlOptions;
  if (input.maxDocs === undefined && input.maxDocsPerPld !== undefined) merged.maxDocs = Number.POSITIVE_INFINITY;
  if (input.bandit === undefined && merged.reward === 'external-links') merged.bandit = 'auto';
  if (input.linkTables === undefined && merged.reward === 'external-links') merged.linkTables = true;
  if (input.stayOnSite === undefined && merged.reward === 'external-links') merged.stayOnSite = true;
  if (!merged.out) throw new ArgumentError('--out DIR is required: the folder where the crawl state is kept.');
  merged.seeds = merged.seeds.map(seedToUrl);
  merged.strategy = oneOf('strategy', merged.strategy, STRATEGY_CHOICES);
  merged.reward = oneOf('reward', merged.reward, REWARD_CHOICES);
  merged.normalize = oneOf('normalize', merged.normalize, ['standard', 'beebot'] as const);
  merged.queues = oneOf('queues', merged.queues, ['one', 'two'] as const);
  if (typeof merged.rdfShare !== 'number' || !(merged.rdfShare >= 0 && merged.rdfShare <= 1)) {
    throw new ArgumentError(`--rdf-share must be a number from 0 to 1 (got ${String(merged.rdfShare)}).`);
  }
  merged.maxDocs = positiveInt('maxDocs', merged.maxDocs, false, true);
  merged.maxDocsPerPld = positiveInt('maxDocsPerPld', merged.maxDocsPerPld, false, true);
  merged.maxLinksPerDoc = positiveInt('maxLinksPerDoc', merged.maxLinksPerDoc, true);
  merged.maxDepth = positiveInt('maxDepth', merged.maxDepth, true, true);
  merged.concurrency = positiveInt('concurrency', merged.concurrency);
  merged.hostConcurrency = positiveInt('hostConcurrency', merged.hostConcurrency);
  merged.delayMs = positiveInt('delayMs', merged.delayMs, true);
  merged.scope = oneOf('scope', merged.scope, ['seeds', 'open'] as const);
  merged.offsiteHops = positiveInt('offsiteHops', merged.offsiteHops, true);
  for (const k of ['include', 'exclude'] as const) {
    if (!Array.isArray(merged[k]) || merged[k].some((p) => typeof p !== 'string' || p === '')) {
      throw new ArgumentError(`--${k} takes URL patterns (globs such as https://example.org/data/* or /regex/).`);
    }
    for (const p of merged[k]) compilePattern(p); // a bad regular expression is refused now, not mid-crawl
  }
  merged.maxRetries = positiveInt('maxRetries', merged.maxRetries, true);
  merged.maxOfflineMs = positiveInt('maxOfflineMs', merged.maxOfflineMs, true, true);
  if (typeof merged.retryFailed !== 'boolean') throw new ArgumentError('--retry-failed takes no value.');
  if (typeof merged.remoteContexts !== 'boolean') throw new ArgumentError('--no-remote-contexts takes no value.');
  merged.seed = positiveInt('seed', merged.seed, true);
  for (const k of ['connectTimeoutMs', 'headersTimeoutMs', 'bodyTimeoutMs', 'totalTimeoutMs', 'maxBodyBytes'] as const) {
    merged[k] = positiveInt(k, merged[k]);
  }
  if (merged.proxy !== null) {
    try {
      const p = new URL(merged.proxy);
      if (p.protocol !== 'http:') throw new Error('not http');
    } catch {
      throw new ArgumentError(`--proxy must be an http:// URL such as http://127.0.0.1:8080 (got ${merged.proxy}).`);
    }
  }
  return Object.freeze(merged);
}

/** The object without its undefined fields (so that spreading it never overwrites a value with undefined). */
export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** JSON form for the state (Infinity is not JSON). */
export function optionsToJson(o: ResolvedCrawlOptions): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === Number.POSITIVE_INFINITY ? 'Infinity' : v]));
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
