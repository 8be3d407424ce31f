// **rdfLinksOf** lists the IRIs inside an RDF document as links (thesis §8.2, framework 2), best predicates first.
import type { Quad } from '@rdfjs/types';
import { isResolvedBlankNode } from '../links/normalize-url.ts';
import type { LinkFeatures } from '../links/types.ts';

/** Predicates that point at more Linked Data; their objects are queued before other IRIs. */
const PREFERRED = new Set([
  'http://www.w3.org/2000/01/rdf-schema#seeAlso',
  'http://www.w3.org/2002/07/owl#sameAs',
  'http://www.w3.org/2000/01/rdf-schema#isDefinedBy',
  'http://www.w3.org/2002/07/owl#imports',
  'http://rdfs.org/ns/void#dataDump',
]);

/**
 * The http(s) IRIs of a document's subjects and objects (fragments removed; the document itself excluded), with
 * the predicate in `rel`; objects of PREFERRED predicates first, then the rest in document order, at most `max`.
 */
export function rdfLinksOf(quads: readonly Quad[], documentUrl: string, max: number): LinkFeatures[] {
  const preferred: LinkFeatures[] = [];
  const rest: LinkFeatures[] = [];
  const seen = new Set<string>([stripFragment(documentUrl)]);
  const consider = (iri: string, rel: string, first: boolean) => {
    if (!iri.startsWith('http://') && !iri.startsWith('https://')) return;
    if (isResolvedBlankNode(iri)) return; // `_:b1` in an RDFa href, resolved as a relative IRI (issue 16 item 5)
    const url = stripFragment(iri);
    if (seen.has(url)) return;
    seen.add(url);
    (first ? preferred : rest).push({ url, tag: 'rdf', anchor: '', title: '', type: '', rel, context: '' });
  };
  for (const q of quads) {
    if (q.object.termType === 'NamedNode') consider(q.object.value, q.predicate.value, PREFERRED.has(q.predicate.value));
    if (q.subject.termType === 'NamedNode') consider(q.subject.value, q.predicate.value, false);
  }
  return [...preferred, ...rest].slice(0, max);
}

function stripFragment(iri: string): string {
  const i = iri.indexOf('#');
  try {
    return new URL(i === -1 ? iri : iri.slice(0, i)).href;
  } catch {
    return iri;
  }
}
