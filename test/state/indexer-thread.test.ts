// The indexer in a worker thread: the same index keys as on one thread, flush and close in order, queries on the main thread.
import { describe, expect, it } from 'vitest';
import { parseDocument, stageDocument } from '../../src/rdf/index.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import type { CrawlState } from '../../src/state/open-state.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { useTempState } from '../helpers/temp-state.ts';
import { until } from '../helpers/until.ts';
import { openState } from '../../src/state/open-state.ts';
import { IndexerHandover } from '../../src/state/indexer-handover.ts';
import { Indexer } from '../../src/state/indexer.ts';
import type { NamespacePrefixes } from '../../src/state/namespace-prefixes.ts';

const t = useTempState({ open: false });

/** Turtle with IRIs of several namespaces, escapes, language tags, numbers, dates and blank nodes. */
function sample(n: number): string {
  const lines = ['@prefix ex: <http://ex.example/ns#> .', '@prefix foaf: <http://xmlns.com/foaf/0.1/> .', '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .'];
  for (let i = 0; i < n; i++) {
    lines.push(`<http://site${i % 7}.example/p/${i}> a foaf:Person ; foaf:name "Name \\"${i}\\"\\nline"@EN-gb ; ex:age ${i % 90} ; ex:at "2024-01-0${(i % 9) + 1}T00:00:00Z"^^xsd:dateTime ; foaf:knows [ foaf:nick "n${i}" ] .`);
  }
  return lines.join('\n');
}

async function store(state: CrawlState, url: string, text: string): Promise<number> {
  const doc = await parseDocument(text, { kind: 'rdf', mediaType: 'text/turtle' }, url);
  expect(doc.error).toBeNull();
  const txn = state.txn();
  const n = stageDocument(state, txn, url, doc.quads);
  await txn.commit();
  return n;
}

/** Every index key (quadstore's keys sit at the root, before the sublevels' '!'), and the namespace dictionary. */
async function indexKeys(state: CrawlState): Promise<string[]> {
  const keys = (await state.db.keys({ gte: 'A', lt: '[' }).all()) as string[];
  const ns = (await state.db.sublevel('ns').keys().all()) as string[];
  return [...keys, ...ns.map((k) => `ns:${k}`)];
}

describe('IndexerThread', () => {
  it('indexes in a worker thread exactly the keys one thread writes; flush waits for what was committed before it', async () => {
    const docs: Array<[string, string]> = [
      ['http://a.example/one.ttl', sample(300)],
      ['http://b.example/two.ttl', sample(40)],
      ['http://c.example/three.ttl', sample(2500)], // several stored values
    ];
    const here = await t.open();
    const other = await makeTempDir();
    const worker = await openState(other.dir, { indexWorker: { thresholdChars: 0 } });
    try {
      let total = 0;
      for (const [url, text] of docs) {
        total += await store(here, url, text);
        await store(worker, url, text);
      }
      await here.indexer.flush();
      await worker.indexer.flush();
      expect((worker.indexer as IndexerHandover).inWorker).toBe(true);
      expect(worker.indexer.indexedQuads).toBe(total);
      expect(await worker.sub.unindexed.keys().all()).toEqual([]);
      const keys = await indexKeys(worker);
      expect(keys.length).toBeGreaterThan(3 * total);
      expect(keys).toEqual(await indexKeys(here));
      // The main thread's handle reads the namespace ids the worker gave (it gives none itself).
      const r = await runQuery(worker, 'SELECT (COUNT(*) AS ?n) WHERE { ?s <http://xmlns.com/foaf/0.1/knows> ?o }');
      if (r.kind !== 'bindings') throw new Error('expected bindings');
      for await (const row of r.rows) expect(Number(row.n?.value)).toBe(2840);
    } finally {
      await worker.close();
      await other.remove();
    }
  });

  it('closing indexes what is pending; the store reopened on one thread has nothing left to index', async () => {
    const state = await t.open({ indexWorker: { thresholdChars: 0 } });
    const n = await store(state, 'http://a.example/one.ttl', sample(500));
    const txn = state.txn();
    const direct = stageDocument(state, txn, 'http://x.example/doc', [state.dataFactory.quad(state.dataFactory.namedNode('http://x.example/s'), state.dataFactory.namedNode('http://x.example/p'), state.dataFactory.literal('o'))]);
    await txn.commit();
    const reopened = await t.reopen();
    expect(await reopened.sub.unindexed.keys().all()).toEqual([]);
    expect((await reopened.quadstore.get({})).items).toHaveLength(n + direct);
  });

  it('hands over mid-crawl: ids a query gave on this thread before are forgotten, the worker gives its own, and reads find them', async () => {
    const NEW = 'http://new.example/vocabulary/terms#';
    const withNew = (n: number): string => `${sample(n)}\n<http://new.example/x> <${NEW}p> <${NEW}o> .`;
    const state = await t.open({ indexWorker: { thresholdChars: 200_000 } });
    const reference = await makeTempDir();
    const here = await openState(reference.dir);
    try {
      const ask = async (s: CrawlState): Promise<number> => (await s.quadstore.get({ predicate: s.dataFactory.namedNode(`${NEW}p`) })).items.length;
      await store(state, 'http://a.example/small.ttl', sample(20));
      await store(here, 'http://a.example/small.ttl', sample(20));
      await state.indexer.flush();
      expect((state.indexer as IndexerHandover).inWorker).toBe(false);
      expect(await ask(state)).toBe(0); // this thread gives NEW an id, never written: no key uses it
      for (const [url, text] of [['http://b.example/big.ttl', withNew(1500)], ['http://c.example/after.ttl', withNew(30)]] as const) {
        await store(state, url, text);
        await store(here, url, text);
      }
      await state.indexer.flush();
      await here.indexer.flush();
      expect((state.indexer as IndexerHandover).inWorker).toBe(true);
      expect(await ask(state)).toBe(2); // one triple in each of two documents: the query's stale id would find none
      expect(await state.sub.unindexed.keys().all()).toEqual([]);
      expect(state.indexer.indexedQuads).toBe(here.indexer.indexedQuads);
      const keys = (s: CrawlState) => s.db.keys({ gte: 'A', lt: '[' }).all();
      expect((await keys(state)).length).toBe((await keys(here)).length);
    } finally {
      await here.close();
      await reference.remove();
    }
  });

  it('when the worker cannot start, indexing goes on on this thread (ids given here again)', async () => {
    const state = await t.open();
    await state.indexer.close(); // the state's own indexer stays out: the handover below indexes
    const parts = { quadstore: state.quadstore, dataFactory: state.dataFactory, docs: state.docs, unindexed: state.sub.unindexed };
    const make = (): Indexer => new Indexer(parts, { batchQuads: 250 });
    const namespaces = state.quadstore.prefixes as unknown as NamespacePrefixes;
    const handover = new IndexerHandover(make(), make, () => Promise.reject(new Error('no worker here')), namespaces, { thresholdChars: 0 });
    handover.notify(); // past the threshold: the handover starts, and fails
    await handover.flush(); // the failure is behind: what follows is told to this thread's new indexer
    const n = await store(state, 'http://a.example/one.ttl', sample(200));
    handover.notify(); // a background pass, without a flush
    await until('a background pass on this thread to index the document', async () => (await state.sub.unindexed.keys().all()).length === 0, 10_000);
    expect(handover.inWorker).toBe(false);
    expect(handover.indexedQuads).toBe(n);
    expect(await state.sub.unindexed.keys().all()).toEqual([]);
    expect((await state.quadstore.get({ predicate: state.dataFactory.namedNode('http://xmlns.com/foaf/0.1/knows') })).items).toHaveLength(200);
    expect(namespaces.size).toBeGreaterThan(0);
    await handover.close();
  });
});
