// The Graph Store Protocol sink against a real Virtuoso 7 (Debian's virtuoso-opensource): PUT graphs, read them back with SPARQL.
import type { Quad } from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphStoreSink } from '../../src/sink/graph-store-sink.ts';
import { startVirtuoso, type VirtuosoTestServer } from '../helpers/virtuoso-server.ts';

let virtuoso: VirtuosoTestServer;
let sink: GraphStoreSink;

beforeAll(async () => {
  virtuoso = await startVirtuoso();
  sink = new GraphStoreSink(`${virtuoso.origin}/sparql-graph-crud`, { attempts: 2, backoffMs: 10 });
}, 180_000);

afterAll(async () => {
  await virtuoso?.stop();
}, 60_000);

const TTL = `@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<#me> a foaf:Person ; foaf:name "Zoë 🙂 \\"Z\\"\\nline two" ; foaf:nick "zo"@en-GB ;
  foaf:age "42"^^xsd:integer ; foaf:birthday "1980-02-29"^^xsd:date ;
  foaf:knows <http://other.example/bob#me> , [ foaf:name "a blank friend" ] .
`;

/** A document's quads as the crawler stores them: parsed with its URL as base, in the named graph of that URL. */
function parseDoc(url: string, ttl: string): Quad[] {
  return new Parser({ baseIRI: url }).parse(ttl).map((q) => DataFactory.quad(q.subject, q.predicate, q.object, DataFactory.namedNode(url)));
}

type Binding = Record<string, { type: string; value: string; 'xml:lang'?: string; datatype?: string }>;

/** One term as a comparable string (blank nodes all read `_:b`: stores rename them). */
function termKey(t: { termType: string; value: string; language?: string; datatype?: { value: string } }): string {
  if (t.termType === 'BlankNode') return '_:b';
  if (t.termType === 'NamedNode') return `<${t.value}>`;
  const dt = t.datatype?.value;
  if (t.language) return `${JSON.stringify(t.value)}@${t.language.toLowerCase()}`;
  return dt && dt !== 'http://www.w3.org/2001/XMLSchema#string' ? `${JSON.stringify(t.value)}^^<${dt}>` : JSON.stringify(t.value);
}

function bindingTerm(b: Binding[string]): { termType: string; value: string; language?: string; datatype?: { value: string } } {
  if (b.type === 'uri') return { termType: 'NamedNode', value: b.value };
  if (b.type === 'bnode') return { termType: 'BlankNode', value: b.value };
  return { termType: 'Literal', value: b.value, language: b['xml:lang'], datatype: b.datatype === undefined ? undefined : { value: b.datatype } };
}

async function sparql(query: string): Promise<Binding[]> {
  const res = await fetch(`${virtuoso.origin}/sparql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/sparql-results+json' } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: { bindings: Binding[] } }).results.bindings;
}

/** The triples of a named graph in the store, as sorted comparable lines. */
async function graphInStore(graph: string): Promise<string[]> {
  const rows = await sparql(`SELECT ?s ?p ?o WHERE { GRAPH <${graph}> { ?s ?p ?o } }`);
  return rows.map((r) => [r.s!, r.p!, r.o!].map((b) => termKey(bindingTerm(b))).join(' ')).sort();
}

function expected(quads: Quad[]): string[] {
  return quads.map((q) => [q.subject, q.predicate, q.object].map(termKey).join(' ')).sort();
}

describe('GraphStoreSink on Virtuoso', () => {
  it('stores a document as one named graph that SPARQL reads back triple for triple', async () => {
    const url = 'http://data.example/people/zoe';
    const quads = parseDoc(url, TTL);
    const result = await sink.put(url, quads);
    expect(result).toMatchObject({ kind: 'stored', graph: url, triples: 8, attempts: 1 });
    expect(await graphInStore(url)).toEqual(expected(quads));
  });

  it('replaces the graph when a document is sent again (a resumed or re-fetched document)', async () => {
    const url = 'http://data.example/changing';
    await sink.put(url, parseDoc(url, '<#a> <http://p.example/v> "old", "older" .'));
    const now = parseDoc(url, '<#a> <http://p.example/v> "new" .');
    expect(await sink.put(url, now)).toMatchObject({ kind: 'stored' });
    expect(await graphInStore(url)).toEqual(expected(now));
  });

  it('empties the graph of a document that now has no triples', async () => {
    const url = 'http://data.example/emptied';
    await sink.put(url, parseDoc(url, '<#a> <http://p.example/v> "was here" .'));
    expect(await sink.put(url, [])).toMatchObject({ kind: 'stored', triples: 0 });
    expect(await graphInStore(url)).toEqual([]);
  });

  it('sends many documents concurrently and the store holds exactly their graphs', async () => {
    const docs = Array.from({ length: 25 }, (_, i) => {
      const url = `http://bulk.example/doc/${i}`;
      return { graph: url, quads: parseDoc(url, `<#d> <http://p.example/n> ${i} ; <http://p.example/next> <${i + 1}> .`) };
    });
    const report = await sink.putAll(docs, 4);
    expect(report).toEqual({ stored: 25, triples: 50, refused: [] });
    const graphs = await sparql('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "http://bulk.example/")) }');
    expect(graphs.map((r) => r.g!.value).sort()).toEqual(docs.map((d) => d.graph).sort());
    for (const d of docs.slice(0, 3)) expect(await graphInStore(d.graph)).toEqual(expected([...d.quads]));
  });

  it('reports a document the store refuses, with the store\'s reason, after its attempts', async () => {
    const report = await sink.putAll([{ graph: 'relative/graph', quads: parseDoc('http://x.example/', '<#a> <http://p.example/v> 1 .') }]);
    expect(report.stored).toBe(0);
    expect(report.refused).toEqual([
      expect.objectContaining({ kind: 'refused', graph: 'relative/graph', status: 500, attempts: 2, reason: expect.stringContaining('relative') }),
    ]);
  });
});
