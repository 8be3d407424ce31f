// **crawl-vocab** names the terms that describe crawl records as RDF, and turns a `CrawlRecord` into quads.
import type { DataFactory, NamedNode, Quad, Quad_Object } from '@rdfjs/types';
import type { CrawlRecord } from './record.ts';

/** Namespace of rdfscout's own terms (prefix `rs:`). See `src/sparql/VOCABULARY.md`. */
const RS = 'https://w3id.org/rdfscout/ns#';
/** PROV-O. */
const PROV = 'http://www.w3.org/ns/prov#';
/** HTTP Vocabulary in RDF 1.0 (W3C note). */
const HTTP = 'http://www.w3.org/2011/http#';
/** DCMI Metadata Terms. */
const DCTERMS = 'http://purl.org/dc/terms/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/**
 * The named graph that holds crawl metadata, kept apart from the document graphs (whose names are document URLs).
 * Queries reach it only with `GRAPH <urn:rdfscout:crawl> { … }`; it is not part of the default graph (see query-engine.ts).
 */
export const CRAWL_GRAPH = 'urn:rdfscout:crawl';

/** Prefixes for queries and Turtle output. */
export const CRAWL_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  rs: RS,
  prov: PROV,
  http: HTTP,
  dcterms: DCTERMS,
  xsd: XSD,
});

/** Every IRI the vocabulary uses, by short name (the table in VOCABULARY.md documents each). */
export const CRAWL_TERMS = Object.freeze({
  CrawledDocument: `${RS}CrawledDocument`,
  Redirect: `${RS}Redirect`,
  seq: `${RS}seq`,
  fetchedAt: `${PROV}generatedAtTime`,
  parent: `${PROV}wasDerivedFrom`,
  status: `${HTTP}statusCodeValue`,
  contentType: `${DCTERMS}format`,
  outcome: `${RS}outcome`,
  detectedType: `${RS}detectedType`,
  rdfFormat: `${RS}rdfFormat`,
  depth: `${RS}depth`,
  pld: `${RS}pld`,
  tripleCount: `${RS}tripleCount`,
  linksQueued: `${RS}linksQueued`,
  predictedLabel: `${RS}predictedLabel`,
  ruleFired: `${RS}ruleFired`,
  requestedUrl: `${RS}requestedUrl`,
  redirectHops: `${RS}redirectHops`,
  redirect: `${RS}redirect`,
  hopIndex: `${RS}hopIndex`,
  redirectFrom: `${RS}redirectFrom`,
  redirectTo: `${RS}redirectTo`,
  error: `${RS}error`,
  errorMessage: `${RS}errorMessage`,
  durationMs: `${RS}durationMs`,
});

/**
 * The IRI of one redirect hop of a record: `urn:rdfscout:redirect:<seq>:<hop>` (IRIs, not blank nodes, so hops never
 * merge). Over several shards read as one crawl, `seq` is `<shard>/<seq>` (shard = 1-based position of its folder).
 */
function redirectHopIri(seq: number | string, hop: number): string {
  return `urn:rdfscout:redirect:${seq}:${hop}`;
}

/**
 * The quads describing one fetch, all in {@link CRAWL_GRAPH}. The subject is the document's final URL after
 * redirects (`record.finalUrl`), the IRI the crawler names the document's graph with (and records parents by), so
 * that `GRAPH ?doc { … } GRAPH <urn:rdfscout:crawl> { ?doc prov:generatedAtTime ?t }` joins content to its fetch;
 * the URL asked for is `rs:requestedUrl`.
 * Absent values (null status, no parent, …) produce no quad. `hopSeq` names the record in its hops' IRIs. The crawl engine stages these in the same
 * transaction as the document's own quads.
 */
export function recordToQuads(record: CrawlRecord, df: DataFactory, hopSeq: number | string = record.seq): Quad[] {
  const graph = df.namedNode(CRAWL_GRAPH);
  const doc = df.namedNode(record.finalUrl);
  const out: Quad[] = [];
  const iri = (v: string): NamedNode => df.namedNode(v);
  const add = (predicate: string, object: Quad_Object, subject: NamedNode = doc): void => {
    out.push(df.quad(subject, iri(predicate), object, graph));
  };
  const int = (n: number): Quad_Object => df.literal(String(Math.trunc(n)), iri(`${XSD}integer`));
  const str = (s: string): Quad_Object => df.literal(s);
  const T = CRAWL_TERMS;

  add(RDF_TYPE, iri(T.CrawledDocument));
  add(T.seq, int(record.seq));
  add(T.fetchedAt, df.literal(record.fetchedAt, iri(`${XSD}dateTime`)));
  if (record.parent !== null) add(T.parent, iri(record.parent));
  if (record.status !== null) add(T.status, int(record.status));
  if (record.contentType !== null) add(T.contentType, str(record.contentType));
  add(T.outcome, str(record.outcome));
  if (record.detectedType !== null) add(T.detectedType, str(record.detectedType));
  if (record.rdfFormat !== null) add(T.rdfFormat, str(record.rdfFormat));
  add(T.depth, int(record.depth));
  add(T.pld, str(record.pld));
  add(T.tripleCount, int(record.triples));
  add(T.linksQueued, int(record.linksQueued));
  if (record.label !== null) add(T.predictedLabel, str(record.label));
  for (const rule of record.rules) add(T.ruleFired, str(rule));
  add(T.requestedUrl, iri(record.url));
  add(T.redirectHops, int(record.redirects.length));
  record.redirects.forEach((hop, i) => {
    const node = iri(redirectHopIri(hopSeq, i + 1));
    add(T.redirect, node);
    add(RDF_TYPE, iri(T.Redirect), node);
    add(T.hopIndex, int(i + 1), node);
    add(T.redirectFrom, iri(hop.from), node);
    add(T.redirectTo, iri(hop.to), node);
    add(T.status, int(hop.status), node);
  });
  if (record.error !== null) add(T.error, str(record.error));
  if (record.errorMessage !== null) add(T.errorMessage, str(record.errorMessage));
  add(T.durationMs, int(record.ms));
  return out;
}
