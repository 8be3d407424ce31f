// **graphBody**: one document's quads as the N-Triples body of a Graph Store Protocol PUT (the named graph is in the URL).
import type { Quad } from '@rdfjs/types';
import { DataFactory, Writer } from 'n3';

/** The media type of {@link graphBody}'s output. */
export const GRAPH_BODY_TYPE = 'application/n-triples';

/**
 * Serialises quads as N-Triples, one line per distinct triple, dropping each quad's graph (the PUT names the graph:
 * SPARQL 1.1 GSP §5.3). Blank nodes keep their labels within the body, so the store sees the same graph shape.
 */
export function graphBody(quads: Iterable<Quad>): { body: string; triples: number } {
  const seen = new Set<string>();
  const lines: string[] = [];
  const writer = new Writer({ format: 'N-Triples' });
  for (const q of quads) {
    const line = writer.quadToString(q.subject, q.predicate, q.object, DataFactory.defaultGraph());
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  return { body: lines.join(''), triples: lines.length };
}
