// The best-first judgement shared by FC-R, FC-R+HR and FC-R+HR2: NF, Relevancy_R, then a parent predictor (thesis §6).
import type { LinkFeatures } from '../../links/types.ts';
import type { ConceptSets } from '../concepts.ts';
import { deriveLinkFeatures } from '../link-features.ts';
import { judgeRdfDocumentLink, judgeRelevancyR } from '../relevancy-r.ts';
import type { Judgement, LinkSource } from '../types.ts';
import type { UrlParts } from '../url-parts.ts';
import { NF_DROPPED, PRIORITY, failsNf, priorityOfR } from './common.ts';

/** Rules by which a link is predicted an RDF parent (empty: not one). */
export type ParentPredictor = (parts: UrlParts) => string[];

/**
 * The combined relevancy of thesis Figure 3-2: NF drops known non-semantic extensions; Relevancy_R labels R/H/N
 * (links inside RDF documents by extension alone, §8.2); an `H` link the parent predictor recognises becomes `HR`.
 * Priorities R → 1, HR → 2, H → 3 (§6); N → last (10) rather than dropped (issue 16 item 4).
 */
export function judgeBestFirst(link: LinkFeatures, source: LinkSource, concepts: ConceptSets, parents: ParentPredictor | null): Judgement {
  if (failsNf(link, concepts)) return { ...NF_DROPPED, rules: [...NF_DROPPED.rules] };
  const f = deriveLinkFeatures(link);
  const verdict = source.type === 'rdf' ? judgeRdfDocumentLink(f, concepts) : judgeRelevancyR(f, concepts);
  switch (verdict.label) {
    case 'R':
      return { label: 'R', rules: verdict.rules, priority: priorityOfR(link, source) };
    case 'N':
      return { label: 'N', rules: verdict.rules, priority: PRIORITY.N };
    case 'H': {
      const rules = parents === null ? [] : parents(f.parts);
      if (rules.length > 0) return { label: 'HR', rules, priority: PRIORITY.HR };
      return { label: 'H', rules: [], priority: PRIORITY.H };
    }
  }
}
