// **negotiate** picks a result format from an HTTP Accept header (RFC 9110 §12.5.1), for each kind of result.
import { MEDIA_TYPES, type ResultFormat } from './format-results.ts';
import type { QueryResult } from './query-engine.ts';

/** What each format is called in Accept headers (first = canonical, from MEDIA_TYPES). */
const ACCEPTED: ReadonlyArray<[string, ResultFormat]> = [
  ...Object.entries(MEDIA_TYPES).map(([f, t]) => [t, f as ResultFormat] as [string, ResultFormat]),
  ['application/json', 'json'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['application/trig', 'nquads'],
  // graphs: RDF/XML under the generic XML types, JSON-LD under the generic JSON type (what SPARQL clients send)
  ['application/xml', 'rdfxml'],
  ['text/xml', 'rdfxml'],
  ['application/json', 'jsonld'],
];

/** Preference when the client accepts several (or anything). */
export const SERVER_ORDER: Readonly<Record<QueryResult['kind'], readonly ResultFormat[]>> = {
  bindings: ['json', 'xml', 'tsv', 'csv', 'table'],
  boolean: ['json', 'xml', 'tsv', 'csv', 'table'],
  quads: ['turtle', 'nquads', 'ntriples', 'rdfxml', 'jsonld', 'table'],
};

/** Picks the format for `accept` (q-values honoured; ties broken by the server's order); null when none fits. */
export function negotiate(accept: string | undefined, kind: QueryResult['kind']): ResultFormat | null {
  const candidates = SERVER_ORDER[kind];
  if (!accept || accept.trim() === '') return candidates[0] ?? null;
  const ranges = accept.split(',').map((part) => {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return { range, q: q ? Number(q.slice(2)) : 1 };
  });
  let best: ResultFormat | null = null;
  let bestQ = 0;
  for (const format of candidates) {
    for (const [type, f] of ACCEPTED) {
      if (f !== format) continue;
      const [major] = type.split('/');
      const q = Math.max(0, ...ranges.filter((r) => r.range === type || r.range === `${major}/*` || r.range === '*/*').map((r) => (Number.isFinite(r.q) ? r.q : 0)));
      if (q > bestQ) {
        best = format;
        bestQ = q;
      }
    }
  }
  return best;
}

