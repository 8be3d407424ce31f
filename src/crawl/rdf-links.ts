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
export function rdfLinksOf(quads: Iterable<Quad>, documentUrl: string, max: number): LinkFeatures[] {
  const collector = new RdfLinkCollector(documentUrl, max);
  for (const q of quads) collector.add(q);
  return collector.links();
}

/**
 * {@link rdfLinksOf} one quad at a time, as the document is parsed (no array of its quads). It
 * keeps at most `max` links of each kind: once the other IRIs fill their share, later ones are not remembered, so
 * an IRI met there first may still come in later as the object of a preferred predicate.
 */
export class RdfLinkCollector {
  readonly #max: number;
  readonly #preferred: LinkFeatures[] = [];
  readonly #rest: LinkFeatures[] = [];
  readonly #seen: Set<string>;

  constructor(documentUrl: string, max: number) {
    this.#max = max;
    this.#seen = new Set([stripFragment(documentUrl)]);
  }

  add(q: Quad): void {
    if (this.#preferred.length >= this.#max) return; // the result is made of preferred links only now
    if (q.object.termType === 'NamedNode') this.#consider(q.object.value, q.predicate.value, PREFERRED.has(q.predicate.value));
    if (q.subject.termType === 'NamedNode') this.#consider(q.subject.value, q.predicate.value, false);
  }

  links(): LinkFeatures[] {
    return [...this.#preferred, ...this.#rest].slice(0, this.#max);
  }

  #consider(iri: string, rel: string, first: boolean): void {
    const list = first ? this.#preferred : this.#rest;
    if (list.length >= this.#max) return;
    if (!iri.startsWith('http://') && !iri.startsWith('https://')) return;
    if (isResolvedBlankNode(iri)) return; // `_:b1` in an RDFa href, resolved as a relative IRI
    const url = stripFragment(iri);
    if (this.#seen.has(url)) return;
    this.#seen.add(url);
    list.push({ url, tag: 'rdf', anchor: '', title: '', type: '', rel, context: '' });
  }
}

function stripFragment(iri: string): string {
  const i = iri.indexOf('#');
  try {
    return new URL(i === -1 ? iri : iri.slice(0, i)).href;
  } catch {
    return iri;
  }
}
