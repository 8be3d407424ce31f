// Issue 16 item 8: CONSTRUCT/DESCRIBE as RDF/XML and JSON-LD, default-graph-uri / named-graph-uri, service description.
import type { Quad } from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/rdf/parse-document.ts';
import { type Endpoint, startEndpoint } from '../../src/sparql/endpoint.ts';
import { termToNt } from '../../src/sparql/format-results.ts';
import { DOC1, DOC2, EX, type Fixture, makeFixture, PREFIXES } from './fixture.ts';

let fx: Fixture;
let endpoint: Endpoint;
beforeAll(async () => {
  fx = await makeFixture();
  endpoint = await startEndpoint(fx.state, { port: 0 });
});
afterAll(async () => {
  await endpoint.close();
  await fx.cleanup();
});

const SD = 'http://www.w3.org/ns/sparql-service-description#';
const show = (q: Quad) => `${q.subject.termType === 'BlankNode' ? '_:b' : termToNt(q.subject)} ${termToNt(q.predicate)} ${q.object.termType === 'BlankNode' ? '_:b' : termToNt(q.object)}`;

async function get(params: Record<string, string | string[]>, accept?: string): Promise<Response> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) search.append(k, one);
  return fetch(`${endpoint.url}?${search}`, accept ? { headers: { Accept: accept } } : {});
}

/** Parses a response body with the crawler's own parsers (rdfxml-streaming-parser, jsonld-streaming-parser, N3). */
async function parsed(res: Response, mediaType: string): Promise<string[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain(mediaType);
  const doc = await parseDocument(await res.text(), { kind: 'rdf', mediaType }, 'http://base.example/');
  expect(doc.error).toBeNull();
  return doc.quads.map(show).sort();
}

async function names(res: Response): Promise<string[]> {
  expect(res.status).toBe(200);
  const body = (await res.json()) as { results: { bindings: Array<Record<string, { value: string }>> } };
  return body.results.bindings.map((b) => Object.values(b).map((t) => t.value).join(' ')).sort();
}

describe('the SPARQL protocol', () => {
  const construct = `${PREFIXES}CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${DOC1}> { ?s ?p ?o } }`;

  it('answers CONSTRUCT as RDF/XML and JSON-LD by Accept, the same triples as N-Triples', async () => {
    const nt = await parsed(await get({ query: construct }, 'application/n-triples'), 'application/n-triples');
    expect(nt).toHaveLength(6);
    expect(await parsed(await get({ query: construct }, 'application/rdf+xml'), 'application/rdf+xml')).toEqual(nt);
    expect(await parsed(await get({ query: construct }, 'application/ld+json'), 'application/ld+json')).toEqual(nt);
    // what generic clients send
    expect((await get({ query: construct }, 'application/xml')).headers.get('content-type')).toContain('application/rdf+xml');
    expect((await get({ query: construct }, 'application/json')).headers.get('content-type')).toContain('application/ld+json');
    const described = await parsed(await get({ query: `DESCRIBE <${EX}bob>` }, 'application/rdf+xml'), 'application/rdf+xml');
    expect(described).toEqual([`<${EX}bob> <http://xmlns.com/foaf/0.1/name> "Bob"`, `<${EX}bob> <${EX}tab> "a\\tb"`].sort());
  });

  it('takes the dataset from default-graph-uri and named-graph-uri (GET, and POST form)', async () => {
    const q = `${PREFIXES}SELECT ?n WHERE { ?s foaf:name ?n }`;
    expect(await names(await get({ query: q }))).toEqual(['Alice', 'Anon', 'Bob']);
    expect(await names(await get({ query: q, 'default-graph-uri': DOC2 }))).toEqual(['Alice', 'Bob']);
    expect(await names(await get({ query: q, 'default-graph-uri': [DOC1, DOC2] }))).toEqual(['Alice', 'Anon', 'Bob']); // merged: Alice once
    expect(await names(await get({ query: q, 'named-graph-uri': DOC1 }))).toEqual([]); // only named graphs: empty default graph
    const g = 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }';
    expect(await names(await get({ query: g, 'named-graph-uri': DOC1 }))).toEqual([DOC1]);
    expect(await names(await get({ query: `SELECT * WHERE { GRAPH <${DOC2}> { ?s ?p ?o } }`, 'named-graph-uri': DOC1 }))).toEqual([]);
    const form = new URLSearchParams({ query: q, 'default-graph-uri': DOC1 });
    const posted = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    expect(await names(posted)).toEqual(['Alice', 'Anon']);
    const bad = await get({ query: q, 'default-graph-uri': 'not an iri' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/not an absolute IRI/);
  });

  it('describes itself at GET /sparql without a query (SPARQL 1.1 Service Description), Turtle or RDF/XML', async () => {
    const ttl = await parsed(await fetch(endpoint.url), 'text/turtle');
    expect(ttl).toContain(`_:b <${SD}endpoint> <${endpoint.url}>`);
    expect(ttl).toContain(`_:b <${SD}feature> <${SD}UnionDefaultGraph>`);
    expect(ttl).toContain(`_:b <${SD}resultFormat> <http://www.w3.org/ns/formats/RDF_XML>`);
    const xml = await parsed(await fetch(endpoint.url, { headers: { Accept: 'application/rdf+xml' } }), 'application/rdf+xml');
    expect(xml).toEqual(ttl);
    expect((await fetch(endpoint.url, { headers: { Accept: 'image/png' } })).status).toBe(406);
  });
});
