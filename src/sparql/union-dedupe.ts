// **unionDedupe**: drops the repeats of a triple that several documents state, when the default graph is their merge.
import type { Quad, Term } from '@rdfjs/types';
import { termKey } from './term-codec.ts';

/** A quad position, as quadstore names them. */
export type TermName = 'subject' | 'predicate' | 'object' | 'graph';

/** Several terms as one exact key (each term's key length-prefixed, so no two term lists share a key). */
export function termsKey(terms: readonly Term[]): string {
  let key = '';
  for (const t of terms) {
    const k = termKey(t);
    key += `${k.length}:${k}`;
  }
  return key;
}

/**
 * A stateful filter over quads read in index `order` (quadstore's getStream answer) that keeps the first quad of
 * each distinct (subject, predicate, object) and drops the others: SPARQL 1.1 §13.1 makes the default graph of an
 * RDF dataset a graph, i.e. a set of triples, so the merge of all documents holds each triple once.
 *
 * The quads of one triple differ only in their graph, so they all lie in the same *run*: the quads that agree on
 * every position before `graph` in `order`. Only the current run's triples are remembered: with `graph` last in
 * the order (the SPOG index, used whenever the subject is bound or nothing is: covering-quadstore.ts) a run holds one
 * triple, so memory is O(1); otherwise (e.g. POGS for `?s rdf:type ?c`) it is the size of the run.
 */
export function unionDedupe(order: readonly TermName[]): (q: Quad) => boolean {
  const g = order.indexOf('graph');
  const before = order.slice(0, g === -1 ? order.length : g);
  const after = g === -1 ? [] : order.slice(g + 1);
  let run: string | null = null;
  let seen = new Set<string>();
  return (q: Quad): boolean => {
    const runKey = termsKey(before.map((name) => q[name]));
    if (runKey !== run) {
      run = runKey;
      seen = new Set();
    }
    const key = termsKey(after.map((name) => q[name]));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}
