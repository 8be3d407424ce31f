// The background indexer on a real LevelDB: documents stored once, indexed in batches, caught up after a crash.
import { Writable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import { Parser, Writer } from 'n3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DOC_CHUNK_CHARS, countQuads, exportNQuads, hasGraph, parseDocument, stageDocument } from '../../src/rdf/index.ts';
import { Indexer } from '../../src/state/indexer.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { fixture, makeTempDir } from '../rdf/helpers.ts';

const ALICE = 'http://people.example.org/people.ttl';

let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let state: CrawlState;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openState(tmp.dir);
});
afterEach(async () => {
  await state.close();
  await tmp.remove();
});

/** A Turtle document of `people` people, 6 triples each, one about a blank node (≈ 90 characters a triple). */
function bigTurtle(people: number): string {
  const lines = ['@prefix ex: <http://ex.example/> .', '@prefix foaf: <http://xmlns.com/foaf/0.1/> .'];
  for (let i = 0; i < people; i++) {
    lines.push(`ex:p${i} a foaf:Person ; foaf:name "Person \\"${i}\\"\\nsecond line"@en ; foaf:knows ex:p${i + 1} ; foaf:age ${i % 90} ; foaf:account [ foaf:accountName "acc${i}" ] .`);
  }
  return lines.join('\n');
}

async function storeDoc(url: string, text: string, mediaType = 'text/turtle'): Promise<number> {
  const doc = await parseDocument(text, { kind: 'rdf', mediaType }, url);
  expect(doc.error).toBeNull();
  const txn = state.txn();
  const n = stageDocument(state, txn, url, doc.quads);
  await txn.commit();
  return n;
}

/** Quads in the SPARQL indexes (a scan of SPOG; a pattern led by the graph would read the stored document instead). */
async function indexedCount(graph?: string): Promise<number> {
  const { items } = await state.quadstore.get({});
  return graph === undefined ? items.length : items.filter((q) => q.graph.value === graph).length;
}

async function marks(): Promise<string[]> {
  return (await state.sub.unindexed.keys().all()) as string[];
}

async function exportText(): Promise<string> {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  await exportNQuads(state, sink);
  return chunks.join('');
}

async function sparqlCount(): Promise<number> {
  const result = await runQuery(state, 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?g != <urn:rdfscout:crawl>) }');
  if (result.kind !== 'bindings') throw new Error('expected bindings');
  for await (const row of result.rows) return Number(row.n?.value);
  return -1;
}

describe('document store + background indexer (issue 18)', () => {
  it('a commit stores the document once and marks it; flush indexes it and removes the mark', async () => {
    const n = await storeDoc(ALICE, fixture('people.ttl'));
    expect(n).toBe(9);
    expect(await hasGraph(state, ALICE)).toBe(true); // stored, whether indexed yet or not
    expect(await state.docs.keys().all()).toHaveLength(1);
    await state.indexer.flush();
    expect(await marks()).toEqual([]);
    expect(await indexedCount(ALICE)).toBe(9);
    expect(await countQuads(state)).toBe(9);
    expect(state.indexer.indexedQuads).toBe(9);
  });

  it('a big document is stored as several values and indexed in many batches, exactly', async () => {
    const text = bigTurtle(2000);
    const url = 'http://ex.example/big.ttl';
    const n = await storeDoc(url, text);
    expect(n).toBe(12_000);
    const values = (await state.docs.values().all()) as string[];
    expect(values.length).toBeGreaterThan(1);
    for (const v of values) expect(v.length).toBeLessThan(DOC_CHUNK_CHARS + 1000);
    // A second indexer over the same store with small batches: 24 batches, one mark deleted with the last.
    const small = new Indexer({ quadstore: state.quadstore, dataFactory: state.dataFactory, docs: state.docs, unindexed: state.sub.unindexed }, { batchQuads: 500 });
    await small.flush();
    expect(small.indexedQuads).toBe(12_000); // 2000 people × 6
    expect(await marks()).toEqual([]);
    expect(await indexedCount(url)).toBe(12_000);
    // The index and the export agree with an independent n3 parse of the source (blank nodes aside).
    const independent = new Parser({ format: 'text/turtle', baseIRI: url }).parse(text);
    const exported = new Parser({ format: 'N-Quads' }).parse(await exportText());
    expect(exported).toHaveLength(12_000);
    const norm = (q: Quad) => `${q.subject.termType === 'BlankNode' ? '_' : q.subject.value} ${q.predicate.value} ${q.object.termType === 'BlankNode' ? '_' : q.object.value}`;
    expect(exported.map(norm).sort()).toEqual(independent.map(norm).sort());
    expect(new Set(exported.map((q) => q.graph.value))).toEqual(new Set([url]));
    expect(exported.some((q) => q.object.value === 'Person "7"\nsecond line')).toBe(true);
  });

  it('reads a document by its chunk count; a mark without a count is read as a key range', async () => {
    const big = 'http://ex.example/big.ttl';
    await storeDoc(big, bigTurtle(2000));
    const chunks = (await state.sub.unindexed.get(big)) as number;
    expect(chunks).toBe(((await state.docs.keys({ gte: big, lt: `${big}\u0001` }).all()) as string[]).length);
    expect(chunks).toBeGreaterThan(1);
    await storeDoc(ALICE, fixture('people.ttl'));
    await state.sub.unindexed.put(ALICE, true); // a mark of another form: no count
    await state.indexer.flush();
    expect(await marks()).toEqual([]);
    expect(await indexedCount(big)).toBe(12_000);
    expect(await indexedCount(ALICE)).toBe(9);
  });

  it('SPARQL waits for the index by default: a query right after a commit sees the document', async () => {
    await storeDoc(ALICE, fixture('people.ttl'));
    await storeDoc('http://x.example/data.nt', fixture('data.nt'), 'application/n-triples');
    const total = await storeDocsCount();
    expect(await sparqlCount()).toBe(total);
  });

  it('after a crash the marks are still there and the next open catches up, without duplicates', async () => {
    await storeDoc(ALICE, fixture('people.ttl'));
    const big = 'http://ex.example/big.ttl';
    await storeDoc(big, bigTurtle(500));
    // Half of the big document indexed, then "SIGKILL": the store is closed with no indexing pass.
    const stored = ((await state.docs.values({ gte: big, lt: `${big}\u0001` }).all()) as string[]).join('');
    const half = new Parser({ format: 'N-Triples', blankNodePrefix: '' }).parse(stored).slice(0, 1200);
    const g = state.dataFactory.namedNode(big);
    await state.quadstore.multiPut(half.map((q) => state.dataFactory.quad(q.subject, q.predicate, q.object, g)));
    await state.quadstore.close();
    await state.db.close();
    state = await openState(tmp.dir);
    expect((await marks()).sort()).toEqual([big, ALICE].sort());
    expect(await indexedCount(big)).toBe(1200);
    await state.indexer.flush();
    expect(await marks()).toEqual([]);
    expect(await indexedCount(big)).toBe(3000);
    expect(await countQuads(state)).toBe(3009);
    expect(await sparqlCount()).toBe(3009);
  });

  it('export writes graph IRIs as the n3 Writer does, escaping what N-Quads forbids in an IRI', async () => {
    const odd = 'http://x.example/a|b{c}';
    await storeDoc(odd, '<http://s> <http://p> "o" .', 'application/n-triples');
    const df = state.dataFactory;
    const expected = new Writer({ format: 'N-Quads' }).quadToString(df.namedNode('http://s'), df.namedNode('http://p'), df.literal('o'), df.namedNode(odd));
    expect(await exportText()).toBe(expected);
  });
});

async function storeDocsCount(): Promise<number> {
  let n = 0;
  for (const v of (await state.docs.values().all()) as string[]) n += v.split(' .\n').length - 1;
  return n;
}
