// **FC-R**: best-first on Relevancy_R alone, no RDF-parent prediction (thesis §10).
import type { LinkFeatures } from '../links/types.ts';
import type { ConceptSets } from '../relevance/concepts.ts';
import type { FetchedDocument, Judgement, LinkSource, Strategy } from '../relevance/types.ts';
import { judgeBestFirst } from './best-first.ts';
import { PRIORITY, type StrategyOptions, type StrategySnapshot, checkSnapshot, resolveStrategyOptions } from './common.ts';

/** FC-R: NF, Relevancy_R (R → 1, H → 3, N → dropped), fetch filter CTF with the label. Learns nothing. */
export class FcRStrategy implements Strategy {
  readonly name = 'fc-r';
  readonly seedPriority = PRIORITY.seed;
  readonly #concepts: ConceptSets;

  constructor(options?: StrategyOptions) {
    this.#concepts = resolveStrategyOptions(options).concepts;
  }

  judge(link: LinkFeatures, source: LinkSource): Judgement {
    return judgeBestFirst(link, source, this.#concepts, null);
  }


  learn(_doc: FetchedDocument): void {}

  snapshot(): StrategySnapshot {
    return { strategy: this.name, version: 1 };
  }

  restore(state: unknown): void {
    checkSnapshot(this.name, state);
  }
}
