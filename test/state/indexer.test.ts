// The background indexer on a real LevelDB: documents stored once, indexed in batches, caught up after a crash.
import { Writable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import { Parser, Writer } from 'n3';
import { describe, expect, it } from 'vitest';
import { DOC_CHUNK_CHARS, countQuads, exportNQuads, hasGraph, parseDocument, stageDocument } from '../../src/rdf/index.ts';
import { Indexer } from '../../src/state/indexer.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import { useTempState } from '../helpers/temp-state.ts';
import { fixture } from '../rdf/helpers.ts';

const ALICE = 'http://people.example.org/people.ttl';

const t = useTempState();

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
  const txn = t.state.txn();
  const n = stageDocument(t.state, txn, url, doc.quads);
  await txn.commit();
  return n;
}

/** Quads in the SPARQL indexes (a scan of SPOG; a pattern led by the graph would read the stored document instead). */
async function indexedCount(graph?: string): Promise<number> {
  const { items } = await t.state.quadstore.get({});
  return graph === undefined ? items.length : items.filter((q) => q.graph.value === graph).length;
}

async function marks(): Promise<string[]> {
  return (await t.state.sub.unindexed.keys().all()) as string[];
}

async function exportText(): Promise<string> {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  await exportNQuads(t.state, sink);
  return chunks.join('');
}

async function sparqlCount(): Promise<number> {
  const result = await runQuery(t.state, 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?g != <urn:rdfscout:crawl>) }');
  if (result.kind !== 'bindings') throw new Error('expected bindings');
  for await (const row of result.rows) return Number(row.n?.value);
  return -1;
}

describe('document store + background indexer (issue 18)', () => {
  it('a commit stores the document once and marks it; flush indexes it and removes the mark', async () => {
    const n = await storeDoc(ALICE, fixture('people.ttl'));
    expect(n).toBe(9);
    expect(await hasGraph(t.state, ALICE)).toBe(true); // stored, whether indexed yet or not
    expect(await t.state.docs.keys().all()).toHaveLength(1);
    await t.state.indexer.flush();
    expect(await marks()).toEqual([]);
    expect(await indexedCount(ALICE)).toBe(9);
    expect(await countQuads(t.state)).toBe(9);
    expect(t.state.indexer.indexedQuads).toBe(9);
  });

  it('a big document is stored as several values and indexed in many batches, exactly', async () => {
    const text = bigTurtle(2000);
    const url = 'http://ex.example/big.ttl';
    await t.state.indexer.close(); // the state's own indexer stays out (its timer could fire under load)
    const n = await storeDoc(url, text);
    expect(n).toBe(12_000);
    const values = (await t.state.docs.values().all()) as string[];
    expect(values.length).toBeGreaterThan(1);
    for (const v of values) expect(v.length).toBeLessThan(DOC_CHUNK_CHARS + 1000);
    // A second indexer over the same store with small batches: 24 batches, one mark deleted with the last.
    const small = new Indexer({ quadstore: t.state.quadstore, dataFactory: t.state.dataFactory, docs: t.state.docs, unindexed: t.state.sub.unindexed }, { batchQuads: 500 });
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
    await t.state.indexer.close(); // no background pass (its timer could fire under load): the marks stay until flush()
    await storeDoc(big, bigTurtle(2000));
    const chunks = (await t.state.sub.unindexed.get(big)) as number;
    expect(chunks).toBe(((await t.state.docs.keys({ gte: big, lt: `${big}\u0001` }).all()) as string[]).length);
    expect(chunks).toBeGreaterThan(1);
    await storeDoc(ALICE, fixture('people.ttl'));
    await t.state.sub.unindexed.put(ALICE, true); // a mark of another form: no count
    await t.state.indexer.flush();
    expect(await marks()).toEqual([]);
    expect(await indexedCount(big)).toBe(12_000);
    expect(await indexedCount(ALICE)).toBe(9);
  });

  it('indexes a document committed in this process from the values handed over; reading them back adds nothing', async () => {
    const docs: Array<[string, string, string]> = [
      [ALICE, fixture('people.ttl'), 'text/turtle'],
      ['http://x.example/data.nt', fixture('data.nt'), 'application/n-triples'],
      ['http://ex.example/big.ttl', bigTurtle(2000), 'text/turtle'], // several values, staged together
      ['http://ex.example/blank.ttl', '@prefix ex: <http://ex.example/> . ex:a ex:p [ ex:q "é\\u0000\\t" ; ex:r ( 1 2 ) ] .', 'text/turtle'],
    ];
    let total = 0;
    for (const [url, text, type] of docs) total += await storeDoc(url, text, type);
    await t.state.indexer.flush();
    expect(t.state.indexer.indexedFromMemory).toBe(docs.length);
    expect(t.state.indexer.recentDocuments).toBe(0);
    expect(await marks()).toEqual([]);
    const fromMemory = (await t.state.quadstore.get({})).items.length;
    expect(fromMemory).toBe(total);
    // The same documents read back from the store by an indexer that was handed nothing: not one quad more (a term
    // written differently, a blank node named differently, would be a second quad), and the export agrees.
    const chunks = async (g: string) => ((await t.state.docs.keys({ gte: g, lt: `${g}\u0001` }).all()) as string[]).length;
    for (const [url] of docs) await t.state.sub.unindexed.put(url, await chunks(url));
    const reader = new Indexer({ quadstore: t.state.quadstore, dataFactory: t.state.dataFactory, docs: t.state.docs, unindexed: t.state.sub.unindexed });
    await reader.flush();
    expect(reader.indexedFromMemory).toBe(0);
    expect(reader.indexedQuads).toBe(total);
    expect((await t.state.quadstore.get({})).items.length).toBe(total);
    expect(await sparqlCount()).toBe(total);
  });

  it('keeps no more than recentChars of values, and drops a value whose document has no mark (read back instead, same index)', async () => {
    await t.state.indexer.close();
    const store = { quadstore: t.state.quadstore, dataFactory: t.state.dataFactory, docs: t.state.docs, unindexed: t.state.sub.unindexed };
    const tight = new Indexer(store, { recentChars: 100 });
    await storeDoc(ALICE, fixture('people.ttl')); // committed; the closed state indexer takes no offer
    const [value] = (await t.state.docs.values({ gte: ALICE, lt: `${ALICE}\u0001` }).all()) as string[];
    tight.offer(ALICE, [value as string]); // larger than 100 characters: not kept
    expect(tight.recentDocuments).toBe(0);
    tight.offer('http://nowhere.example/doc', ['<http://a> <http://b> <http://c> .\n']); // no mark: stale
    expect(tight.recentDocuments).toBe(1);
    await tight.flush();
    expect(tight.recentDocuments).toBe(0);
    expect(tight.indexedFromMemory).toBe(0);
    expect(await indexedCount(ALICE)).toBe(9);
    expect(await indexedCount('http://nowhere.example/doc')).toBe(0);
    // A value whose chunk count does not match the mark is not used either.
    const roomy = new Indexer(store);
    await t.state.sub.unindexed.put(ALICE, 1);
    roomy.offer(ALICE, [value as string, 'x']);
    await roomy.flush();
    expect(roomy.indexedFromMemory).toBe(0);
    expect(await indexedCount(ALICE)).toBe(9);
  });

  it('SPARQL waits for the index by default: a query right after a commit sees the document', async () => {
    await storeDoc(ALICE, fixture('people.ttl'));
    await storeDoc('http://x.example/data.nt', fixture('data.nt'), 'application/n-triples');
    const total = await storeDocsCount();
    expect(await sparqlCount()).toBe(total);
  });

  it('after a crash the marks are still there and the next open catches up, without duplicates', async () => {
    await t.state.indexer.close(); // no background pass before the "crash" (its timer could fire under load)
    await storeDoc(ALICE, fixture('people.ttl'));
    const big = 'http://ex.example/big.ttl';
    await storeDoc(big, bigTurtle(500));
    // Half of the big document indexed, then "SIGKILL": the store is closed with no indexing pass.
    const stored = ((await t.state.docs.values({ gte: big, lt: `${big}\u0001` }).all()) as string[]).join('');
    const half = new Parser({ format: 'N-Triples', blankNodePrefix: '' }).parse(stored).slice(0, 1200);
    const g = t.state.dataFactory.namedNode(big);
    await t.state.quadstore.multiPut(half.map((q) => t.state.dataFactory.quad(q.subject, q.predicate, q.object, g)));
    // What the crash left, read through a handle that does not index (an indexing open starts a pass on a timer).
    await t.reopen({ crash: true, index: false });
    expect((await marks()).sort()).toEqual([big, ALICE].sort());
    expect(await indexedCount(big)).toBe(1200);
    await t.reopen();
    await t.state.indexer.flush();
    expect(await marks()).toEqual([]);
    expect(await indexedCount(big)).toBe(3000);
    expect(await countQuads(t.state)).toBe(3009);
    expect(await sparqlCount()).toBe(3009);
  });

  it('export writes graph IRIs as the n3 Writer does, escaping what N-Quads forbids in an IRI', async () => {
    const odd = 'http://x.example/a|b{c}';
    await storeDoc(odd, '<http://s> <http://p> "o" .', 'application/n-triples');
    const df = t.state.dataFactory;
    const expected = new Writer({ format: 'N-Quads' }).quadToString(df.namedNode('http://s'), df.namedNode('http://p'), df.literal('o'), df.namedNode(odd));
    expect(await exportText()).toBe(expected);
  });
});

async function storeDocsCount(): Promise<number> {
  let n = 0;
  for (const v of (await t.state.docs.values().all()) as string[]) n += v.split(' .\n').length - 1;
  return n;
}
