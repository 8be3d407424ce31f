// **BC**, the breadth-first baseline: NF on links, CTF/EXF on documents, priority = depth (thesis §10).
import type { LinkFeatures } from '../links/types.ts';
import type { ConceptSets } from '../relevance/concepts.ts';
import { deriveLinkFeatures } from '../relevance/link-features.ts';
import { judgeRdfDocumentLink, judgeRelevancyR } from '../relevance/relevancy-r.ts';
import type { FetchedDocument, Judgement, LinkSource, Strategy } from '../relevance/types.ts';
import { NF_DROPPED, PRIORITY, type StrategyOptions, type StrategySnapshot, checkSnapshot, failsNf, resolveStrategyOptions } from './common.ts';

/**
 * BC: breadth-first. A link's priority is its depth (parent depth + 1), so the frontier's (priority, seq) order is
 * breadth-first. Only NF drops links. The label is Relevancy_R's, recorded for comparison in the metrics only
 * (ours): it never changes BC's order or selection.
 */
export class BfsStrategy implements Strategy {
  readonly name = 'bfs';
  readonly seedPriority = PRIORITY.seed;
  readonly #concepts: ConceptSets;

  constructor(options?: StrategyOptions) {
    this.#concepts = resolveStrategyOptions(options).concepts;
  }

  judge(link: LinkFeatures, source: LinkSource): Judgement {
    if (failsNf(link, this.#concepts)) return { ...NF_DROPPED, rules: [...NF_DROPPED.rules] };
    const f = deriveLinkFeatures(link);
    const verdict = source.type === 'rdf' ? judgeRdfDocumentLink(f, this.#concepts) : judgeRelevancyR(f, this.#concepts);
    return { label: verdict.label, rules: verdict.rules, priority: source.depth + 1 };
  }

  /** `judge`'s priority without its label: null when NF drops the link, else the depth. */
  priorityOf(link: LinkFeatures, source: LinkSource): number | null {
    return failsNf(link, this.#concepts) ? null : source.depth + 1;
  }


  learn(_doc: FetchedDocument): void {}

  snapshot(): StrategySnapshot {
    return { strategy: this.name, version: 1 };
  }

  restore(state: unknown): void {
    checkSnapshot(this.name, state);
  }
}
