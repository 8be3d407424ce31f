// **Pattern yield** learns, per URL pattern, whether fetches there gave RDF or RDF parents, and sends barren patterns back.
import type { LinkFeatures } from '../links/types.ts';
import { plainUrlPath } from './url-parts.ts';
import type { FetchedDocument, Judgement, LinkSource, ObservedPage, QueuedEntry, Strategy } from './types.ts';

/** Fetches of a pattern with no RDF and no RDF parent after which its links wait behind the others. Default: 8. */
export const BARREN_AFTER = 8;
/** Added to the priority of a barren pattern's links: behind every R/HR/H link of a fertile pattern, before N (10). */
export const BARREN_PENALTY = 5;
/** The rule recorded on a link sent back because its pattern is barren (thesis §9 metrics count it like any rule). */
export const BARREN_RULE = 'barren';
/** Patterns remembered; beyond it the model stops adding new ones (a crawl of 1M URLs has far fewer patterns). */
const MAX_PATTERNS = 100_000;

/** What the crawl has learned of one pattern: fetches, and how many were RDF or RDF parents. */
export interface PatternCounts {
  fetched: number;
  yielded: number;
}

/**
 * The pattern of a URL: host, directory path, and the last segment's extension (`http://a.org/tests/t-01.ttl` and
 * `…/tests/t-02.ttl` → `a.org/tests/*.ttl`; `…/tests/manifest#t1` → `a.org/tests/*`), plus `?` when it has a
 * query. Coarse on purpose: the hundreds of test IRIs a test-suite report names share one pattern. The thesis's
 * C_HR(t) learns RDF parents by URL similarity (thesis §5, rules r1/r2: same host and directory); this learns the
 * opposite, per the same key: where fetching gave nothing.
 */
export function patternOf(url: string): string {
  const plain = plainUrlPath(url); // most URLs: read from the string, as the parse below would give them
  if (plain !== null) return patternFrom(plain.host, plain.path, plain.hasQuery);
  const parsed = URL.parse(url);
  if (parsed === null) return url;
  return patternFrom(parsed.host, parsed.pathname, parsed.search !== '');
}

function patternFrom(host: string, path: string, hasQuery: boolean): string {
  const slash = path.lastIndexOf('/');
  const last = path.slice(slash + 1);
  const dot = last.lastIndexOf('.');
  const ext = dot > 0 && dot < last.length - 1 ? last.slice(dot).toLowerCase() : '';
  return `${host}${path.slice(0, slash + 1)}*${ext}${hasQuery ? '?' : ''}`;
}

/**
 * Per-pattern yield of the crawl so far (pure state: no I/O, no clock). `learn` counts each fetched document against
 * its URL's pattern, and a yield when it is RDF; an RDF document's parent page also yields for its pattern (it was an
 * RDF parent, thesis §5). A pattern is barren once `BARREN_AFTER` fetches yielded nothing.
 */
export class PatternYield {
  readonly #counts = new Map<string, PatternCounts>();

  learn(doc: FetchedDocument): void {
    this.#bump(patternOf(doc.url), 1, doc.type === 'rdf' ? 1 : 0);
    if (doc.type === 'rdf' && doc.parent !== null) this.#bump(patternOf(doc.parent), 0, 1);
  }

  /** Whether links of `url`'s pattern should wait: `BARREN_AFTER` fetches there, none RDF or an RDF parent. */
  isBarren(url: string): boolean {
    const c = this.#counts.get(patternOf(url));
    return c !== undefined && c.fetched >= BARREN_AFTER && c.yielded === 0;
  }

  countsOf(url: string): PatternCounts | undefined {
    return this.#counts.get(patternOf(url));
  }

  toJSON(): Array<[string, number, number]> {
    return [...this.#counts].map(([p, c]) => [p, c.fetched, c.yielded]);
  }

  static fromJSON(rows: ReadonlyArray<[string, number, number]>): PatternYield {
    const y = new PatternYield();
    for (const [p, fetched, yielded] of rows) y.#counts.set(p, { fetched, yielded });
    return y;
  }

  #bump(pattern: string, fetched: number, yielded: number): void {
    const c = this.#counts.get(pattern);
    if (c !== undefined) {
      c.fetched += fetched;
      c.yielded += yielded;
    } else if (this.#counts.size < MAX_PATTERNS) this.#counts.set(pattern, { fetched, yielded });
  }
}

/** Snapshot of a strategy wrapped by {@link withPatternYield}. */
interface WrappedSnapshot {
  patternYield: Array<[string, number, number]>;
  inner: unknown;
}

/**
 * A focused strategy that also learns per-pattern yield: a link whose pattern is barren keeps its
 * label but waits `BARREN_PENALTY` behind the others (when judged, or, if queued before, when its turn comes:
 * `reprioritise`), so a page naming hundreds of IRIs of one pattern (a test-suite
 * report) does not spend a PLD's budget on them all while other patterns still yield. The baseline (`bfs`) is
 * returned unchanged: it orders by depth alone; so is a strategy that learns barren links itself (`learnsBarren`).
 */
export function withPatternYield(inner: Strategy): Strategy {
  if (inner.name === 'bfs' || inner.learnsBarren === true) return inner;
  let model = new PatternYield();
  const wrapped: Strategy = {
    name: inner.name,
    seedPriority: inner.seedPriority,
    ...(inner.rejudgesOnLearn === undefined ? {} : { rejudgesOnLearn: inner.rejudgesOnLearn }),
    ...(inner.rejudgesRepeatedly === undefined ? {} : { rejudgesRepeatedly: inner.rejudgesRepeatedly }),
    ...(inner.followsHtmlVariants === undefined ? {} : { followsHtmlVariants: inner.followsHtmlVariants }),
    judge(link: LinkFeatures, source: LinkSource): Judgement {
      const j = inner.judge(link, source);
      if (j.priority === null || !model.isBarren(link.url)) return j;
      return { ...j, priority: j.priority + BARREN_PENALTY, rules: [...j.rules, BARREN_RULE] };
    },
    reprioritise(entry: QueuedEntry): number | null {
      if (entry.rules.includes(BARREN_RULE)) return null;
      if (model.isBarren(entry.url)) return entry.priority + BARREN_PENALTY;
      return inner.reprioritise?.(entry) ?? null; // the inner strategy's own second thoughts
    },
    learn(doc: FetchedDocument): void {
      model.learn(doc);
      inner.learn(doc);
    },
    snapshot: (): WrappedSnapshot => ({ patternYield: model.toJSON(), inner: inner.snapshot() }),
    restore(state: unknown): void {
      const s = state as Partial<WrappedSnapshot> | null;
      if (s !== null && typeof s === 'object' && Array.isArray(s.patternYield)) {
        model = PatternYield.fromJSON(s.patternYield);
        inner.restore(s.inner);
      } else inner.restore(state); // a snapshot from before the wrapper
    },
  };
  if (inner.observePage) wrapped.observePage = (page: ObservedPage) => inner.observePage?.(page);
  return wrapped;
}
