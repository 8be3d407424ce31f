// **YIELD**: links ordered by their learned RDF documents per fetch, with FC-R+HR's labels as the prior.
import type { LinkFeatures } from '../links/types.ts';
import type { ConceptSets } from '../relevance/concepts.ts';
import { type ChildLink, type LinkKeys, LinkYield, type LinkYieldJson, type LinkYieldOptions, linkKeys, templateKey } from '../relevance/link-yield.ts';
import type { FetchedDocument, Judgement, LinkSource, ObservedPage, QueuedEntry, Strategy } from '../relevance/types.ts';
import { isHtmlVariant } from '../links/html-variant.ts';
import { NF_RULE, PRIORITY, type StrategyOptions, type StrategySnapshot, checkSnapshot, resolveStrategyOptions } from './common.ts';
import { FcRHrStrategy } from './fc-r-hr.ts';

/** Prefix of the rule that carries a link's style cluster to the record (so learning replays from records alone). */
export const YIELD_RULE_PREFIX = 'y:';

/** Factor on the expected yield of a resource's HTML variant (tuned on dbtune-like). */
export const VARIANT_DISCOUNT = 0.2;

/** Priority of a link with expected yield y: `YIELD_PRIORITY_TOP − y` (lower is more urgent; seeds 0, sitemaps 0.5). */
export const YIELD_PRIORITY_TOP = 2;

/**
 * A queued link whose expected yield fell by more than this since it was queued (RDF documents per fetch) waits
 * at its new estimate when its turn comes. The new estimate keeps the template's exploration bonus unless the
 * template was found barren (`LinkYield.estimate(…, 'requeue')`), so a trial is not sent back for being one and the
 * margin can be small: 0.1 (the first version's, at least the bonus) let links of templates found barren meanwhile be
 * fetched at 0.125 → 0.032 (campus-like); 0.03 was chosen on the tuning profiles (concurrency 1, 3 seeds).
 */
const REESTIMATE_MARGIN = 0.03;

/** Options of {@link YieldStrategy}: the crawl uses the defaults; tests and tuning runs pass variants. */
export interface YieldStrategyOptions extends StrategyOptions {
  /** Options of the learned model. Default: `LinkYield`'s defaults. */
  linkYield?: LinkYieldOptions;
  /** The send-back margin (RDF documents per fetch). Default: {@link REESTIMATE_MARGIN}. */
  margin?: number;
}

// Generic types that may hide RDF (RDF/XML as application/xml, Turtle as text/plain or octet-stream): read and sniff.

/** Priority of a link of expected yield `value` at `depth` (an HTML variant's yield discounted; ties: shallower first). */
function priorityOf(value: number, url: string, depth: number): number {
  // An HTML variant restates a resource whose RDF is in hand: it waits behind ordinary pages of unknown yield.
  return YIELD_PRIORITY_TOP - (isHtmlVariant(url) ? value * VARIANT_DISCOUNT : value) + (depth - 1) * 1e-4;
}

/** Snapshot of YIELD: FC-R+HR's parents and the learned clusters. */
export interface YieldSnapshot extends StrategySnapshot {
  parents: string[];
  yield: LinkYieldJson;
}

/**
 * YIELD (ours): each link gets FC-R+HR's label and rules (thesis §4–§6), then priority = 2 − its expected
 * RDF documents per fetch, learned online over four link clusters (style with DOM context, URL template, and both
 * paired with the page's template) with FC-R+HR's label as prior (`LinkYield`). Links FC-R+HR judges `N` but NF
 * keeps (`.xml`, `.json`) are kept at a low prior, and their generic-typed bodies are read and sniffed, so a site
 * serving RDF that way is learned. The HTML variant of a resource that negotiated to RDF (303) is judged too, so
 * it is fetched where such variants have led to RDF. Queued `H` links similar to a new RDF parent
 * are judged again, as in FC-R+HR.
 * Learning is a function of the records, so a resumed crawl replays it.
 */
export class YieldStrategy implements Strategy {
  readonly name = 'yield';
  readonly seedPriority = PRIORITY.seed;
  readonly rejudgesOnLearn = true;
  readonly rejudgesRepeatedly = true;
  /** HTML variants of negotiated resources are judged like any link; their yield is learned. */
  readonly followsHtmlVariants = true;
  /** Barren templates are learned here with the RDF found up to five levels below (pattern-yield would send listings back). */
  readonly learnsBarren = true;
  readonly #concepts: ConceptSets;
  readonly #base: FcRHrStrategy;
  readonly #options: LinkYieldOptions;
  readonly #margin: number;
  #yield: LinkYield;
  /** Cluster keys of the link objects judged so far (see `#keysOf`). */
  readonly #keys = new WeakMap<LinkFeatures, { sourceUrl: string | null; keys: LinkKeys }>();

  constructor(options: YieldStrategyOptions = {}) {
    const { linkYield = {}, margin = REESTIMATE_MARGIN, ...common } = options;
    this.#concepts = resolveStrategyOptions(common).concepts;
    this.#base = new FcRHrStrategy({ concepts: this.#concepts });
    this.#options = { ...linkYield };
    this.#margin = margin;
    this.#yield = new LinkYield(this.#options);
  }

  /** The learned cluster yields (read-only use). */
  get model(): LinkYield {
    return this.#yield;
  }

  judge(link: LinkFeatures, source: LinkSource): Judgement {
    const base = this.#baseJudge(link, source);
    if (base.priority === null && base.rules.includes(NF_RULE)) return base;
    const keys = this.#keysOf(link, source.url);
    const estimate = this.#yield.estimate(keys, base.label);
    if (estimate.exploring) this.#yield.noteTrial(keys);
    return { label: base.label, rules: [...base.rules, `${YIELD_RULE_PREFIX}${keys.style}`], priority: priorityOf(estimate.value, link.url, source.depth + 1) };
  }

  /**
   * The cluster keys of a link found on `sourceUrl`, made once per link object: a queued link is judged again each
   * time an RDF document is found under a similar page, and its URL templates were a third of that work.
   */
  #keysOf(link: LinkFeatures, sourceUrl: string | null): LinkKeys {
    const known = this.#keys.get(link);
    if (known !== undefined && known.sourceUrl === sourceUrl) return known.keys;
    const keys = linkKeys(link, sourceUrl);
    this.#keys.set(link, { sourceUrl, keys });
    return keys;
  }

  /**
   * When a queued link's turn comes: its expected yield again, from what was learned since it was queued (a link
   * keeps the priority it got, so a template found barren meanwhile would still be fetched). If it fell by more than
   * `REESTIMATE_MARGIN`, the link waits at its new priority. Seeds and links without a style rule are left alone.
   */
  reprioritise(entry: QueuedEntry): number | null {
    const rule = entry.rules.find((r) => r.startsWith(YIELD_RULE_PREFIX));
    if (rule === undefined || entry.label == null || entry.parent == null) return null;
    const keys = { style: rule.slice(YIELD_RULE_PREFIX.length), target: templateKey(entry.url), parent: templateKey(entry.parent) };
    if (!this.#yield.maySendBack(keys)) return null;
    const now = priorityOf(this.#yield.estimate(keys, entry.label, 'requeue').value, entry.url, entry.depth ?? 1);
    return now - entry.priority > this.#margin ? now : null;
  }

  /** FC-R+HR's verdict; an HTML variant is judged as the HTML link it is (not by the rules for IRIs in RDF, §8.2). */
  #baseJudge(link: LinkFeatures, source: LinkSource): Judgement {
    return this.#base.judge(link, link.tag === 'variant' ? { ...source, type: 'html' } : source);
  }


  learn(doc: FetchedDocument): void {
    this.#base.learn(doc);
    const rule = doc.rules.find((r) => r.startsWith(YIELD_RULE_PREFIX));
    const keys = {
      style: rule === undefined ? (doc.parent === null ? 'seed' : '') : rule.slice(YIELD_RULE_PREFIX.length),
      target: templateKey(doc.url),
      parent: doc.parent === null ? '' : templateKey(doc.parent),
    };
    const kind = doc.type === 'rdf' ? 'rdf' : doc.type === 'html' ? 'page' : 'other';
    this.#yield.observe(keys, doc.finalUrl === doc.url ? [doc.url] : [doc.url, doc.finalUrl], doc.parent, kind);
  }

  /** A read document's links tell what it leads to (`LinkYield.anticipate`), before they are judged. */
  observePage(page: ObservedPage): void {
    const source: LinkSource = { url: page.url, depth: page.depth, type: page.type === 'rdf' ? 'rdf' : 'html' };
    const links: ChildLink[] = [];
    for (const link of page.links) {
      const base = this.#baseJudge(link, source);
      if (base.priority === null && base.rules.includes(NF_RULE)) continue;
      links.push({ keys: this.#keysOf(link, page.url), label: base.label, url: link.url });
    }
    this.#yield.anticipate(page.url, links);
  }

  snapshot(): YieldSnapshot {
    return { strategy: this.name, version: 1, parents: this.#base.parents.toJSON(), yield: this.#yield.toJSON() };
  }

  restore(state: unknown): void {
    const s = checkSnapshot<YieldSnapshot>(this.name, state);
    this.#base.restore(s === null ? null : { strategy: this.#base.name, version: 1, parents: s.parents });
    this.#yield = s === null ? new LinkYield(this.#options) : LinkYield.fromJSON(s.yield, this.#options);
  }
}
