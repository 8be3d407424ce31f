// **CoveringQuadstore**: quadstore over four SPARQL indexes instead of six; the two patterns none covers are read through one that covers part of them.
import type { Quad, Term } from '@rdfjs/types';
import { Quadstore } from 'quadstore';

type TermName = 'subject' | 'predicate' | 'object' | 'graph';
type Pattern = Parameters<Quadstore['getStream']>[0];
type GetOpts = NonNullable<Parameters<Quadstore['getStream']>[1]>;

/**
 * The indexes written for every quad (issue 18). Each costs one LevelDB key per quad, and indexing was the largest
 * cost of a bulk load (one scratch run, 240k quads: 19.3k quads per CPU second with quadstore's six, 27.2k with these
 * four). Their two-term prefixes cover SP, GS, PO and OG, and every set of one, three or four bound terms; the two
 * pairs left, SO and PG, are read through S (SPOG) and G (GSPO) and filtered (see {@link coverPattern}). The four are
 * among quadstore's default six, so a store written with six is read with these as it is.
 */
export const INDEXES: readonly (readonly TermName[])[] = [
  ['subject', 'predicate', 'object', 'graph'],
  ['graph', 'subject', 'predicate', 'object'],
  ['predicate', 'object', 'graph', 'subject'],
  ['object', 'graph', 'subject', 'predicate'],
];

const NAMES: readonly TermName[] = ['subject', 'predicate', 'object', 'graph'];

/**
 * Splits a pattern into the part an index reads as a key prefix (`covered`) and the bound terms left to filter
 * (`rest`): the index whose leading terms are all bound and most numerous wins, the first listed on a tie (SO → S via
 * SPOG, PG → G via GSPO: one document's quads, then the predicate). Quadstore reads a literal (or a range) only as
 * the last term of a prefix, so a prefix ends at one; a literal object bound with the graph alone (`GRAPH <g> { ?s ?p
 * 42 }`, which quadstore's six indexes refused) is read through G. A range is never left to filter.
 */
export function coverPattern(pattern: Pattern, indexes: readonly (readonly TermName[])[]): { covered: Pattern; rest: TermName[] } {
  const bound = NAMES.filter((n) => pattern[n] !== undefined && pattern[n] !== null);
  const isValue = (n: TermName): boolean => {
    const type = (pattern[n] as { termType: string }).termType;
    return type === 'Literal' || type === 'Range';
  };
  let best: readonly TermName[] = [];
  for (const index of indexes) {
    let k = 0;
    while (k < index.length && bound.includes(index[k] as TermName)) {
      k++;
      if (isValue(index[k - 1] as TermName)) break; // nothing can follow a literal in a key prefix
    }
    if (k > best.length) best = index.slice(0, k);
  }
  const rest = bound.filter((n) => !best.includes(n));
  if (rest.length === 0 || rest.some((n) => (pattern[n] as { termType: string }).termType === 'Range')) return { covered: pattern, rest: [] };
  const covered: Pattern = {};
  for (const n of best) (covered as Record<TermName, unknown>)[n] = pattern[n];
  return { covered, rest };
}

/** A Quadstore whose reads accept every pattern with {@link INDEXES}: an uncovered pair is read by its covered part, then filtered. */
export class CoveringQuadstore extends Quadstore {
  override async getStream(pattern: Pattern, opts: GetOpts = {}): ReturnType<Quadstore['getStream']> {
    const { covered, rest } = coverPattern(pattern, this.indexes.map((i) => i.terms));
    if (rest.length === 0) return super.getStream(pattern, opts);
    const { limit, ...unlimited } = opts;
    const result = await super.getStream(covered, unlimited);
    const want = rest.map((n) => [n, pattern[n] as Term] as const);
    let iterator = result.iterator.filter((q: Quad) => want.every(([n, t]) => q[n].equals(t)));
    if (limit !== undefined) iterator = iterator.take(limit);
    return { ...result, iterator };
  }

  /** An upper bound, as quadstore's own: the size of the covered part's key range. */
  override async getApproximateSize(pattern: Pattern, opts: GetOpts = {}): ReturnType<Quadstore['getApproximateSize']> {
    return super.getApproximateSize(coverPattern(pattern, this.indexes.map((i) => i.terms)).covered, opts);
  }
}
