// **Crawl scope** decides whether a discovered link may be crawled at all: the seeds' PLDs, off-site hops, URL patterns.
import { ArgumentError } from '../errors.ts';
import { pldOf } from '../links/normalize-url.ts';

/**
 * What a crawl may leave its seeds for. Default: the seeds' PLDs only.
 * - `mode: 'seeds'`: links on the seeds' PLDs, plus at most `offsiteHops` hops through other PLDs (thesis §11 crawled
 *   one hop out: `offsiteHops: 1`);
 * - `mode: 'open'`: any PLD;
 * - `include`: when not empty, a link's URL must match one of these patterns; `exclude`: it must match none.
 */
export interface ScopeOptions {
  scope: 'seeds' | 'open';
  offsiteHops: number;
  include: readonly string[];
  exclude: readonly string[];
}

/** Compiled scope rules, with the seed PLDs they are relative to. */
export interface Scope {
  readonly mode: 'seeds' | 'open';
  readonly offsiteHops: number;
  readonly seedPlds: ReadonlySet<string>;
  readonly include: readonly RegExp[];
  readonly exclude: readonly RegExp[];
}

/** Why a link was not queued, as `links` and the crawl records say it (stable strings). */
type ScopeRefusal = 'out-of-scope' | 'excluded' | 'not-included';

/** Whether a link is in scope; when it is, how many off-site hops it is from the seeds' PLDs (0 on them). */
export type ScopeVerdict = { ok: true; hops: number } | { ok: false; reason: ScopeRefusal };

/**
 * A URL pattern, as `--include`/`--exclude` take it: `/regex/flags` is a JavaScript regular expression searched in
 * the URL; anything else is a glob matched against the whole URL, where `*` is any run of characters (`/` included)
 * and every other character is itself (`?` too, as URLs use it): `https://example.org/data/*`, `*.pdf`, `http://*.example.org/*`.
 * @throws ArgumentError for a regular expression that does not compile.
 */
export function compilePattern(pattern: string): RegExp {
  const regex = /^\/(.+)\/([dgimsuvy]*)$/s.exec(pattern);
  if (regex !== null) {
    try {
      return new RegExp(regex[1] as string, (regex[2] as string).replace('g', ''));
    } catch (err) {
      throw new ArgumentError(`URL pattern ${pattern} is not a valid regular expression: ${(err as Error).message}`);
    }
  }
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

/** Compiles scope options against the seed PLDs (validated by `resolveCrawlOptions`). */
export function compileScope(options: ScopeOptions, seedPlds: ReadonlySet<string>): Scope {
  return {
    mode: options.scope,
    offsiteHops: options.offsiteHops,
    seedPlds,
    include: options.include.map(compilePattern),
    exclude: options.exclude.map(compilePattern),
  };
}

/**
 * Judges a discovered link against the scope. `parentHops` is the off-site hop count of the page it was found on
 * (0 for pages on a seed PLD). A link on a seed PLD has 0 hops; any other link has one more than its parent, and is
 * in scope in `seeds` mode only while that stays ≤ `offsiteHops`. Patterns apply after: `exclude` wins over `include`.
 */
export function judgeScope(url: string, parentHops: number, scope: Scope): ScopeVerdict {
  const hops = scope.seedPlds.has(pldOf(url)) ? 0 : parentHops + 1;
  if (scope.mode === 'seeds' && hops > scope.offsiteHops) return { ok: false, reason: 'out-of-scope' };
  if (scope.exclude.some((re) => re.test(url))) return { ok: false, reason: 'excluded' };
  if (scope.include.length > 0 && !scope.include.some((re) => re.test(url))) return { ok: false, reason: 'not-included' };
  return { ok: true, hops };
}

/** The off-site hop count of a queued page: stored on the entry, or (entries queued before it was) 0/1 by its PLD. */
export function hopsOf(entry: { url: string; offsiteHops?: number }, seedPlds: ReadonlySet<string>): number {
  return entry.offsiteHops ?? (seedPlds.has(pldOf(entry.url)) ? 0 : 1);
}
