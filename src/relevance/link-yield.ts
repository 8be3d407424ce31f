// **LinkYield**: the expected RDF documents per fetch of a kind of link, learned online over link clusters (issue 17 item 2).
//
// Ours, after ACHE's online link classifier and Anthelion's bandit over link clusters, with the thesis's labels
// (thesis §4 Relevancy_R, §5 Relevancy_HR) as the prior. Pure: no I/O, state is plain data.
import type { LinkFeatures } from '../links/types.ts';
import { urlTemplate } from '../links/url-template.ts';
import type { Label } from './types.ts';

/** The cluster keys of one link, from what is known before fetching it. */
export interface LinkKeys {
  /** How the link is written: tag, rel, type, anchor shape and DOM context (`a||| go to resource|li.item a.btn`). */
  style: string;
  /** URL template of the link (`urlTemplate`). */
  target: string;
  /** URL template of the page it was found on ('' for seeds). */
  parent: string;
}

/** Counts of one cluster: fetches, RDF documents fetched, and RDF found below its pages (weighted, with its cost). */
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
  /** Weight of an RDF document two levels below a page (one level counts 1). Default 0.5. */
  grandchild?: number;
}

/**
 * Prior yield of a link by its thesis label (thesis §6's order R → HR → H, as RDF documents per fetch): an `R` link
 * is RDF most of the time, an RDF parent leads to about one RDF document for two fetches, an `H` page seldom, `N`
 * (not dropped by NF, e.g. `.xml`/`.json`) rarely.
 */
export const YIELD_PRIOR: Readonly<Record<Label, number>> = { R: 0.7, HR: 0.5, H: 0.12, N: 0.04 };

const FORMAT_ANCHOR_MAX_WORDS = 3;

/** The anchor as a cluster feature: short digit-free anchors as they are ("rdf", "personal profile"), others by length. */
export function anchorShape(anchor: string): string {
  const a = anchor.toLowerCase().trim();
  if (a === '') return '';
  const words = a.split(/\s+/).length;
  if (/\d/.test(a) || words > FORMAT_ANCHOR_MAX_WORDS || a.length > 30) return `#w${Math.min(words, 5)}`;
  return a;
}

/** Cluster keys of a link found on page `sourceUrl` (null for seeds). */
export function linkKeys(link: LinkFeatures, sourceUrl: string | null): LinkKeys {
  const style = [link.tag, link.rel.toLowerCase(), link.type.toLowerCase(), anchorShape(link.anchor), link.domPath ?? ''].join('|');
  return { style, target: urlTemplate(link.url), parent: sourceUrl === null ? '' : urlTemplate(sourceUrl) };
}

/** The four clusters a link belongs to, from general to specific (the shrinkage cascade's order). */
function clusterIds(k: LinkKeys): [string, string, string, string] {
  return [`s ${k.style}`, `t ${k.target}`, `ps ${k.parent} ${k.style}`, `pt ${k.parent} ${k.target}`];
}

/** JSON form of a `LinkYield`. */
export interface LinkYieldJson {
  clusters: Array<[string, number, number, number, number]>;
  pages: Array<[string, string, string, string, string, string | null]>;
}

/**
 * Online estimate of each link's RDF documents per fetch. Every link belongs to four clusters (its style, its URL
 * template, its page's template with its style, and with its template). A cluster's rate is
 * (RDF fetched + RDF found below its pages) / (its fetches + the fetches those cost), where an RDF document one
 * level below counts 1 (cost 1) and two levels below `grandchild` (cost 2 × `grandchild`): "a page counts for the
 * RDF it leads to". Estimates shrink from the thesis prior through the cascade general → specific, each level
 * weighted `strength` pseudo-fetches, plus a small exploration bonus for clusters seldom fetched.
 */
export class LinkYield {
  readonly #clusters = new Map<string, Counts>();
  /** Fetched pages (by URL and final URL): their clusters and parent, to credit RDF found below them. */
  readonly #pages = new Map<string, { ids: string[]; parent: string | null }>();
  readonly #strength: number;
  readonly #explore: number;
  readonly #grandchild: number;

  constructor(options: LinkYieldOptions = {}) {
    this.#strength = options.strength ?? 2;
    this.#explore = options.explore ?? 0.1;
    this.#grandchild = options.grandchild ?? 0.5;
  }

  /** Expected RDF documents per fetch of a link with these keys and thesis label (the prior). */
  estimate(keys: LinkKeys, label: Label): number {
    let est = YIELD_PRIOR[label];
    let seen = 0;
    for (const [i, id] of clusterIds(keys).entries()) {
      const c = this.#clusters.get(id);
      if (c === undefined) continue;
      const num = c.rdf + c.below;
      const den = c.n + c.belowCost;
      est = (num + this.#strength * est) / (den + this.#strength);
      if (i === 1 || i === 3) seen += c.n;
    }
    return est + this.#explore / Math.sqrt(1 + seen);
  }

  /**
   * Learns one fetch: the link (its keys) was fetched from `parent` and landed on `urls` (the URL and the final
   * URL) as an RDF document, an HTML page, or anything else (an error, a file). An RDF document credits its page
   * and its page's page.
   */
  observe(keys: LinkKeys, urls: readonly string[], parent: string | null, kind: 'rdf' | 'page' | 'other'): void {
    const rdf = kind === 'rdf';
    const ids = clusterIds(keys);
    for (const id of ids) {
      const c = this.#counts(id);
      c.n += 1;
      if (rdf) c.rdf += 1;
    }
    if (rdf) {
      let page = parent;
      for (let level = 1; level <= 2 && page !== null; level++) {
        const info = this.#pages.get(page);
        if (info === undefined) break;
        const w = level === 1 ? 1 : this.#grandchild;
        for (const id of info.ids) {
          const c = this.#counts(id);
          c.below += w;
          c.belowCost += w * level;
        }
        page = info.parent;
      }
    } else if (kind === 'page') {
      const info = { ids, parent };
      for (const u of urls) this.#pages.set(u, info);
    }
  }

  /** Counts of a cluster (for tests and reports): fetches, RDF fetched, weighted RDF below, its cost. */
  counts(kind: 's' | 't' | 'ps' | 'pt', key: string): Readonly<Counts> | undefined {
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
    const pages: LinkYieldJson['pages'] = [];
    for (const [url, p] of this.#pages) pages.push([url, ...(p.ids as [string, string, string, string]), p.parent]);
    return { clusters: [...this.#clusters].map(([id, c]) => [id, c.n, c.rdf, c.below, c.belowCost]), pages };
  }

  static fromJSON(json: LinkYieldJson, options?: LinkYieldOptions): LinkYield {
    const y = new LinkYield(options);
    for (const [id, n, rdf, below, belowCost] of json.clusters) y.#clusters.set(id, { n, rdf, below, belowCost });
    for (const [url, a, b, c, d, parent] of json.pages) y.#pages.set(url, { ids: [a, b, c, d], parent });
    return y;
  }
}
