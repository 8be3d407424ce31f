// **SimilarQueued** indexes queued H links by the URL keys of the thesis's r1/r2 rules, so that when C_HR(t) learns a
// new RDF parent the queued links similar to it can be judged again (thesis §5: Relevancy_HR at time t).
import type { LinkFeatures } from '../links/types.ts';
import { parseUrlParts } from '../relevance/url-parts.ts';
import type { LinkSource } from '../relevance/types.ts';

/** A queued link kept for a possible re-judgement. */
export interface QueuedLink {
  url: string;
  link: LinkFeatures;
  parent: string;
  depth: number;
  priority: number;
  source: LinkSource;
}

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
 * queued with, as in the thesis). In memory only: after a resume, links queued before it keep their labels.
 */
export class SimilarQueued {
  readonly #byKey = new Map<string, Map<string, QueuedLink>>();
  readonly #maxLinks: number;
  #size = 0;

  constructor(maxLinks = 200_000) {
    this.#maxLinks = maxLinks;
  }

  get size(): number {
    return this.#size;
  }

  /** Whether the bound is reached (further links are not indexed). */
  get full(): boolean {
    return this.#size >= this.#maxLinks;
  }

  add(q: QueuedLink): void {
    if (this.#size >= this.#maxLinks) return;
    let added = false;
    for (const key of similarityKeys(q.url)) {
      let bucket = this.#byKey.get(key);
      if (bucket === undefined) this.#byKey.set(key, (bucket = new Map()));
      if (!bucket.has(q.url)) added = true;
      bucket.set(q.url, q);
    }
    if (added) this.#size += 1;
  }

  /** Forgets a link (handed out, or no longer a candidate). */
  delete(url: string): void {
    let removed = false;
    for (const key of similarityKeys(url)) {
      const bucket = this.#byKey.get(key);
      if (bucket?.delete(url)) {
        removed = true;
        if (bucket.size === 0) this.#byKey.delete(key);
      }
    }
    if (removed) this.#size -= 1;
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
