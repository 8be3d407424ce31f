import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryEngine as RemoteClient } from '@comunica/query-sparql';
import type { Term } from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, startEndpoint } from '../../src/sparql/endpoint.ts';
import { termToNt } from '../../src/sparql/format-results.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import { addHeavyGraph, DOC1, EX, type Fixture, makeFixture, PREFIXES, TRICKY } from './fixture.ts';

let fx: Fixture;
let endpoint: Endpoint;
beforeAll(async () => {
  fx = await makeFixture();
  await addHeavyGraph(fx.state);
  endpoint = await startEndpoint(fx.state, { port: 0 });
});
afterAll(async () => {
  await endpoint.close();
  await fx.cleanup();
});

/** Rows as sorted canonical strings (blank node labels differ between engines, so they are masked). */
function canon(rows: Array<Record<string, Term>>): string[] {
  const show = (t: Term) => (t.termType === 'BlankNode' ? '_:b' : termToNt(t));
  return rows.map((r) => Object.keys(r).sort().map((k) => `${k}=${show(r[k] as Term)}`).join(' ')).sort();
}

async function local(sparql: string): Promise<string[] | boolean> {
  const r = await runQuery(fx.state, sparql);
  if (r.kind === 'boolean') return r.value;
  const out: Array<Record<string, Term>> = [];
  if (r.kind === 'bindings') for await (const row of r.rows) out.push({ ...row });
  else for await (const q of r.quads) out.push({ s: q.subject, p: q.predicate, o: q.object });
  return canon(out);
}

async function remote(sparql: string): Promise<string[] | boolean> {
  const client = new RemoteClient();
  const context = { sources: [{ type: 'sparql', value: endpoint.url }] } as never;
  const r = await client.query(sparql, context);
  if (r.resultType === 'boolean') return r.execute();
  const out: Array<Record<string, Term>> = [];
  if (r.resultType === 'bindings') {
    for await (const b of await r.execute()) out.push(Object.fromEntries([...b].map(([k, v]) => [k.value, v])));
  } else if (r.resultType === 'quads') {
    for await (const q of await r.execute()) out.push({ s: q.subject, p: q.predicate, o: q.object });
  }
  return canon(out);
}

describe('SPARQL endpoint, queried by Comunica (a client nobody here wrote)', () => {
  const queries = [
    `${PREFIXES}SELECT ?s ?name WHERE { ?s foaf:name ?name }`,
    `${PREFIXES}SELECT ?note ?age WHERE { ex:alice ex:note ?note ; ex:age ?age }`,
    `${PREFIXES}SELECT ?doc WHERE { GRAPH ?doc { ex:alice foaf:name "Alice" } }`,
    `${PREFIXES}SELECT ?doc ?status ?parent WHERE { GRAPH <urn:rdfscout:crawl> { ?doc http:statusCodeValue ?status OPTIONAL { ?doc prov:wasDerivedFrom ?parent } } }`,
    `${PREFIXES}SELECT ?x WHERE { ex:alice ex:friend ?x }`,
    `${PREFIXES}ASK { ex:alice foaf:knows ex:bob }`,
    `${PREFIXES}ASK { ex:bob foaf:knows ex:alice }`,
    `${PREFIXES}CONSTRUCT { ?b foaf:knownBy ?a } WHERE { ?a foaf:knows ?b }`,
  ];
  for (const q of queries) {
    it(`answers as runQuery does: ${q.slice(PREFIXES.length, PREFIXES.length + 70)}`, async () => {
      const [mine, theirs] = await Promise.all([local(q), remote(q)]);
      expect(theirs).toEqual(mine);
      if (Array.isArray(mine)) expect(mine.length).toBeGreaterThan(0);
    });
  }
  it('has the tricky literal intact over the wire', async () => {
    const rows = await remote(`${PREFIXES}SELECT ?note WHERE { ex:alice ex:note ?note }`);
    expect(rows).toEqual([`note="${TRICKY.replaceAll('"', '\\"').replace('\n', '\\n')}"@en`]);
  });
});

describe('SPARQL 1.1 Protocol over HTTP', () => {
  const q = `${PREFIXES}SELECT ?name WHERE { GRAPH <${DOC1}> { ex:alice foaf:name ?name } }`;

  it('answers GET ?query= with SPARQL JSON by default', async () => {
    const res = await fetch(`${endpoint.url}?query=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/sparql-results\+json/);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await res.json()) as { results: { bindings: unknown } }).results.bindings).toEqual([{ name: { type: 'literal', value: 'Alice' } }]);
  });

  it('answers POST application/sparql-query, negotiating CSV', async () => {
    const res = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/sparql-query', accept: 'text/csv' }, body: q });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await res.text()).toBe('name\r\nAlice\r\n');
  });

  it('answers POST form-encoded, negotiating TSV by q-value', async () => {
    const res = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json;q=0.5, text/tab-separated-values' },
      body: new URLSearchParams({ query: q }).toString(),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/tab-separated-values/);
    expect(await res.text()).toBe('?name\n"Alice"\n');
  });

  it('negotiates graph formats for CONSTRUCT and refuses what it cannot send (406)', async () => {
    const construct = `${PREFIXES}CONSTRUCT { ?s foaf:name ?n } WHERE { GRAPH <${DOC1}> { ?s foaf:name ?n } }`;
    const nq = await fetch(`${endpoint.url}?query=${encodeURIComponent(construct)}`, { headers: { accept: 'application/n-quads' } });
    expect(nq.headers.get('content-type')).toMatch(/^application\/n-quads/);
    const lines = (await nq.text()).trim().split('\n').sort();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('<http://ex.org/alice> <http://xmlns.com/foaf/0.1/name> "Alice" .');
    expect(lines[1]).toMatch(/^_:\S+ <http:\/\/xmlns.com\/foaf\/0.1\/name> "Anon" \.$/);
    const csv = await fetch(`${endpoint.url}?query=${encodeURIComponent(construct)}`, { headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(406);
  });

  it('answers a bad query with 400 and the parser message', async () => {
    const res = await fetch(`${endpoint.url}?query=${encodeURIComponent('SELECT * WHERE { ?s ?p }')}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/Parse error/);
    expect((await fetch(`${endpoint.url}?default-graph-uri=http%3A%2F%2Fex.org%2Fdoc1`)).status).toBe(400); // parameters but no query
  });

  it('refuses updates with 403, in every form', async () => {
    const form = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'update=CLEAR%20ALL' });
    const direct = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: 'CLEAR ALL' });
    const asQuery = await fetch(`${endpoint.url}?query=${encodeURIComponent('DROP ALL')}`);
    expect([form.status, direct.status, asQuery.status]).toEqual([403, 403, 403]);
    expect(await form.text()).toMatch(/read-only/);
    expect(await runQuery(fx.state, `ASK { GRAPH <${DOC1}> { ?s ?p ?o } }`)).toEqual({ kind: 'boolean', value: true });
  });

  it('refuses SERVICE to another endpoint (403, refused by policy), without contacting it', async () => {
    let hits = 0;
    const canary = createServer((_req, res) => {
      hits += 1;
      res.end();
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    const { port } = canary.address() as AddressInfo;
    try {
      const q = `SELECT * WHERE { SERVICE <http://127.0.0.1:${port}/sparql> { ?s ?p ?o } }`;
      const res = await fetch(`${endpoint.url}?query=${encodeURIComponent(q)}`);
      expect(res.status).toBe(403);
      expect(await res.text()).toMatch(/SERVICE/);
      expect(hits).toBe(0);
    } finally {
      await new Promise((resolve) => canary.close(resolve));
    }
  });

  it('answers 503 when a query exceeds its time', async () => {
    const heavy = `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${EX}heavy> { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f } }`;
    const hasty = await startEndpoint(fx.state, { port: 0, timeoutMs: 400 });
    try {
      const t0 = Date.now();
      const res = await fetch(`${hasty.url}?query=${encodeURIComponent(heavy)}`);
      expect(res.status).toBe(503);
      expect(await res.text()).toMatch(/ran longer than 400 ms/);
      expect(Date.now() - t0).toBeLessThan(5000);
    } finally {
      await hasty.close();
    }
  });

  it('limits the request body (413), serves help on /, 404 elsewhere', async () => {
    const small = await startEndpoint(fx.state, { port: 0, maxBodyBytes: 100, cors: true });
    try {
      const big = await fetch(small.url, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: `ASK {} #${'x'.repeat(1000)}` });
      expect(big.status).toBe(413);
      const ok = await fetch(small.url, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: 'ASK {}' });
      expect(ok.headers.get('access-control-allow-origin')).toBe('*');
      expect(await ok.json()).toEqual({ head: {}, boolean: true });
      const help = await fetch(small.url.replace(/sparql$/, ''));
      expect(help.headers.get('content-type')).toMatch(/text\/html/);
      expect(await help.text()).toMatch(/urn:rdfscout:crawl/);
      expect((await fetch(small.url.replace(/sparql$/, 'nope'))).status).toBe(404);
    } finally {
      await small.close();
    }
  });

  it('listens on 127.0.0.1 by default', () => {
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sparql$/);
  });
});
