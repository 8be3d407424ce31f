// **TfIdfFilter**: the collection filter F and the topical relevance IR(p, F), learned from the RDF "core" (topical §2, §3 step 1).
import { createRequire } from 'node:module';
import { PorterStemmer } from 'natural/lib/natural/stemmers/index.js';
import { TfIdf } from 'natural/lib/natural/tfidf/index.js';
import { WordTokenizer } from 'natural/lib/natural/tokenizers/index.js';
import { RdfscoutError } from '../errors.ts';

/** Options of `TfIdfFilter`. */
export interface TfIdfFilterOptions {
  /** N: how many highest-weighted core words make the filter F (topical §3 step 1). Default: 50. */
  size?: number;
  /** Refresh F after this many observed pages, when the core has grown since. Default: 50. */
  refreshEvery?: number;
  /** Background pages kept for idf (the most recent ones, FIFO). Default: 400. */
  backgroundPages?: number;
  /** Terms kept per page (its most frequent ones). Default: 100. */
  termsPerPage?: number;
  /** Link texts kept, by target URL, until the target is fetched (FIFO). Default: 20000. */
  linkTexts?: number;
  /** Most distinct words in the core; beyond it the least frequent half is pruned. Default: 5000. */
  coreTerms?: number;
}

/** Serialised filter state. */
export interface TfIdfFilterJson {
  core: [string, number][];
  coreLinks: string[];
  corePages: string[];
  pages: [string, [string, number][]][];
  links: [string, string[]][];
  filter: [string, number][];
  idf: [string, number][];
  docs: number;
  pagesSince: number;
  dirty: boolean;
}

const tokenizer = new WordTokenizer();
// natural's English stop words, loaded alone: `natural/lib/natural/util/index.js` pulls in storage backends (~1.2 s).
const STOP = new Set<string>(createRequire(import.meta.url)('natural/lib/natural/util/stopwords.js').words as string[]);
const stemCache = new Map<string, string>();

/** Words of a text as the filter sees them: natural's word tokeniser, lower case, stop words out, Porter stems. */
export function stemTerms(text: string): string[] {
  if (text === '') return [];
  const out: string[] = [];
  for (const raw of tokenizer.tokenize(text.toLowerCase())) {
    if (raw.length < 2 || STOP.has(raw) || !/[a-z]/.test(raw)) continue;
    let stem = stemCache.get(raw);
    if (stem === undefined) {
      if (stemCache.size > 200_000) stemCache.clear();
      stem = PorterStemmer.stem(raw);
      stemCache.set(raw, stem);
    }
    out.push(stem);
  }
  return out;
}

/** Term counts of a list of terms. */
function countTerms(terms: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** Entries by count (desc), then term (asc): a deterministic order. */
function byCount(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

/**
 * The collection filter of topical §3 step 1, learned during the crawl. The *core* is the text that led to RDF:
 * the anchor, title and context of links whose target turned out RDF (`addLinkToCore`) and the text of RDF
 * parents (`addPageToCore`). On refresh, natural's `TfIdf` weighs the core's words against a background of recent
 * pages; F is the N highest-weighted words, scaled to unit length. `score(text)` is IR(p, F) = Σ p_i · F_i with
 * `p_i = tf_i·idf_i / sqrt(Σ (tf_i·idf_i)²)` (topical §2): a cosine in [0, 1]. Between refreshes F and the idf
 * table are frozen, so scores are a pure function of the state (and round-trip through `toJSON`).
 * Memory is bounded by the options (background pages × terms, link texts, core words).
 */
export class TfIdfFilter {
  readonly #o: Required<TfIdfFilterOptions>;
  #core = new Map<string, number>();
  #coreLinks = new Set<string>();
  #corePages = new Set<string>();
  #pages = new Map<string, Map<string, number>>();
  #links = new Map<string, string[]>();
  #filter = new Map<string, number>();
  #idf = new Map<string, number>();
  #docs = 0;
  #pagesSince = 0;
  #dirty = false;

  constructor(options: TfIdfFilterOptions = {}) {
    const known = ['size', 'refreshEvery', 'backgroundPages', 'termsPerPage', 'linkTexts', 'coreTerms'];
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Unknown tf-idf filter option "${key}" (known: ${known.join(', ')}).`);
    }
    this.#o = Object.freeze({
      size: options.size ?? 50,
      refreshEvery: options.refreshEvery ?? 50,
      backgroundPages: options.backgroundPages ?? 400,
      termsPerPage: options.termsPerPage ?? 100,
      linkTexts: options.linkTexts ?? 20_000,
      coreTerms: options.coreTerms ?? 5000,
    });
  }

  /** The filter F: terms and weights (unit length), heaviest first. */
  get terms(): [string, number][] {
    return [...this.#filter];
  }

  /** Distinct words in the core. */
  get coreSize(): number {
    return this.#core.size;
  }

  /**
   * Remembers a fetched page: its most frequent terms (background for idf; the core if it turns out an RDF parent)
   * and the text of each link (the core if the target turns out RDF). Then refreshes F when due.
   */
  observePage(url: string, text: string, links: readonly { url: string; text: string }[]): void {
    const counts = [...countTerms(stemTerms(text))].sort(byCount).slice(0, this.#o.termsPerPage);
    this.#pages.delete(url);
    this.#pages.set(url, new Map(counts));
    while (this.#pages.size > this.#o.backgroundPages) this.#pages.delete(this.#pages.keys().next().value!);
    for (const link of links) {
      if (this.#links.has(link.url) || this.#coreLinks.has(link.url)) continue;
      this.#links.set(link.url, stemTerms(link.text).slice(0, 40));
    }
    while (this.#links.size > this.#o.linkTexts) this.#links.delete(this.#links.keys().next().value!);
    this.#pagesSince += 1;
    // The first filter is built as soon as there is a core; later ones every `refreshEvery` pages.
    if (this.#dirty && (this.#filter.size === 0 || this.#pagesSince >= this.#o.refreshEvery)) this.refresh();
  }

  /** Adds the text of the link that led to `url` to the core (once per URL). False when its text is unknown. */
  addLinkToCore(url: string): boolean {
    const terms = this.#links.get(url);
    if (terms === undefined || this.#coreLinks.has(url)) return false;
    this.#links.delete(url);
    this.#coreLinks.add(url);
    this.#addToCore(countTerms(terms));
    return true;
  }

  /** Adds a remembered page's text to the core (once per URL). False when the page is unknown or added already. */
  addPageToCore(url: string): boolean {
    const counts = this.#pages.get(url);
    if (counts === undefined || this.#corePages.has(url)) return false;
    this.#corePages.add(url);
    this.#addToCore(counts);
    return true;
  }

  /** Adds literal text to the core (e.g. the collection administrator's own core documents). */
  addTextToCore(text: string): void {
    this.#addToCore(countTerms(stemTerms(text)));
  }

  /**
   * Recomputes F and the idf table with natural's `TfIdf`: document 0 is the core, the others the background pages.
   * Cost O(D · V) for D documents of V kept terms (bounded by the options), once per `refreshEvery` pages.
   */
  refresh(): void {
    this.#pagesSince = 0;
    this.#dirty = false;
    if (this.#core.size === 0) return;
    const tfidf = new TfIdf();
    tfidf.addDocument(toDocument(this.#core) as never);
    for (const counts of this.#pages.values()) tfidf.addDocument(toDocument(counts) as never);
    const ranked = tfidf
      .listTerms(0)
      .map((t): [string, number] => [t.term, t.tfidf])
      .sort(byCount)
      .slice(0, this.#o.size);
    const norm = Math.sqrt(ranked.reduce((s, [, w]) => s + w * w, 0));
    this.#filter = new Map(norm > 0 ? ranked.map(([t, w]) => [t, w / norm]) : []);
    const vocabulary = new Set<string>(this.#core.keys());
    for (const counts of this.#pages.values()) for (const t of counts.keys()) vocabulary.add(t);
    this.#idf = new Map([...vocabulary].sort().map((t) => [t, tfidf.idf(t)]));
    this.#docs = tfidf.documents.length;
  }

  /** IR(p, F) of a text (topical §2): 0 before the first refresh or for a text without known words. */
  score(text: string): number {
    return this.scoreTerms(stemTerms(text));
  }

  /** IR(p, F) of already stemmed terms. */
  scoreTerms(terms: readonly string[]): number {
    if (this.#filter.size === 0 || terms.length === 0) return 0;
    const unseen = 1 + Math.log(this.#docs); // natural's idf of a term in no document: 1 + ln(D / (1 + 0))
    let dot = 0;
    let norm = 0;
    for (const [t, tf] of countTerms(terms)) {
      const w = tf * (this.#idf.get(t) ?? unseen);
      norm += w * w;
      dot += w * (this.#filter.get(t) ?? 0);
    }
    return norm > 0 ? Math.max(0, Math.min(1, dot / Math.sqrt(norm))) : 0;
  }

  toJSON(): TfIdfFilterJson {
    return {
      core: [...this.#core],
      coreLinks: [...this.#coreLinks],
      corePages: [...this.#corePages],
      pages: [...this.#pages].map(([url, counts]) => [url, [...counts]]),
      links: [...this.#links],
      filter: [...this.#filter],
      idf: [...this.#idf],
      docs: this.#docs,
      pagesSince: this.#pagesSince,
      dirty: this.#dirty,
    };
  }

  /** Restores a state saved by `toJSON()`. */
  restoreFrom(json: TfIdfFilterJson | null | undefined): void {
    if (!json) return;
    this.#core = new Map(json.core);
    this.#coreLinks = new Set(json.coreLinks);
    this.#corePages = new Set(json.corePages);
    this.#pages = new Map(json.pages.map(([url, counts]) => [url, new Map(counts)]));
    this.#links = new Map(json.links);
    this.#filter = new Map(json.filter);
    this.#idf = new Map(json.idf);
    this.#docs = json.docs;
    this.#pagesSince = json.pagesSince;
    this.#dirty = json.dirty;
  }

  #addToCore(counts: ReadonlyMap<string, number>): void {
    for (const [t, c] of counts) this.#core.set(t, (this.#core.get(t) ?? 0) + c);
    if (this.#core.size > this.#o.coreTerms) {
      this.#core = new Map([...this.#core].sort(byCount).slice(0, Math.floor(this.#o.coreTerms / 2)));
    }
    this.#dirty = true;
  }
}

/** A term-count map as a natural `TfIdf` document (a null-prototype record, so words like `constructor` are safe). */
function toDocument(counts: ReadonlyMap<string, number>): Record<string, number> {
  const doc = Object.create(null) as Record<string, number>;
  for (const [t, c] of counts) doc[t] = c;
  return doc;
}
