// **LinkYield**: the expected RDF documents per fetch of a kind of link, learned online over link clusters.
//
// Ours, after ACHE's online link classifier and Anthelion's bandit over link clusters, with the thesis's labels
// (thesis §4 Relevancy_R, §5 Relevancy_HR) as the prior. Pure: no I/O, state is plain data.
import { clusterIds, type LinkKeys } from './link-clusters.ts';
import type { Label } from './types.ts';

export { anchorShape, coarseTemplate, type LinkKeys, linkKeys, templateKey } from './link-clusters.ts';

/** Counts of one cluster: fetches, RDF documents fetched, and RDF expected below its pages (with the fetches it costs). */
interface Counts {
  n: number;
  rdf: number;
  below: number;
  belowCost: number;
}

/** Tuning knobs (chosen on the tuning profiles only). */
export interface LinkYieldOptions {
  /** Pseudo-fetches of the prior at every level of the cascade. Default 2. */
  strength?: number;
  /** Exploration bonus: `explore / sqrt(1 + fetches seen of the link's target and pair clusters)`. Default 0.1. */
  explore?: number;
  /** A page counts for the links on it whose expected yield is at least this (a crawler would fetch them). Default 0.3. */
  worth?: number;
  /** Weight of an RDF document found two levels below a page (three levels: its square). Default 0.5. */
  grandchild?: number;
  /** Links of one URL template that may wait for their fetch with the exploration bonus at a time. Default 2. */
  trials?: number;
  /**
   * Fetches of a URL template without RDF in or below them after which its links get no exploration bonus. Default 8
   * (not 4: on institute-like seed 1, where about one person page in three links a FOAF file, the first
   * people pages fetched had none, and the template's trials ended after 5 of its 300 pages).
   */
  barrenAfter?: number;
  /** A link counts toward what a page leads to only on the first page that listed it (`anticipate`). Default true. */
  claim?: boolean;
  /**
   * Levels above an RDF document that are credited for it (its page, the listing of that, …; level L gets
   * `grandchild`^(L − 1)). Default 5 (not 3: a staff directory is faculty → department → list → person → FOAF).
   */
  levels?: number;
  /**
   * What an RDF document found two or more levels below a page costs that page: with `steiner`, the fetches it adds
   * to the page's tree of paths to RDF (itself, and the pages between not yet on a path to an RDF document), as the
   * pattern oracle's true rate counts them (`templateValues`); without, `level` fetches each time, so a hub's rate
   * could not exceed 1 / level however much it led to (a staff directory's sections: 0.2 against 0.46 true on
   * institute-like seed 1). Default false: closer to the true rates there, but fewer RDF
   * documents on the tuning profiles (concurrency 1, 3 seeds: 5191 against 5220, portal-like 720 against 750).
   */
  steiner?: boolean;
  /**
   * Fetches of a URL template before `YieldStrategy.reprioritise` may send its queued links back (their estimate fell
   * since they were queued). A page's worth shows only as the RDF below it is fetched, levels later: after one fetch of
   * `/{x}` (`/research`, nothing below yet) the staff directory's `/staff` was sent back from 0.22 to 0.11, then 0.07,
   * and never fetched in 500 (institute-like seed 1). Default 2 (0 before, any: on the tuning profiles at
   * concurrency 1, 3 seeds, 2 gave institute-like +24%, campus-like −11%, total +0.1%; docs/research-notes.md).
   */
  sendBackAfter?: number;
}

/** A link's expected yield, and whether it includes the exploration bonus (then `noteTrial` should be told). */
export interface YieldEstimate {
  value: number;
  exploring: boolean;
}

/**
 * Prior yield of a link by its thesis label (thesis §6's order R → HR → H, as RDF documents per fetch): an `R` link
 * is RDF most of the time, an RDF parent leads to about one RDF document for two fetches, an `H` page seldom, `N`
 * (not dropped by NF, e.g. `.xml`/`.json`) rarely.
 */
export const YIELD_PRIOR: Readonly<Record<Label, number>> = { R: 0.7, HR: 0.5, H: 0.12, N: 0.04 };

/** Learned documents remembered for crediting RDF found below them (the oldest are forgotten). */
const MAX_PAGES = 50_000;
/** Links remembered as anticipated by the page that listed them first (the oldest are forgotten). */
const MAX_CLAIMED = 100_000;

/** JSON form of a `LinkYield`. */
export interface LinkYieldJson {
  clusters: Array<[string, number, number, number, number]>;
  trials: Array<[string, number]>;
  /** Links anticipated by the first page that listed them (absent in snapshots from before it was kept). */
  claimed?: Array<[string, string]>;
  pending: Array<[string, number, number]>;
  /** Learned documents: URL, clusters, expected and found below, parent, and whether it is on a path to RDF (`steiner`). */
  pages: Array<[string, readonly string[], number, number, string | null, boolean?]>;
}

/** A learned document: its clusters, the RDF anticipated below it, the RDF found below so far, where it was found. */
interface PageInfo {
  ids: readonly string[];
  expected: number;
  found: number;
  parent: string | null;
  /** An RDF document was found in or below it (its fetch is already in the cost of the pages above; `steiner`). */
  onPath: boolean;
}

/** A link found on a page, as `anticipate` reads it. */
export interface ChildLink {
  keys: LinkKeys;
  label: Label;
  /** Its URL: a link to a document fetched already is not anticipated (it adds nothing new). */
  url?: string;
}

/**
 * Online estimate of each link's RDF documents per fetch. Every link belongs to five clusters (its style, its
 * coarse and its exact URL template, its page's template with its style, and with its template). A cluster's rate is
 * (RDF fetched + RDF expected below its pages) / (its fetches + the fetches those cost): "a page counts for the RDF
 * it leads to". What a fetched page leads to is anticipated from its links when it is read: the sum of the
 * estimates of the links worth fetching (estimate ≥ `worth`), each costing one fetch — so a listing of RDF parents
 * is worth the parents' estimates, without waiting for them to be fetched. Estimates shrink from the thesis prior
 * through the cascade general → specific, each level weighted `strength` pseudo-fetches, plus an exploration bonus
 * for a few links of each seldom-fetched URL template.
 */
export class LinkYield {
  readonly #clusters = new Map<string, Counts>();
  /** What each page read but not yet learned leads to: expected RDF below and its cost in fetches. */
  readonly #pending = new Map<string, { below: number; cost: number }>();
  readonly #strength: number;
  readonly #explore: number;
  readonly #worth: number;
  readonly #grandchild: number;
  readonly #maxTrials: number;
  readonly #barrenAfter: number;
  readonly #claim: boolean;
  readonly #levels: number;
  readonly #steiner: boolean;
  readonly #sendBackAfter: number;
  /** Links already listed, with the first page that listed them (the one they are credited to). */
  readonly #claimed = new Map<string, string>();
  /** Links queued with the exploration bonus, per URL template. */
  readonly #trials = new Map<string, number>();
  /** Recently learned documents: their clusters, the RDF anticipated below them and the RDF found below so far. */
  readonly #pages = new Map<string, PageInfo>();

  constructor(options: LinkYieldOptions = {}) {
    this.#strength = options.strength ?? 2;
    this.#explore = options.explore ?? 0.1;
    this.#worth = options.worth ?? 0.3;
    this.#grandchild = options.grandchild ?? 0.5;
    this.#maxTrials = options.trials ?? 2;
    this.#barrenAfter = options.barrenAfter ?? 8;
    this.#claim = options.claim ?? true;
    this.#levels = options.levels ?? 5;
    this.#steiner = options.steiner ?? false;
    this.#sendBackAfter = options.sendBackAfter ?? 2;
  }

  /**
   * Expected RDF documents per fetch of a link with these keys and thesis label (the prior). With `explore`, a link
   * not labelled `N`, of a URL template with fewer than `trials` links waiting under the exploration bonus, gets the
   * bonus `explore / sqrt(1 + its fetches)` (a bandit's optimism, given to a few links of a template at a time: a
   * queued link keeps its priority, so optimism for every link of a new template would fetch them all before
   * learning) — until `barrenAfter` fetches of the template found no RDF in or below them: then it has had its trials.
   * With `explore = 'requeue'` (a queued link whose turn came), the bonus is given whatever the waiting trials, so a
   * link queued with it is compared with its template's optimism of now, not sent back for having had it.
   */
  estimate(keys: LinkKeys, label: Label, explore: boolean | 'requeue' = true): YieldEstimate {
    let est = YIELD_PRIOR[label];
    const ids = clusterIds(keys);
    let t: Counts | undefined;
    for (let i = 0; i < ids.length; i++) {
      const c = this.#clusters.get(ids[i] as string);
      if (i === 2) t = c; // the URL template's own cluster
      if (c === undefined) continue;
      est = (c.rdf + c.below + this.#strength * est) / (c.n + c.belowCost + this.#strength);
    }
    const fetched = t?.n ?? 0;
    if (t !== undefined && fetched >= this.#barrenAfter && t.rdf + t.below === 0) return { value: est, exploring: false };
    // No optimism for links the thesis's rules call N (`.xml`, `.json`, API records): a bonus would put them ahead
    // of every H page of unknown yield (prior 0.04 + bonus > 0.12), spending a fetch per new template on them.
    if (explore === false || label === 'N') return { value: est, exploring: false };
    if (explore === true && (this.#trials.get(keys.target) ?? 0) - fetched >= this.#maxTrials) return { value: est, exploring: false };
    return { value: est + this.#explore / Math.sqrt(1 + fetched), exploring: true };
  }

  /** Whether enough of this link's URL template was fetched to send a queued link of it back (`sendBackAfter`). */
  maySendBack(keys: LinkKeys): boolean {
    return (this.#clusters.get(clusterIds(keys)[2] as string)?.n ?? 0) >= this.#sendBackAfter;
  }

  /** Records that a link of this template was queued with the exploration bonus. */
  noteTrial(keys: LinkKeys): void {
    this.#trials.set(keys.target, (this.#trials.get(keys.target) ?? 0) + 1);
  }

  /**
   * Anticipates what page `url` leads to, from the links on it (before they are judged): the estimates of those
   * worth fetching, one fetch each. Credited to the page's clusters when the page itself is learned (`observe`).
   */
  anticipate(url: string, links: readonly ChildLink[]): void {
    let below = 0;
    let cost = 0;
    for (const l of links) {
      // A link fetched already leads to nothing new from here (the crawl fetches a URL once); with `claim`, neither
      // does one an earlier page listed (it is queued from there: a duplicate page, or a second listing of the same
      // datasets, would otherwise be credited again for RDF it does not lead to).
      if (l.url !== undefined && (this.#pages.has(l.url) || this.#pending.has(l.url) || this.#claimed.has(l.url))) continue;
      if (this.#claim && l.url !== undefined) {
        this.#claimed.set(l.url, url);
        if (this.#claimed.size > MAX_CLAIMED) this.#claimed.delete(this.#claimed.keys().next().value as string);
      }
      const y = this.estimate(l.keys, l.label, false).value;
      if (y < this.#worth) continue;
      below += y;
      cost += 1;
    }
    this.#pending.set(url, { below, cost });
  }

  /**
   * Learns one fetch: the link (its keys) was fetched from `parent` and landed on `urls` (the URL and the final URL)
   * as an RDF document, an HTML page, or anything else (an error, a file). A document adds what it was anticipated
   * to lead to; an RDF document found below a page beyond what was anticipated there adds one more (found, one fetch)
   * to that page's clusters, so the credit is max(anticipated, found).
   */
  observe(keys: LinkKeys, urls: readonly string[], fetchedFrom: string | null, kind: 'rdf' | 'page' | 'other'): void {
    // Credit goes to the first page that listed the link: the crawl's parent may be a later page that raised the
    // link's priority (a duplicate of the first, a second listing), which leads to nothing the first did not.
    const parent = (urls[0] === undefined ? undefined : this.#claimed.get(urls[0])) ?? fetchedFrom;
    let below = 0;
    let cost = 0;
    for (const u of urls) {
      const p = this.#pending.get(u);
      if (p === undefined) continue;
      this.#pending.delete(u);
      if (kind === 'other') continue;
      below += p.below;
      cost += p.cost;
    }
    const ids = clusterIds(keys);
    for (const id of ids) {
      const c = this.#counts(id);
      c.n += 1;
      if (kind === 'rdf') c.rdf += 1;
      c.below += below;
      c.belowCost += cost;
    }
    if (kind === 'rdf') this.#creditAncestors(parent);
    if (kind !== 'other') {
      const info: PageInfo = { ids, expected: below, found: 0, parent, onPath: kind === 'rdf' };
      for (const u of urls) this.#pages.set(u, info);
      while (this.#pages.size > MAX_PAGES) this.#pages.delete(this.#pages.keys().next().value as string);
    }
  }

  /**
   * An RDF document was found below `parent`: its page gets one more (found, one fetch) beyond what was anticipated
   * there, so the credit is max(anticipated, found); the pages above it get `grandchild`^(level − 1) for
   * level × that many fetches, up to `levels` levels (a listing of listings counts for what its listings lead to).
   */
  #creditAncestors(parent: string | null): void {
    let page = parent;
    // With `steiner`: fetches this document adds to the tree of paths to RDF below the page at this level (the
    // document, and the pages between it and that page that were on no path to RDF before).
    let added = 1;
    for (let level = 1; level <= this.#levels && page !== null; level++) {
      const info = this.#pages.get(page);
      if (info === undefined) return;
      // Level 1: the increment of max(anticipated, found) as one more is found.
      const w = level === 1 ? Math.max(++info.found, info.expected) - Math.max(info.found - 1, info.expected) : this.#grandchild ** (level - 1);
      if (w > 0) {
        const cost = this.#steiner ? added : level;
        for (const id of info.ids) {
          const c = this.#counts(id);
          c.below += w;
          c.belowCost += w * cost;
        }
      }
      if (!info.onPath) {
        info.onPath = true;
        added += 1;
      }
      page = info.parent;
    }
  }

  /** Counts of a cluster (for tests and reports): fetches, RDF fetched, expected RDF below, its cost. */
  counts(kind: 's' | 'c' | 't' | 'ps' | 'pt' | 'st', key: string): Readonly<Counts> | undefined {
    return this.#clusters.get(`${kind} ${key}`);
  }

  #counts(id: string): Counts {
    let c = this.#clusters.get(id);
    if (c === undefined) {
      c = { n: 0, rdf: 0, below: 0, belowCost: 0 };
      this.#clusters.set(id, c);
    }
    return c;
  }

  toJSON(): LinkYieldJson {
    return {
      clusters: [...this.#clusters].map(([id, c]) => [id, c.n, c.rdf, c.below, c.belowCost]),
      trials: [...this.#trials],
      claimed: [...this.#claimed],
      pending: [...this.#pending].map(([u, p]) => [u, p.below, p.cost]),
      pages: [...this.#pages].map(([u, p]) => [u, p.ids, p.expected, p.found, p.parent, p.onPath]),
    };
  }

  static fromJSON(json: LinkYieldJson, options?: LinkYieldOptions): LinkYield {
    const y = new LinkYield(options);
    for (const [id, n, rdf, below, belowCost] of json.clusters) y.#clusters.set(id, { n, rdf, below, belowCost });
    for (const [t, k] of json.trials) y.#trials.set(t, k);
    for (const [u, p] of json.claimed ?? []) y.#claimed.set(u, p);
    for (const [u, below, cost] of json.pending) y.#pending.set(u, { below, cost });
    for (const [u, ids, expected, found, parent, onPath] of json.pages) y.#pages.set(u, { ids, expected, found, parent, onPath: onPath ?? false });
    return y;
  }
}
