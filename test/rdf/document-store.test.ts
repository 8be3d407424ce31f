// Document store on a real LevelDB: stage+commit, hasGraph, partial records, streamed N-Quads export.
import { PassThrough, Writable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import { StreamParser } from 'n3';
import { describe, expect, it } from 'vitest';
import {
  countQuads,
  exportNQuads,
  hasGraph,
  listPartials,
  parseDocument,
  readPartial,
  stageDocument,
  stagePartial,
} from '../../src/rdf/index.ts';
import { useTempState } from '../helpers/temp-state.ts';
import { fixture } from './helpers.ts';

const ALICE = 'http://people.example.org/people.ttl';
const BOB = 'http://people.example.org/bob.rdf';

const t = useTempState();

async function storeTwoDocuments(): Promise<void> {
  const a = await parseDocument(fixture('people.ttl'), { kind: 'rdf', mediaType: 'text/turtle' }, ALICE);
  const b = await parseDocument(fixture('bob.rdf'), { kind: 'rdf', mediaType: 'application/rdf+xml' }, BOB);
  const txn = t.state.txn();
  expect(stageDocument(t.state, txn, ALICE, a.quads)).toBe(9);
  expect(stageDocument(t.state, txn, BOB, b.quads)).toBe(7);
  txn.put(t.state.sub.meta, 'note', { url: ALICE }); // JSON t.state beside the quads: never exported
  await txn.commit();
}

/** Parses N-Quads text with n3's StreamParser, independently of rdfscout's code. */
async function parseNQuads(text: string): Promise<Quad[]> {
  const quads: Quad[] = [];
  const parser = new StreamParser({ format: 'N-Quads' });
  const source = new PassThrough();
  parser.on('data', (q: Quad) => quads.push(q));
  const done = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
  });
  source.pipe(parser);
  source.end(text);
  await done;
  return quads;
}

/** A writable that collects text and is slow, to exercise back-pressure. */
function slowSink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    highWaterMark: 16,
    write(chunk, _enc, cb) {
      chunks.push(chunk.toString());
      setImmediate(cb);
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('document store', () => {
  it('stages nothing until commit, then stores each document in its own named graph', async () => {
    const a = await parseDocument(fixture('people.ttl'), { kind: 'rdf', mediaType: 'text/turtle' }, ALICE);
    const txn = t.state.txn();
    stageDocument(t.state, txn, ALICE, a.quads);
    expect(await hasGraph(t.state, ALICE)).toBe(false);
    await txn.commit();
    expect(await hasGraph(t.state, ALICE)).toBe(true);
    expect(await hasGraph(t.state, BOB)).toBe(false);
    expect(await countQuads(t.state)).toBe(9);
  });

  it('folds TriG graphs into the document graph and stages duplicates once', async () => {
    const doc = await parseDocument(fixture('graphs.trig'), { kind: 'rdf', mediaType: 'application/trig' }, 'http://x.example/g.trig');
    const txn = t.state.txn();
    expect(stageDocument(t.state, txn, 'http://x.example/g.trig', [...doc.quads, ...doc.quads])).toBe(4);
    await txn.commit();
    await t.state.indexer.flush();
    const { items } = await t.state.quadstore.get({});
    expect(new Set(items.map((q) => q.graph.value))).toEqual(new Set(['http://x.example/g.trig']));
  });

  it('export → independent n3 parse: same quad count and graph names', async () => {
    await storeTwoDocuments();
    const sink = slowSink();
    const written = await exportNQuads(t.state, sink.stream);
    expect(written).toBe(16);
    const quads = await parseNQuads(sink.text());
    expect(quads).toHaveLength(16);
    expect(new Set(quads.map((q) => q.graph.value))).toEqual(new Set([ALICE, BOB]));
    expect(quads.filter((q) => q.graph.value === ALICE)).toHaveLength(9);
    // Literals survive the round trip exactly (quotes, newlines, language tags).
    expect(quads.some((q) => q.object.value === 'Bob "the builder"' && (q.object as { language?: string }).language === 'en')).toBe(true);
    expect(quads.some((q) => q.object.value === 'Carol\non two lines')).toBe(true);
  });

  it('blank nodes from two documents stay distinct in the store and in the export', async () => {
    const text = '_:b0 <http://a.org/name> "same label" .\n';
    const txn = t.state.txn();
    for (const url of ['http://one.example/', 'http://two.example/']) {
      const doc = await parseDocument(text, { kind: 'rdf', mediaType: 'application/n-triples' }, url);
      stageDocument(t.state, txn, url, doc.quads);
    }
    await txn.commit();
    const sink = slowSink();
    await exportNQuads(t.state, sink.stream);
    const quads = await parseNQuads(sink.text());
    expect(quads).toHaveLength(2);
    expect(new Set(quads.map((q) => q.subject.value)).size).toBe(2);
  });

  it('a failed document stores no quads; its partial record is kept apart', async () => {
    const url = 'http://x.example/broken.ttl';
    const doc = await parseDocument(fixture('broken.ttl'), { kind: 'rdf', mediaType: 'text/turtle' }, url, { strict: true });
    expect(doc.error).not.toBeNull();
    const txn = t.state.txn();
    expect(stageDocument(t.state, txn, url, doc.quads)).toBe(0);
    stagePartial(t.state, txn, url, { error: doc.error!, quads: doc.partial });
    await txn.commit();
    expect(await hasGraph(t.state, url)).toBe(false);
    expect(await countQuads(t.state)).toBe(0);
    const partial = await readPartial(t.state, url);
    expect(partial).toMatchObject({ graph: url, count: 3, truncated: false, error: { line: 5 } });
    expect(await parseNQuads(partial!.nquads)).toHaveLength(3);
    const all = [];
    for await (const p of listPartials(t.state)) all.push(p.graph);
    expect(all).toEqual([url]);
  });

  it('export does not end process-like streams when asked not to, and returns 0 for an empty store', async () => {
    const sink = new PassThrough();
    expect(await exportNQuads(t.state, sink, { end: false })).toBe(0);
    expect(sink.writableEnded).toBe(false);
  });

  it('exports many quads with bounded memory', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 30_000; i++) lines.push(`<http://a.org/s${i}> <http://a.org/p> "value number ${i}" .`);
    const doc = await parseDocument(lines.join('\n'), { kind: 'rdf', mediaType: 'application/n-triples' }, 'http://big.example/');
    const txn = t.state.txn();
    stageDocument(t.state, txn, 'http://big.example/', doc.quads);
    await txn.commit();
    let bytes = 0;
    let count = 0;
    const counter = new Writable({
      write(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) count++;
        cb();
      },
    });
    expect(await exportNQuads(t.state, counter)).toBe(30_000);
    expect(count).toBe(30_000);
    expect(bytes).toBeGreaterThan(30_000 * 60);
  });
});
