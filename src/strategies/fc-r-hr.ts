// **FC-R+HR**, the proposed crawler: Relevancy_R, then Relevancy_HR over the learned C_HR(t) (thesis §5, §6, §10).
import type { LinkFeatures } from '../links/types.ts';
import type { ConceptSets } from '../relevance/concepts.ts';
import { ParentSet } from '../relevance/relevancy-hr.ts';
import type { FetchedDocument, Judgement, LinkSource, Strategy } from '../relevance/types.ts';
import type { UrlParts } from '../relevance/url-parts.ts';
import { judgeBestFirst } from './best-first.ts';
import { PRIORITY, type StrategyOptions, type StrategySnapshot, checkSnapshot, resolveStrategyOptions } from './common.ts';

/** Snapshot of FC-R+HR: the known RDF parents C_HR(t), in learning order. */
export interface FcRHrSnapshot extends StrategySnapshot {
  parents: string[];
}

/**
 * FC-R+HR: NF; Relevancy_R; an `H` link similar to a known RDF parent by `r1`/`r2` is `HR`. Priorities R → 1,
 * HR → 2, H → 3, N → last (the thesis drops them). Learning: when a fetched document is RDF, its parent page joins C_HR(t).
 */
export class FcRHrStrategy implements Strategy {
  readonly name: string = 'fc-r+hr';
  readonly seedPriority = PRIORITY.seed;
  readonly rejudgesOnLearn = true;
  readonly #concepts: ConceptSets;
  #parents = new ParentSet();

  constructor(options?: StrategyOptions) {
    this.#concepts = resolveStrategyOptions(options).concepts;
  }

  /** The learned C_HR(t) (read-only use). */
  get parents(): ParentSet {
    return this.#parents;
  }

  judge(link: LinkFeatures, source: LinkSource): Judgement {
    return judgeBestFirst(link, source, this.#concepts, (parts) => this.parentRules(parts, this.#parents));
  }

  /** The rules by which a link is similar to a known RDF parent (thesis §5: r1, r2); subclasses change the test. */
  protected parentRules(parts: UrlParts, parents: ParentSet): string[] {
    return parents.similarityRules(parts);
  }


  /** Learning step (thesis §5): the parent of an RDF document is an RDF parent. */
  learn(doc: FetchedDocument): void {
    if (doc.type === 'rdf' && doc.parent !== null) this.#parents.add(doc.parent);
  }

  snapshot(): FcRHrSnapshot {
    return { strategy: this.name, version: 1, parents: this.#parents.toJSON() };
  }

  restore(state: unknown): void {
    const s = checkSnapshot<FcRHrSnapshot>(this.name, state);
    this.#parents = ParentSet.fromJSON(s?.parents ?? []);
  }
}
