// **docKey** names the values that hold one stored document: `graph\u0000nnnnnn`, one value per chunk, in order.

/** Separates the graph IRI from the chunk number (never part of an IRI, and sorts before every IRI character). */
const SEP = '\u0000';
/** The upper end of one graph's keys. */
const END = '\u0001';

/** The key of chunk `n` (0-based) of the document stored under `graphIri`. */
export function docKey(graphIri: string, n: number): string {
  return `${graphIri}${SEP}${String(n).padStart(6, '0')}`;
}

/** The key range of the chunks of `graphIri` from chunk `from` on. */
export function docKeyRange(graphIri: string, from = 0): { gte: string; lt: string } {
  return { gte: docKey(graphIri, from), lt: `${graphIri}${END}` };
}

/** The graph IRI of a document key. */
export function graphOfDocKey(key: string): string {
  const i = key.lastIndexOf(SEP);
  return i < 0 ? key : key.slice(0, i);
}
