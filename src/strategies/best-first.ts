// The best-first judgement shared by FC-R, FC-R+HR and FC-R+HR2: NF, Relevancy_R, then a parent predictor (thesis §6).
import type { LinkFeatures } from '../links/types.ts';
import type { ConceptSets } from '../relevance/concepts.ts';
import { type DerivedLinkFeatures, deriveLinkFeatures } from '../relevance/link-features.ts';
import { judgeRdfDocumentLink, judgeRelevancyR, type RVerdict } from '../relevance/relevancy-r.ts';
import type { Judgement, LinkSource } from '../relevance/types.ts';
import type { UrlParts } from '../relevance/url-parts.ts';
import { NF_DROPPED, PRIORITY, failsNf, priorityOfR } from './common.ts';

/** Rules by which a link is predicted an RDF parent (empty: not one). */
export type ParentPredictor = (parts: UrlParts) => string[];

/**
 * The combined relevancy of thesis Figure 3-2: NF drops known non-semantic extensions; Relevancy_R labels R/H/N
 * (links inside RDF documents by extension alone, §8.2); an `H` link the parent predictor recognises becomes `HR`.
 * Priorities R → 1, HR → 2, H → 3 (§6); N → last (10) rather than dropped.
 */
export function judgeBestFirst(link: LinkFeatures, source: LinkSource, concepts: ConceptSets, parents: ParentPredictor | null): Judgement {
  const fixed = fixedVerdict(link, source.type, concepts);
  if (fixed === null) return { ...NF_DROPPED, rules: [...NF_DROPPED.rules] };
  const { f, verdict } = fixed;
  switch (verdict.label) {
    case 'R':
      return { label: 'R', rules: [...verdict.rules], priority: priorityOfR(link, source) };
    case 'N':
      return { label: 'N', rules: [...verdict.rules], priority: PRIORITY.N };
    case 'H': {
      const rules = parents === null ? [] : parents(f.parts);
      if (rules.length > 0) return { label: 'HR', rules, priority: PRIORITY.HR };
      return { label: 'H', rules: [], priority: PRIORITY.H };
    }
  }
}

/** What NF and Relevancy_R say of a link: they read the link alone, so a re-judging (thesis §5, C_HR at time t) reuses it. */
interface FixedVerdict {
  readonly concepts: ConceptSets;
  readonly sourceType: LinkSource['type'];
  /** Null when NF drops the link. */
  readonly judged: { readonly f: DerivedLinkFeatures; readonly verdict: RVerdict } | null;
}

/**
 * Fixed verdicts of link objects judged before. A queued link is judged again each time an RDF document is found
 * under a similar page (yield: each time, FC-R+HR: until it is upgraded); NF's URL parsing and the R rules were half
 * of that work (a yield crawl of modern-like). Link objects are not changed once extracted.
 */
const FIXED = new WeakMap<LinkFeatures, FixedVerdict>();

function fixedVerdict(link: LinkFeatures, sourceType: LinkSource['type'], concepts: ConceptSets): FixedVerdict['judged'] {
  const known = FIXED.get(link);
  if (known !== undefined && known.concepts === concepts && known.sourceType === sourceType) return known.judged;
  let judged: FixedVerdict['judged'] = null;
  if (!failsNf(link, concepts)) {
    const f = deriveLinkFeatures(link);
    judged = { f, verdict: sourceType === 'rdf' ? judgeRdfDocumentLink(f, concepts) : judgeRelevancyR(f, concepts) };
  }
  FIXED.set(link, { concepts, sourceType, judged });
  return judged;
}
