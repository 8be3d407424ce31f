// **FC-R+HR2**: Relevancy_R, then the [Hat10] URL distance to the learned RDF parents (thesis §10).
import type { LinkFeatures } from '../../links/types.ts';
import type { ConceptSets } from '../concepts.ts';
import { passesCtf } from '../filters.ts';
import { ParentSet } from '../relevancy-hr.ts';
import type { FetchedDocument, Judgement, Label, LinkSource, Strategy } from '../types.ts';
import { judgeBestFirst } from './best-first.ts';
import { PRIORITY, type StrategyOptions, type StrategySnapshot, checkSnapshot, resolveStrategyOptions } from './common.ts';

/** Rule recorded when [Hat10] predicts an RDF parent. */
export const HAT10_RULE = 'hat10';

/** Snapshot of FC-R+HR2: the known RDF parents, in learning order. */
export interface FcRHr2Snapshot extends StrategySnapshot {
  parents: string[];
}

/**
 * FC-R+HR2: as FC-R+HR, but an `H` link is `HR` when its [Hat10] distance to a known RDF parent is ≤ 1 (same host
 * and path; see `hat10.ts` for why the index lookup equals the distance test). Learns C_HR(t) as FC-R+HR does.
 */
export class FcRHr2Strategy implements Strategy {
  readonly name = 'fc-r+hr2';
  readonly seedPriority = PRIORITY.seed;
  readonly #concepts: ConceptSets;
  #parents = new ParentSet();

  constructor(options?: StrategyOptions) {
    this.#concepts = resolveStrategyOptions(options).concepts;
  }

  get parents(): ParentSet {
    return this.#parents;
  }

  judge(link: LinkFeatures, source: LinkSource): Judgement {
    return judgeBestFirst(link, source, this.#concepts, (parts) => (this.#parents.hasSameHostAndPath(parts) ? [HAT10_RULE] : []));
  }

  shouldRead(link: { url: string; label: Label | null }, contentType: string | null): boolean {
    return passesCtf(contentType, link.label, this.#concepts);
  }

  learn(doc: FetchedDocument): void {
    if (doc.type === 'rdf' && doc.parent !== null) this.#parents.add(doc.parent);
  }

  snapshot(): FcRHr2Snapshot {
    return { strategy: this.name, version: 1, parents: this.#parents.toJSON() };
  }

  restore(state: unknown): void {
    const s = checkSnapshot<FcRHr2Snapshot>(this.name, state);
    this.#parents = ParentSet.fromJSON(s?.parents ?? []);
  }
}
