// **LocationScore** LR(v): how much a URL's path words and extension have gone with RDF so far (topical §2 LR).
import { pathTokens } from '../relevance/link-features.ts';
import { parseUrlParts } from '../relevance/url-parts.ts';

/** Serialised counts: `[feature, relevant, total]`. */
export type LocationScoreJson = [string, number, number][];

/** Features of a URL: its path words (`w:members`) and its extension (`x:rdf`, `x:` for none). */
export function locationFeatures(url: string): string[] {
  const parts = parseUrlParts(url);
  const words = new Set(pathTokens(parts).map((w) => `w:${w}`));
  return [...words, `x:${parts.extension ?? ''}`];
}

/**
 * LR(v) learned during the crawl (ours: topical §2 gives `.com` or `home` as examples of a location metric; we
 * learn which path words and extensions go with relevant documents). Every fetched document counts once, as
 * relevant (RDF or RDF parent) or not; a document that later turns out an RDF parent is moved over with
 * `relabel`. LR(v) is the mean, over v's features, of the m-estimate `(rel_f + m·prior) / (total_f + m)` with
 * m = 2 and `prior` the overall relevant rate: in [0, 1], the prior for unseen features. Pure state, O(features).
 */
export class LocationScore {
  #counts = new Map<string, [number, number]>();
  #relevant = 0;
  #total = 0;

  /** Counts a fetched document's URL as relevant or not. */
  observe(url: string, relevant: boolean): void {
    this.#total += 1;
    if (relevant) this.#relevant += 1;
    for (const f of locationFeatures(url)) {
      const c = this.#counts.get(f) ?? [0, 0];
      c[1] += 1;
      if (relevant) c[0] += 1;
      this.#counts.set(f, c);
    }
  }

  /** Moves a URL counted as not relevant over to relevant (it turned out an RDF parent). */
  relabel(url: string): void {
    this.#relevant += 1;
    for (const f of locationFeatures(url)) {
      const c = this.#counts.get(f);
      if (c !== undefined && c[0] < c[1]) c[0] += 1;
    }
  }

  /** The overall relevant rate (Laplace-smoothed), LR of a URL with no known feature. */
  get prior(): number {
    return (this.#relevant + 1) / (this.#total + 2);
  }

  /** LR(v) ∈ [0, 1]. */
  score(url: string): number {
    const prior = this.prior;
    const features = locationFeatures(url);
    let sum = 0;
    for (const f of features) {
      const c = this.#counts.get(f);
      sum += c === undefined ? prior : (c[0] + 2 * prior) / (c[1] + 2);
    }
    return sum / features.length;
  }

  toJSON(): { counts: LocationScoreJson; relevant: number; total: number } {
    return { counts: [...this.#counts].map(([f, [r, t]]) => [f, r, t]), relevant: this.#relevant, total: this.#total };
  }

  restoreFrom(json: { counts: LocationScoreJson; relevant: number; total: number } | null | undefined): void {
    if (!json) return;
    this.#counts = new Map(json.counts.map(([f, r, t]) => [f, [r, t]]));
    this.#relevant = json.relevant;
    this.#total = json.total;
  }
}
