import type { Quad } from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RdfscoutError } from '../../src/errors.ts';
import { CRAWL_GRAPH, recordToQuads } from '../../src/crawl-log/crawl-vocab.ts';
import { stageDocuments } from '../../src/rdf/index.ts';
import { termToNt } from '../../src/sparql/format-results.ts';
import { QueryRefusedError, type QueryResult, runQuery } from '../../src/sparql/query-engine.ts';
import { addHeavyGraph, DOC1, DOC2, EX, type Fixture, makeFixture, PREFIXES, TRICKY } from './fixture.ts';

let fx: Fixture;
beforeAll(async () => {
  fx = await makeFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

async function select(sparql: string, opts = {}): Promise<Array<Record<string, string>>> {
  const r = await runQuery(fx.state, PREFIXES + sparql, opts);
  if (r.kind !== 'bindings') throw new Error(`expected bindings, got ${r.kind}`);
  const out: Array<Record<string, string>> = [];
  for await (const row of r.rows) out.push(Object.fromEntries(Object.entries(row).map(([k, t]) => [k, termToNt(t)])));
  return out;
}

async function quads(r: QueryResult): Promise<Quad[]> {
  if (r.kind !== 'quads') throw new Error(`expected quads, got ${r.kind}`);
  const out: Quad[] = [];
  for await (const q of r.quads) out.push(q);
  return out;
}

async function rejection(p: Promise<unknown>): Promise<RdfscoutError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(RdfscoutError);
    return err as RdfscoutError;
  }
  throw new Error('expected a rejection');
}

describe('runQuery', () => {
  it('answers SELECT over the union of document graphs, with variables in projection order', async () => {
    const r = await runQuery(fx.state, `${PREFIXES}SELECT ?name ?s WHERE { ?s foaf:name ?name } ORDER BY ?name`);
    expect(r.kind).toBe('bindings');
    if (r.kind !== 'bindings') return;
    expect(r.variables).toEqual(['name', 's']);
    const names: string[] = [];
    for await (const row of r.rows) names.push(row.name?.value ?? '');
    // Alice is named by two documents: the default graph is their RDF merge, a set, so the triple counts once.
    expect(names).toEqual(['Alice', 'Anon', 'Bob']);
    expect(r.truncated).toBe(false);
  });

  it('keeps terms exact: language tags, datatypes, blank nodes', async () => {
    const rows = await select('SELECT ?note ?age ?f WHERE { ex:alice ex:note ?note ; ex:age ?age ; ex:friend ?f }');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.note).toBe(`"${TRICKY.replace('"quote"', '\\"quote\\"').replace('\n', '\\n')}"@en`);
    expect(rows[0]?.age).toBe('"42"^^<http://www.w3.org/2001/XMLSchema#integer>');
    expect(rows[0]?.f).toMatch(/^_:/);
  });

  it('answers provenance questions with GRAPH ?doc', async () => {
    const rows = await select('SELECT ?doc WHERE { GRAPH ?doc { ex:alice foaf:name "Alice" } } ORDER BY ?doc');
    expect(rows.map((r) => r.doc)).toEqual([`<${DOC1}>`, `<${DOC2}>`]);
  });

  it('answers the crawl graph from the records: a named document, a redirect hop, counts, any-graph patterns', async () => {
    const { items: stored } = await fx.state.quadstore.get({ graph: fx.state.dataFactory.namedNode(CRAWL_GRAPH) });
    expect(stored).toEqual([]); // nothing stored: the crawl graph is made from the records
    expect(await select(`SELECT ?st ?req WHERE { GRAPH <${CRAWL_GRAPH}> { <${DOC2}> http:statusCodeValue ?st ; rs:requestedUrl ?req } }`)).toEqual([
      { st: '"200"^^<http://www.w3.org/2001/XMLSchema#integer>', req: `<${EX}doc2-alias>` },
    ]);
    expect(await select(`SELECT ?from ?code WHERE { GRAPH <${CRAWL_GRAPH}> { <urn:rdfscout:redirect:2:1> rs:redirectFrom ?from ; http:statusCodeValue ?code } }`)).toEqual([
      { from: `<${EX}doc2-alias>`, code: '"303"^^<http://www.w3.org/2001/XMLSchema#integer>' },
    ]);
    expect(await select(`SELECT ?st WHERE { GRAPH <${CRAWL_GRAPH}> { <${EX}never-fetched> http:statusCodeValue ?st } }`)).toEqual([]);
    const expected = fx.records.flatMap((r) => recordToQuads(r, fx.state.dataFactory));
    const [count] = await select(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${CRAWL_GRAPH}> { ?s ?p ?o } }`);
    expect(count?.n).toBe(`"${expected.length}"^^<http://www.w3.org/2001/XMLSchema#integer>`);
    const constructed = await quads(await runQuery(fx.state, `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${CRAWL_GRAPH}> { ?s ?p ?o } }`));
    expect(constructed.map((q) => termToNt(q.subject) + termToNt(q.predicate) + termToNt(q.object)).sort()).toEqual(
      expected.map((q) => termToNt(q.subject) + termToNt(q.predicate) + termToNt(q.object)).sort(),
    );
    // GRAPH ?g sees the crawl graph once, next to the document graphs
    expect(await select('SELECT ?g ?d WHERE { GRAPH ?g { ?s rs:depth ?d } } ORDER BY ?d')).toEqual([
      { g: `<${CRAWL_GRAPH}>`, d: '"0"^^<http://www.w3.org/2001/XMLSchema#integer>' },
      { g: `<${CRAWL_GRAPH}>`, d: '"1"^^<http://www.w3.org/2001/XMLSchema#integer>' },
    ]);
    // a join that binds the document first (Comunica may look the crawl side up per document)
    expect(await select(`SELECT ?doc ?t WHERE { GRAPH ?doc { ?x foaf:name "Bob" } GRAPH <${CRAWL_GRAPH}> { ?doc prov:generatedAtTime ?t } }`)).toEqual([
      { doc: `<${DOC2}>`, t: '"2024-05-01T10:00:01.000Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>' },
    ]);
  });

  it('keeps the crawl graph out of the default graph but queryable by name, joinable with documents', async () => {
    expect(await select('SELECT * WHERE { ?doc rs:depth ?d }')).toEqual([]);
    const meta = await select('SELECT ?doc ?depth ?status WHERE { GRAPH <urn:rdfscout:crawl> { ?doc rs:depth ?depth ; http:statusCodeValue ?status } } ORDER BY ?doc');
    expect(meta).toEqual([
      { doc: `<${DOC1}>`, depth: '"0"^^<http://www.w3.org/2001/XMLSchema#integer>', status: '"200"^^<http://www.w3.org/2001/XMLSchema#integer>' },
      { doc: `<${DOC2}>`, depth: '"1"^^<http://www.w3.org/2001/XMLSchema#integer>', status: '"200"^^<http://www.w3.org/2001/XMLSchema#integer>' },
    ]);
    const joined = await select(
      'SELECT ?doc ?parent ?label WHERE { GRAPH ?doc { ex:bob foaf:name "Bob" } GRAPH <urn:rdfscout:crawl> { ?doc prov:wasDerivedFrom ?parent ; rs:predictedLabel ?label } }',
    );
    expect(joined).toEqual([{ doc: `<${DOC2}>`, parent: `<${DOC1}>`, label: '"R"' }]);
    const count = await select('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }');
    expect(count[0]?.n).toBe('"8"^^<http://www.w3.org/2001/XMLSchema#integer>'); // 9 stored quads, 8 distinct triples
  });

  it('answers ASK', async () => {
    const yes = await runQuery(fx.state, `${PREFIXES}ASK { ex:alice foaf:knows ex:bob }`);
    const no = await runQuery(fx.state, `${PREFIXES}ASK { ex:bob foaf:knows ex:alice }`);
    expect(yes).toEqual({ kind: 'boolean', value: true });
    expect(no).toEqual({ kind: 'boolean', value: false });
  });

  it('answers CONSTRUCT and DESCRIBE with quads', async () => {
    const built = await quads(await runQuery(fx.state, `${PREFIXES}CONSTRUCT { ?b foaf:knownBy ?a } WHERE { GRAPH <${DOC1}> { ?a foaf:knows ?b } }`));
    expect(built.map((q) => [q.subject.value, q.predicate.value, q.object.value])).toEqual([[`${EX}bob`, 'http://xmlns.com/foaf/0.1/knownBy', `${EX}alice`]]);
    const described = await quads(await runQuery(fx.state, `${PREFIXES}DESCRIBE ex:bob`));
    expect(described.length).toBeGreaterThanOrEqual(2);
    expect(new Set(described.map((q) => q.subject.value))).toEqual(new Set([`${EX}bob`]));
    expect(described.map((q) => q.object.value).sort()).toEqual(['Bob', 'a\tb']);
  });

  it('stops at maxResults and says so', async () => {
    const r = await runQuery(fx.state, 'SELECT * WHERE { ?s ?p ?o }', { maxResults: 3 });
    if (r.kind !== 'bindings') throw new Error('bindings expected');
    let n = 0;
    for await (const _ of r.rows) n++;
    expect(n).toBe(3);
    expect(r.truncated).toBe(true);
    const all = await runQuery(fx.state, 'SELECT * WHERE { ?s ?p ?o }', { maxResults: 9 });
    if (all.kind !== 'bindings') throw new Error('bindings expected');
    for await (const _ of all.rows) n++;
    expect(all.truncated).toBe(false);
  });

  it('refuses SERVICE unless allowed, before running anything', async () => {
    const err = await rejection(runQuery(fx.state, 'SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }'));
    expect(err).toBeInstanceOf(QueryRefusedError);
    expect(err.code).toBe('RDFSCOUT_QUERY_FAILED');
    expect(err.message).toMatch(/SERVICE <http:\/\/127\.0\.0\.1:9\/sparql> is disabled/);
    // Allowed, the clause reaches the engine (which has no federation actor here): a failure, but not a refusal.
    const allowed = await rejection(
      (async () => {
        const r = await runQuery(fx.state, 'SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }', { allowService: true, timeoutMs: 5000 });
        if (r.kind === 'bindings') for await (const _ of r.rows);
      })(),
    );
    expect(allowed).not.toBeInstanceOf(QueryRefusedError);
  });

  it('refuses every kind of update and leaves the store unchanged', async () => {
    const before = (await fx.state.quadstore.get({})).items.length;
    for (const update of ['INSERT DATA { <http://ex.org/x> <http://ex.org/y> "z" }', 'DELETE WHERE { ?s ?p ?o }', 'CLEAR ALL', 'DROP GRAPH <http://ex.org/doc1>', 'LOAD <http://127.0.0.1:9/x.ttl>', 'INSERT DATA { <a:a> <a:a> <a:a> }; CLEAR ALL']) {
      const err = await rejection(runQuery(fx.state, update));
      expect(err).toBeInstanceOf(QueryRefusedError);
      expect(err.message).toMatch(/read-only/);
    }
    expect((await fx.state.quadstore.get({})).items.length).toBe(before);
  });

  it('reports parse errors with the parser message', async () => {
    const err = await rejection(runQuery(fx.state, 'SELECT * WHERE { ?s ?p }'));
    expect(err.code).toBe('RDFSCOUT_QUERY_FAILED');
    expect(err.message).toMatch(/Parse error/);
  });

  it('rejects unknown options', async () => {
    const err = await rejection(runQuery(fx.state, 'ASK {}', { timeout: 5 } as never));
    expect(err.code).toBe('RDFSCOUT_INVALID_ARGUMENT');
  });

  it('stops a heavy query at its timeout by terminating its worker; the next query runs', async () => {
    await addHeavyGraph(fx.state);
    const err = await rejection(
      (async () => {
        const r = await runQuery(fx.state, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${EX}heavy> { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f } }`, { timeoutMs: 300 });
        if (r.kind === 'bindings') for await (const _ of r.rows);
      })(),
    );
    expect(err.code).toBe('RDFSCOUT_QUERY_TIMEOUT');
    expect(err.message).toMatch(/longer than 300 ms \(the time limit\)/);
    expect(await select('SELECT ?name WHERE { ex:bob foaf:name ?name }')).toEqual([{ name: '"Bob"' }]);
  });

  it('ends a query that outgrows its memory cap with RDFSCOUT_QUERY_MEMORY; the next query runs', async () => {
    const df = fx.state.dataFactory;
    const big = Array.from({ length: 50 }, (_, i) => df.quad(df.namedNode(`${EX}b${i}`), df.namedNode(`${EX}text`), df.literal(String(i).padEnd(100_000, 'x')), df.namedNode(`${EX}big`)));
    const txn = fx.state.txn();
    stageDocuments(fx.state, txn, big);
    await txn.commit();
    const err = await rejection(
      (async () => {
        // ORDER BY keeps every solution, and sorting makes each 200 kB concatenation real: 2 500 of them ≫ the cap.
        const r = await runQuery(fx.state, `SELECT ?x WHERE { GRAPH <${EX}big> { ?a ?p ?b . ?c ?q ?d } BIND(CONCAT(?b, ?d) AS ?x) } ORDER BY ?x`, { timeoutMs: 600_000, maxQueryMemoryMb: 32 });
        if (r.kind === 'bindings') for await (const _ of r.rows);
      })(),
    );
    expect(err.code).toBe('RDFSCOUT_QUERY_MEMORY');
    expect(err.message).toMatch(/memory cap of 32 MB \(--max-query-memory\)/);
    expect(await select('SELECT ?name WHERE { ex:bob foaf:name ?name }')).toEqual([{ name: '"Bob"' }]);
  }, 120_000);

  it('refuses a memory cap below 16 MB', async () => {
    const err = await rejection(runQuery(fx.state, 'ASK {}', { maxQueryMemoryMb: 8 }));
    expect(err.code).toBe('RDFSCOUT_INVALID_ARGUMENT');
  });
});
