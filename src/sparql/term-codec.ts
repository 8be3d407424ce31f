// **Term codec**: RDF terms as plain arrays, to cross between the query worker and the main thread (postMessage).
import type { DataFactory, Quad, Term } from '@rdfjs/types';

/** A term on the wire: [kind, value] or, for literals, [kind, value, language, datatype]. */
export type WireTerm = readonly [0 | 1 | 3, string] | readonly [2, string, string, string];
/** A quad on the wire: subject, predicate, object, graph. */
export type WireQuad = readonly [WireTerm, WireTerm, WireTerm, WireTerm];
/** A solution on the wire: one entry per variable of the head, null when unbound. */
export type WireRow = ReadonlyArray<WireTerm | null>;

const DEFAULT_GRAPH: WireTerm = [3, ''];

/** Encodes one term (variables and quoted triples are not produced by the queries we run). */
export function encodeTerm(term: Term): WireTerm {
  switch (term.termType) {
    case 'NamedNode':
      return [0, term.value];
    case 'BlankNode':
      return [1, term.value];
    case 'Literal':
      return [2, term.value, term.language, term.datatype.value];
    case 'DefaultGraph':
      return DEFAULT_GRAPH;
    default:
      throw new Error(`Cannot send a ${term.termType} term out of the query worker.`);
  }
}

/** Decodes one term with `df`. */
export function decodeTerm(wire: WireTerm, df: DataFactory): Term {
  switch (wire[0]) {
    case 0:
      return df.namedNode(wire[1]);
    case 1:
      return df.blankNode(wire[1]);
    case 2:
      return wire[2] !== '' ? df.literal(wire[1], wire[2]) : df.literal(wire[1], df.namedNode(wire[3]));
    default:
      return df.defaultGraph();
  }
}

export function encodeQuad(q: Quad): WireQuad {
  return [encodeTerm(q.subject), encodeTerm(q.predicate), encodeTerm(q.object), encodeTerm(q.graph)];
}

export function decodeQuad(wire: WireQuad, df: DataFactory): Quad {
  const [s, p, o, g] = wire.map((t) => decodeTerm(t, df));
  return df.quad(s as Quad['subject'], p as Quad['predicate'], o as Quad['object'], g as Quad['graph']);
}

/**
 * A string that identifies a term exactly (kind, value, language, datatype): equal keys ⇔ equal terms (RDF 1.1
 * term equality). Used to drop duplicate triples.
 */
export function termKey(term: Term): string {
  if (term.termType === 'Literal') return `"${term.value}"\u0000${term.language}\u0000${term.datatype.value}`;
  return `${term.termType === 'BlankNode' ? '_' : term.termType === 'NamedNode' ? '<' : '?'}${term.value}`;
}
