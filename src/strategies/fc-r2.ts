// **FC-R2**: best-first on the [Umb09] online association rules learned during the crawl (thesis §10).
import type { LinkFeatures } from '../links/types.ts';
import type { ConceptSets } from '../relevance/concepts.ts';
import { labelByExtension } from '../relevance/relevancy-r.ts';
import type { FetchedDocument, Judgement, LinkSource, Strategy } from '../relevance/types.ts';
import { Umb09KnowledgeBase } from '../relevance/umb09.ts';
import { parseUrlParts } from '../relevance/url-parts.ts';
import { NF_DROPPED, PRIORITY, type StrategyOptions, type StrategySnapshot, checkSnapshot, failsNf, resolveStrategyOptions } from './common.ts';

/** Relevance above which a link is predicted RDF (thesis §10). */
const UMB09_THRESHOLD = 0.5;

/** Snapshot of FC-R2: the knowledge base. */
export interface FcR2Snapshot extends StrategySnapshot {
  kb: ReturnType<Umb09KnowledgeBase['toJSON']>;
}

/**
 * FC-R2: NF; the first [Umb09] rule that applies (extension, then path words, then host+word) gives relevance
 * r = conf(feature ⇒ rdf). r > 0.5 → `R`, priority 1 + (1 − r) ∈ [1, 1.5) (queued by relevance). Otherwise the
 * link is `H` (priority 3) when the rule says HTML (conf > 0.5) or, unless the rule says "other" (conf > 0.5), when
 * it has an HTML extension or none; everything else is `N` and dropped (thesis §10, Figure 4-2 remark).
 * The same rules judge links inside RDF documents (ours: Umb09 reads only the URL anyway).
 * Learning: every document whose body was read updates the knowledge base with its real type.
 */
export class FcR2Strategy implements Strategy {
  readonly name = 'fc-r2';
  readonly seedPriority = PRIORITY.seed;
  readonly #concepts: ConceptSets;
  #kb = new Umb09KnowledgeBase();

  constructor(options?: StrategyOptions) {
    this.#concepts = resolveStrategyOptions(options).concepts;
  }

  get knowledgeBase(): Umb09KnowledgeBase {
    return this.#kb;
  }

  judge(link: LinkFeatures, _source: LinkSource): Judgement {
    if (failsNf(link, this.#concepts)) return { ...NF_DROPPED, rules: [...NF_DROPPED.rules] };
    const parts = parseUrlParts(link.url);
    const p = this.#kb.predict(parts);
    const rules = p.rule === null ? [] : [p.rule];
    if (p.relevance > UMB09_THRESHOLD) return { label: 'R', rules, priority: PRIORITY.R + (1 - p.relevance) };
    const saysOther = p.rule !== null && 1 - p.relevance - p.htmlConfidence > UMB09_THRESHOLD;
    if (p.htmlConfidence > UMB09_THRESHOLD || (!saysOther && labelByExtension(parts.extension, this.#concepts) === 'H')) {
      return { label: 'H', rules, priority: PRIORITY.H };
    }
    return { label: 'N', rules, priority: PRIORITY.N }; // last, not dropped
  }


  /** Updates the knowledge base with the document's real type (only when its body was read). */
  learn(doc: FetchedDocument): void {
    if (doc.type !== null) this.#kb.observe(parseUrlParts(doc.url), doc.type);
  }

  snapshot(): FcR2Snapshot {
    return { strategy: this.name, version: 1, kb: this.#kb.toJSON() };
  }

  restore(state: unknown): void {
    const s = checkSnapshot<FcR2Snapshot>(this.name, state);
    this.#kb = Umb09KnowledgeBase.fromJSON(s?.kb ?? null);
  }
}
