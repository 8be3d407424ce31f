// **SimilarQueued** indexes queued H links by the URL keys of the thesis's r1/r2 rules, so that when C_HR(t) learns a
// new RDF parent the queued links similar to it can be judged again (thesis §5: Relevancy_HR at time t).
import { parseUrlParts } from '../relevance/url-parts.ts';
import type { Txn } from '../state/txn.ts';
import type { FrontierEntry, FrontierIndexOptions, NewEntry, QueuedLink, Rejudgement } from './types.ts';

export type { QueuedLink };

/**
 * r1 key: same host, same number of segments, same segments but the last (`/members/member1/` ~ `/members/member2/`).
 * r2 key: same host and path (the query differs). Null when the rule cannot hold for this URL (thesis §5: r1 needs
 * n > 1; r2 a non-null path).
 */
export function similarityKeys(url: string): string[] {
  const { host, segments } = parseUrlParts(url);
  if (host === '') return [];
  const keys: string[] = [];
  if (segments.length > 1) keys.push(`r1|${host}|${segments.length}|${segments.slice(0, -1).join('/')}`);
  if (segments.length > 0) keys.push(`r2|${host}|${segments.join('/')}`);
  return keys;
}

/**
 * Queued links by similarity key. Bounded: past `maxLinks` new links are not indexed (they keep the label they were
 * queued with, as in the thesis). In memory only: a resumed frontier rebuilds it from its queue (`indexQueued`).
 */
export class SimilarQueued {
  readonly #byKey = new Map<string, Map<string, QueuedLink>>();
  /**
   * The similarity keys of each indexed URL: every URL handed out is forgotten, most of them never indexed, and
   * recomputing its keys (a URL split and two strings) to find out was most of what the index cost fc-r+hr.
   */
  readonly #keysOf = new Map<string, readonly string[]>();
  readonly #maxLinks: number;

  constructor(maxLinks = 200_000) {
    this.#maxLinks = maxLinks;
  }

  get size(): number {
    return this.#keysOf.size;
  }

  /** Whether the bound is reached (further links are not indexed). */
  get full(): boolean {
    return this.#keysOf.size >= this.#maxLinks;
  }

  add(q: QueuedLink): void {
    if (this.full) return;
    const keys = this.#keysOf.get(q.url) ?? similarityKeys(q.url);
    if (keys.length === 0) return;
    for (const key of keys) {
      let bucket = this.#byKey.get(key);
      if (bucket === undefined) this.#byKey.set(key, (bucket = new Map()));
      bucket.set(q.url, q);
    }
    this.#keysOf.set(q.url, keys);
  }

  /** Forgets a link (handed out, or no longer a candidate). */
  delete(url: string): void {
    const keys = this.#keysOf.get(url);
    if (keys === undefined) return;
    this.#keysOf.delete(url);
    for (const key of keys) {
      const bucket = this.#byKey.get(key);
      if (bucket?.delete(url) && bucket.size === 0) this.#byKey.delete(key);
    }
  }

  /** Queued links that r1 or r2 could now find similar to `parentUrl` (each once; `parentUrl` itself excluded). */
  similarTo(parentUrl: string): QueuedLink[] {
    const out = new Map<string, QueuedLink>();
    for (const key of similarityKeys(parentUrl)) {
      for (const [url, q] of this.#byKey.get(key) ?? []) if (url !== parentUrl) out.set(url, q);
    }
    return [...out.values()];
  }
}

/**
 * The queued H links of `entries` (a frontier's queue, in order), indexed up to the bound, so that a resumed crawl
 * re-judges what an uninterrupted one would have.
 */
async function indexQueued(similar: SimilarQueued, entries: AsyncIterable<FrontierEntry>): Promise<void> {
  for await (const e of entries) {
    indexEntry(similar, e);
    if (similar.full) break;
  }
}

/** Indexes a queued entry if it is an H link found on a page (what `remember` would have been told). */
function indexEntry(similar: SimilarQueued, e: FrontierEntry): void {
  if (e.label !== 'H' || e.link === null || e.parent === null) return;
  const source = { url: e.parent, depth: e.depth - 1, type: e.link.tag === 'rdf' ? ('rdf' as const) : ('html' as const) };
  similar.add({ url: e.url, link: e.link, parent: e.parent, depth: e.depth, priority: e.priority, source });
}

/**
 * Judges the links of `similar` close to `parentUrl` again (thesis §5, C_HR at time t); those now more urgent are
 * handed to `add` (the frontier's own, staged in `txn`) with the new verdict, and leave the index — or, `repeatedly`,
 * stay in it with their new priority, to be made more urgent again by later learning.
 */
async function rejudgeSimilar(
  similar: SimilarQueued,
  parentUrl: string,
  judge: (q: QueuedLink) => Rejudgement,
  add: (entries: readonly NewEntry[], txn: Txn) => Promise<number>,
  txn: Txn,
  repeatedly = false,
): Promise<void> {
  const upgrades: NewEntry[] = [];
  for (const q of similar.similarTo(parentUrl)) {
    const j = judge(q);
    if (j.priority === null || j.priority >= q.priority) continue;
    upgrades.push({ url: q.url, parent: q.parent, depth: q.depth, priority: j.priority, label: j.label, rules: j.rules, link: q.link });
    if (repeatedly) q.priority = j.priority;
    else similar.delete(q.url);
  }
  if (upgrades.length > 0) await add(upgrades, txn);
}

/**
 * What every frontier backend shares for re-judging (thesis §5): the bounded index of queued H links, kept when the
 * frontier is opened with `rejudge: true`. A backend calls `handedOut(url)` from `next()` and `indexQueue()` once
 * opened (a resume re-indexes what its queue holds).
 */
export abstract class RejudgingFrontier {
  readonly #similar: SimilarQueued | null;

  constructor(opts: FrontierIndexOptions) {
    this.#similar = opts.rejudge ? new SimilarQueued() : null;
  }

  abstract add(entries: readonly NewEntry[], txn?: Txn): Promise<number>;
  abstract queued(): AsyncIterable<FrontierEntry>;

  remember(q: QueuedLink): void {
    this.#similar?.add(q);
  }

  async rejudgeSimilarTo(parentUrl: string, judge: (q: QueuedLink) => Rejudgement, txn: Txn, opts: { repeatedly?: boolean } = {}): Promise<void> {
    if (this.#similar !== null) await rejudgeSimilar(this.#similar, parentUrl, judge, (e, t) => this.add(e, t), txn, opts.repeatedly === true);
  }

  /** Rebuilds the index from the queue (after a resume). */
  protected async indexQueue(): Promise<void> {
    if (this.#similar !== null) await indexQueued(this.#similar, this.queued());
  }

  /** A link handed out leaves the index. */
  protected handedOut(url: string): void {
    this.#similar?.delete(url);
  }

  /**
   * An entry handed out is queued again (`retry()` committed: a back-off, or a strategy's second thoughts): as a
   * queued H link it is a candidate for re-judging again, as it would be after a resume.
   */
  protected putBack(entry: FrontierEntry): void {
    if (this.#similar !== null) indexEntry(this.#similar, entry);
  }
}
