// Pieces every crawl strategy shares: options, the thesis's priorities, snapshot checks (thesis §6, §8.2, §10).
import { RdfscoutError } from '../errors.ts';
import type { LinkFeatures } from '../links/types.ts';
import { type ConceptSets, defaultConceptSets } from '../relevance/concepts.ts';
import { isNonSemanticLink } from '../relevance/filters.ts';
import type { Judgement, LinkSource } from '../relevance/types.ts';

/** Options of every strategy. */
export interface StrategyOptions {
  /** Concept sets C_R and extension lists. Default: `data/concepts/` (`defaultConceptSets()`). */
  concepts?: ConceptSets;
}

/** Frontier priorities of thesis §6: R → 1, HR → 2, H → 3 (lower is more urgent); seeds get 0. */
/**
 * Queue priorities of the focused strategies (lower is sooner; thesis §6: R → 1, HR → 2, H → 3). `N` links, which the
 * thesis drops, wait behind everything else instead (every strategy reads the same documents, only
 * the order differs); NF-filtered links are still dropped by every strategy alike.
 */
export const PRIORITY = { seed: 0, R: 1, HR: 2, H: 3, N: 10 } as const;

/**
 * Priority of an `R` link found inside an RDF document through a predicate that is not one of
 * `PREFERRED_RDF_PREDICATES` (ours: preferred links stay at 1, the rest wait just behind them
 * but before every RDF parent).
 */
const RDF_LINK_OTHER_PRIORITY = 1.5;

/** Predicates whose objects most often are RDF documents (framework 2): preferred when following RDF links. */
const PREFERRED_RDF_PREDICATES: ReadonlySet<string> = new Set([
  'http://www.w3.org/2000/01/rdf-schema#seeAlso',
  'http://www.w3.org/2000/01/rdf-schema#isDefinedBy',
  'http://www.w3.org/2002/07/owl#sameAs',
  'http://www.w3.org/2002/07/owl#imports',
]);

/** Rule recorded when the link filter NF dropped a link. */
export const NF_RULE = 'nf';

/** The judgement of a link NF drops (thesis §7 step 3a). */
export const NF_DROPPED: Readonly<Judgement> = Object.freeze({ label: 'N', rules: Object.freeze([NF_RULE]) as string[], priority: null });

/** Resolves strategy options once. */
export function resolveStrategyOptions(options: StrategyOptions = {}): Required<StrategyOptions> {
  for (const key of Object.keys(options)) {
    if (key !== 'concepts') throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Unknown strategy option "${key}" (known: concepts).`);
  }
  return { concepts: options.concepts ?? defaultConceptSets() };
}

/** NF applied to a link (thesis §7). */
export function failsNf(link: LinkFeatures, concepts: ConceptSets): boolean {
  return isNonSemanticLink(link.url, concepts);
}

/** Priority of an `R` link: 1, except links inside RDF documents through a non-preferred predicate. */
export function priorityOfR(link: LinkFeatures, source: LinkSource): number {
  if (source.type !== 'rdf' || PREFERRED_RDF_PREDICATES.has(link.rel)) return PRIORITY.R;
  return RDF_LINK_OTHER_PRIORITY;
}

/** The common snapshot envelope: `{ strategy, version, ...state }`. */
export interface StrategySnapshot {
  strategy: string;
  version: 1;
}

/**
 * Checks a snapshot belongs to this strategy. `null`/`undefined` means "nothing learned yet" and returns null.
 * A snapshot of another strategy is refused: a resume must not mix what different crawlers learned.
 */
export function checkSnapshot<T extends StrategySnapshot>(name: string, state: unknown): T | null {
  if (state === null || state === undefined) return null;
  const s = state as Partial<StrategySnapshot>;
  if (typeof s !== 'object' || s.strategy !== name || s.version !== 1) {
    const found = typeof s === 'object' && typeof s.strategy === 'string' ? `"${s.strategy}"` : 'an unknown value';
    throw new RdfscoutError(
      'RDFSCOUT_RESUME_CONFLICT',
      `The saved learning state belongs to strategy ${found}, not "${name}". Resume with --strategy ${typeof s.strategy === 'string' ? s.strategy : name}, or crawl into a new folder.`,
    );
  }
  return state as T;
}
