// **Relevancy_HR** predicts whether a link leads to an RDF parent, by similarity to the learned set C_HR(t) (thesis §5).
import { type UrlParts, parseUrlParts } from './url-parts.ts';

/** Component state (thesis §5): `=` equal, `#` different (both non-null), `n` both null, `#n` exactly one null. */
type ComponentState = '=' | '#' | 'n' | '#n';

/** How link i compares with a known parent j (thesis §5). */
export interface UrlComparison {
  sHost: ComponentState;
  sPath: ComponentState;
  /** Path segments of the longer path (file name included); n ≥ m after swapping. */
  n: number;
  /** Path segments of the shorter path. */
  m: number;
  /** Differing positions among the first m. */
  k: number;
  /** 0-based position of the last difference among the first m; -1 when none. */
  x: number;
}

function stateOf(a: string | null, b: string | null): ComponentState {
  if (a === null && b === null) return 'n';
  if (a === null || b === null) return '#n';
  return a === b ? '=' : '#';
}

/** Compares two URLs' host and path as thesis §5 does (a null path is `/`, i.e. no segments). Pure. */
export function compareUrlParts(i: UrlParts, j: UrlParts): UrlComparison {
  const pathOf = (p: UrlParts) => (p.segments.length === 0 ? null : p.segments.join('/'));
  const [longer, shorter] = i.segments.length >= j.segments.length ? [i.segments, j.segments] : [j.segments, i.segments];
  let k = 0;
  let x = -1;
  for (let p = 0; p < shorter.length; p++) {
    if (longer[p] !== shorter[p]) {
      k++;
      x = p;
    }
  }
  return {
    sHost: stateOf(i.host === '' ? null : i.host, j.host === '' ? null : j.host),
    sPath: stateOf(pathOf(i), pathOf(j)),
    n: longer.length,
    m: shorter.length,
    k,
    x,
  };
}

/** Rule r1 (thesis §5): same host; paths differ only in the last segment, n > 1 (`/members/member1/` ~ `/members/member2/`). */
export function matchesR1(c: UrlComparison): boolean {
  return c.sHost === '=' && c.sPath === '#' && c.n > 1 && c.n === c.m && c.k === 1 && c.x === c.n - 1;
}

/**
 * Rule r2 (thesis §5): same host and same (non-null) path, i.e. they differ only in the query. An identical URL
 * also satisfies it (ours: a known parent is trivially similar to itself).
 */
export function matchesR2(c: UrlComparison): boolean {
  return c.sHost === '=' && c.sPath === '=';
}

const dirKeyOf = (segments: readonly string[]) => `${segments.length}|${segments.slice(0, -1).join('/')}`;

/**
 * C_HR(t): the URLs of known RDF parents (thesis §5), indexed by host → (segment count, directory) → last segments,
 * so `r1`/`r2` look up only the few candidates that can match instead of scanning the whole set.
 */
export class ParentSet {
  readonly #urls = new Set<string>();
  readonly #byHost = new Map<string, Map<string, Set<string>>>();

  /** Number of known parents. */
  get size(): number {
    return this.#urls.size;
  }

  /** Learning step (thesis §5): adds a parent URL. Returns false when it was known already. */
  add(url: string): boolean {
    if (this.#urls.has(url)) return false;
    const parts = parseUrlParts(url);
    if (parts.host === '') return false;
    this.#urls.add(url);
    let dirs = this.#byHost.get(parts.host);
    if (dirs === undefined) this.#byHost.set(parts.host, (dirs = new Map()));
    const key = dirKeyOf(parts.segments);
    let lasts = dirs.get(key);
    if (lasts === undefined) dirs.set(key, (lasts = new Set()));
    lasts.add(parts.segments.at(-1) ?? '');
    return true;
  }

  has(url: string): boolean {
    return this.#urls.has(url);
  }

  /** The rules (`r1`, `r2`) by which a link is similar to some known parent; empty when none (thesis §5). */
  similarityRules(link: UrlParts): string[] {
    const lasts = this.#lastsOf(link);
    if (lasts === undefined || link.segments.length === 0) return [];
    const last = link.segments.at(-1)!;
    const rules: string[] = [];
    // r1: same host, same n and same first n−1 segments, a different last one (k = 1, x = n−1), n > 1.
    if (link.segments.length > 1 && (lasts.size > 1 || !lasts.has(last))) rules.push('r1');
    // r2: same host and the same non-null path.
    if (lasts.has(last)) rules.push('r2');
    return rules;
  }

  /**
   * Whether some known parent has the same host and exactly the same path segments (both possibly null). This is
   * the only way the [Hat10] distance can be ≤ 1 (see `hat10Distance`); used by FC-R+HR2.
   */
  hasSameHostAndPath(link: UrlParts): boolean {
    return this.#lastsOf(link)?.has(link.segments.at(-1) ?? '') ?? false;
  }

  /** The URLs, in the order learned (for snapshots). */
  toJSON(): string[] {
    return [...this.#urls];
  }

  /** Rebuilds a set from `toJSON()` output. */
  static fromJSON(urls: unknown): ParentSet {
    const set = new ParentSet();
    if (Array.isArray(urls)) for (const url of urls) if (typeof url === 'string') set.add(url);
    return set;
  }

  #lastsOf(link: UrlParts): Set<string> | undefined {
    return this.#byHost.get(link.host)?.get(dirKeyOf(link.segments));
  }
}
