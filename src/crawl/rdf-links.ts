// **rdfLinksOf** lists the IRIs inside an RDF document as links (thesis §8.2, framework 2), best predicates first.
import type { Quad } from '@rdfjs/types';
import { isResolvedBlankNode } from '../links/normalize-url.ts';
import { BEYOND_COUNTED } from '../links/extract-links.ts';
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
 * an IRI met there first may still come in later as the object of a preferred predicate. It also counts the distinct
 * IRIs left out ({@link beyond}), up to `maxBeyond`.
 */
export class RdfLinkCollector {
  readonly #max: number;
  readonly #preferred: LinkFeatures[] = [];
  readonly #rest: LinkFeatures[] = [];
  readonly #seen: Set<string>;
  /** Every distinct link IRI met (the document's own excluded), kept or not; bounded by `#maxFound`. */
  readonly #found: Set<string>;
  readonly #maxFound: number;
  /** IRIs as met, once counted (bounded too). */
  readonly #met = new Set<string>();
  readonly #maxBeyond: number;

  constructor(documentUrl: string, max: number, maxBeyond = BEYOND_COUNTED) {
    this.#max = max;
    this.#maxBeyond = maxBeyond;
    this.#maxFound = 2 * max + maxBeyond + 1; // the links kept are among them, and the document's own IRI
    const self = stripFragment(documentUrl);
    this.#seen = new Set([self]);
    this.#found = new Set([self]);
  }

  add(q: Quad): void {
    // Once the preferred links fill the result it is made of them only: later IRIs are only counted.
    const full = this.#preferred.length >= this.#max;
    if (full && this.#found.size >= this.#maxFound) return;
    if (q.object.termType === 'NamedNode') this.#consider(q.object.value, q.predicate.value, PREFERRED.has(q.predicate.value), full);
    if (q.subject.termType === 'NamedNode') this.#consider(q.subject.value, q.predicate.value, false, full);
  }

  links(): LinkFeatures[] {
    return [...this.#preferred, ...this.#rest].slice(0, this.#max);
  }

  /** Distinct link IRIs of the document not in {@link links} (those past `max`), at most `maxBeyond`. */
  beyond(): number {
    const kept = Math.min(this.#max, this.#preferred.length + this.#rest.length);
    return Math.min(this.#maxBeyond, this.#found.size - 1 - kept);
  }

  #consider(iri: string, rel: string, first: boolean, countOnly: boolean): void {
    if (!iri.startsWith('http://') && !iri.startsWith('https://')) return;
    if (isResolvedBlankNode(iri)) return; // `_:b1` in an RDFa href, resolved as a relative IRI
    const list = first ? this.#preferred : this.#rest;
    if (countOnly || list.length >= this.#max) {
      // Counted only: an IRI met again is not parsed again (stripFragment parses a URL).
      if (this.#found.size >= this.#maxFound || this.#met.has(iri)) return;
      if (this.#met.size < 4 * this.#maxFound) this.#met.add(iri);
      this.#found.add(stripFragment(iri));
      return;
    }
    const url = stripFragment(iri);
    if (this.#found.size < this.#maxFound) this.#found.add(url);
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
