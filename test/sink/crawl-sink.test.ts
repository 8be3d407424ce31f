// `crawl --sink` against a real Virtuoso: the store ends up holding exactly the exported quads, graph by
// graph (blank nodes compared by isomorphism); documents the sink refused, or could not take while it was down, are
// kept and reach it when the crawl is resumed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Quad, Term } from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { startVirtuoso, type VirtuosoTestServer } from '../helpers/virtuoso-server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const { blankNode, defaultGraph, literal, namedNode, quad } = DataFactory;
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

let virtuoso: VirtuosoTestServer;
let web: SimWeb;
let gateway: TestServer;
let tmp: string;
/** What the gateway in front of Virtuoso does: pass, refuse some graphs (400), or act dead (reset every connection). */
let mode: { kind: 'pass' } | { kind: 'refuse'; graphs: (g: string) => boolean } | { kind: 'down' } = { kind: 'pass' };
/** PUTs the gateway let through to Virtuoso (counted when admitted). */
let passed = 0;
/** After this many PUTs let through, the sink goes down (the sink dying mid-crawl). */
let dieAfter = Number.POSITIVE_INFINITY;

/** Forwards a Graph Store request to Virtuoso, unless `mode` says otherwise. */
async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const graph = new URL(req.url ?? '/', 'http://x').searchParams.get('graph') ?? '';
  if (mode.kind === 'pass' && req.method === 'PUT') {
    if (passed >= dieAfter) mode = { kind: 'down' };
    else passed++;
  }
  if (mode.kind === 'down') return void req.socket.destroy();
  if (mode.kind === 'refuse' && mode.graphs(graph)) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('refused by the test gateway');
  const answer = await fetch(`${virtuoso.origin}${req.url}`, { method: req.method ?? 'GET', headers: { 'content-type': req.headers['content-type'] ?? 'text/plain' }, body: Buffer.concat(chunks) });
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' }).end(Buffer.from(await answer.arrayBuffer()));
}

const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  tmp = folder.dir;
  [virtuoso, web] = await Promise.all([startVirtuoso(), startSimweb({ profiles: 'thesis', seed: 3, scale: 0.1 })]);
  gateway = await startHttpServer(forward);
}, 180_000);

afterAll(async () => {
  await gateway?.close();
  await web?.close();
  await virtuoso?.stop();
}, 60_000);

const sinkUrl = () => `${gateway.origin}/sparql-graph-crud`;

/** `rdfscout crawl` of one simulated site with --sink; the JSON summary. */
async function crawl(out: string, site: number | string | null, maxDocs = 30): Promise<{ fetched: number; rdfDocuments: number; sink: { sent: number; pending: number; refused: Array<{ graph: string; status: number }>; unreachable: string | null } }> {
  const seeds = site === null ? [] : [typeof site === 'string' ? site : web.sites[site]!.startUrl];
  const res = await runCli(['crawl', ...seeds, '--out', out, '--proxy', web.proxyUrl, '--allow-private', '--delay-ms', '0', '--max-docs', String(maxDocs), '--sink', sinkUrl(), '--json', '--quiet']);
  expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(res.stdout);
}

/** The crawl's export, as quads grouped by graph (each graph's triples in the default graph). */
async function exported(out: string): Promise<Map<string, Quad[]>> {
  const res = await runCli(['export', out]);
  expect(res.code).toBe(0);
  const byGraph = new Map<string, Quad[]>();
  for (const q of new Parser({ format: 'N-Quads' }).parse(res.stdout)) {
    const list = byGraph.get(q.graph.value) ?? [];
    list.push(quad(q.subject, q.predicate, normalise(q.object), defaultGraph()));
    byGraph.set(q.graph.value, list);
  }
  return byGraph;
}

/** Literals compared as RDF 1.1 sees them: a plain literal is an xsd:string; language tags case-insensitively. */
function normalise(t: Term): Quad['object'] {
  if (t.termType !== 'Literal') return t as Quad['object'];
  if (t.language) return literal(t.value, t.language.toLowerCase());
  return t.datatype.value === XSD_STRING ? literal(t.value) : literal(t.value, t.datatype);
}

type Binding = { type: string; value: string; 'xml:lang'?: string; datatype?: string };
function termOf(b: Binding): Term {
  if (b.type === 'uri') return namedNode(b.value);
  if (b.type === 'bnode') return blankNode(b.value);
  return normalise(b['xml:lang'] ? literal(b.value, b['xml:lang']) : b.datatype ? literal(b.value, namedNode(b.datatype)) : literal(b.value));
}

async function sparql(query: string): Promise<Array<Record<string, Binding>>> {
  const res = await fetch(`${virtuoso.origin}/sparql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/sparql-results+json' } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: { bindings: Array<Record<string, Binding>> } }).results.bindings;
}

/** Every graph of one site's host in Virtuoso, with its triples. */
async function inStore(host: string): Promise<Map<string, Quad[]>> {
  const rows = await sparql(`SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "http://${host}/")) }`);
  const byGraph = new Map<string, Quad[]>();
  for (const r of rows) {
    const list = byGraph.get(r.g!.value) ?? [];
    list.push(quad(termOf(r.s!) as Quad['subject'], termOf(r.p!) as Quad['predicate'], termOf(r.o!) as Quad['object'], defaultGraph()));
    byGraph.set(r.g!.value, list);
  }
  return byGraph;
}

/** The store holds exactly the export: the same graphs, each isomorphic to the exported one. */
async function expectStoreHoldsExport(out: string, host: string): Promise<number> {
  const [want, got] = await Promise.all([exported(out), inStore(host)]);
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [graph, quads] of want) {
    const stored = got.get(graph) ?? [];
    expect({ graph, isomorphic: stored.length === quads.length && isomorphic(stored, quads) }).toEqual({ graph, isomorphic: true });
  }
  return want.size;
}

describe('crawl --sink on Virtuoso', { timeout: 240_000 }, () => {
  it('sends every stored document as its own named graph: the store holds exactly the exported quads', async () => {
    mode = { kind: 'pass' };
    const out = join(tmp, 'all');
    const summary = await crawl(out, 0);
    const graphs = await expectStoreHoldsExport(out, web.sites[0]!.host);
    expect(graphs).toBeGreaterThan(5);
    expect(summary.sink).toMatchObject({ sent: graphs, pending: 0, refused: [], unreachable: null });
  });

  it('keeps blank nodes: a document with nested blank nodes and a list is isomorphic in the store', async () => {
    mode = { kind: 'pass' };
    const ttl = `@prefix foaf: <http://xmlns.com/foaf/0.1/> .
<#me> foaf:name "Ann" ; foaf:knows [ foaf:name "B" ; foaf:knows [ foaf:name "C" ] ] , [ foaf:name "D" ] ;
  foaf:interest ( <#x> <#y> "z" ) .
[] foaf:name "anonymous"@EN-gb .
`;
    const html = '<!doctype html><html><head><title>t</title><script type="application/ld+json">{"@id":"#page","http://schema.org/author":{"http://schema.org/name":"E"}}</script></head><body><a href="/ann.ttl">ann</a></body></html>';
    const site = await startHttpServer((req, res) => {
      if (req.url === '/ann.ttl') return res.writeHead(200, { 'content-type': 'text/turtle' }).end(ttl);
      if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(html);
      return res.writeHead(404).end();
    });
    try {
      const out = join(tmp, 'blank');
      const res = await runCli(['crawl', `${site.origin}/`, '--out', out, '--allow-private', '--delay-ms', '0', '--sink', sinkUrl(), '--json', '--quiet']);
      expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(res.stdout).sink).toMatchObject({ sent: 2, pending: 0 });
      const blanks = [...(await exported(out)).values()].flat().filter((q) => q.subject.termType === 'BlankNode').length;
      expect(blanks).toBeGreaterThan(5);
      expect(await expectStoreHoldsExport(out, new URL(site.origin).host)).toBe(2);
    } finally {
      await site.close();
    }
  });

  it('reports the documents the sink refused (4xx) and sends them when the crawl is resumed', async () => {
    mode = { kind: 'refuse', graphs: (g) => g.length % 2 === 0 };
    const out = join(tmp, 'refused');
    const first = await crawl(out, 1);
    const refused = first.sink.refused.map((r) => r.graph);
    expect(refused.length).toBeGreaterThan(0);
    expect(first.sink.refused.every((r) => r.status === 400 && r.graph.length % 2 === 0)).toBe(true);
    expect(first.sink.pending).toBe(refused.length);
    mode = { kind: 'pass' };
    const resumed = await crawl(out, null, first.fetched); // the budget is spent: nothing is fetched, the sink catches up
    expect(resumed.sink).toMatchObject({ sent: refused.length, pending: 0, refused: [] });
    expect(resumed.fetched).toBe(first.fetched);
    await expectStoreHoldsExport(out, web.sites[1]!.host);
  });

  it('keeps the documents a sink that died mid-crawl did not take, and sends them on resume', async () => {
    mode = { kind: 'pass' };
    passed = 0;
    dieAfter = 3;
    const out = join(tmp, 'died');
    const first = await crawl(out, 2);
    expect(first.sink.sent).toBe(3);
    expect(first.sink.pending).toBeGreaterThan(0);
    expect(first.sink.unreachable).not.toBeNull();
    dieAfter = Number.POSITIVE_INFINITY;
    mode = { kind: 'pass' };
    const resumed = await crawl(out, null, first.fetched);
    expect(resumed.sink).toMatchObject({ sent: first.sink.pending, pending: 0, refused: [] });
    const graphs = await expectStoreHoldsExport(out, web.sites[2]!.host);
    expect(graphs).toBe(first.sink.sent + first.sink.pending);
  });
});
