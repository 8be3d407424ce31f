// **stageDocument** and friends: a document's quads in the store, one named graph per document (graph = URL).
import type { Quad } from '@rdfjs/types';
import { Writer } from 'n3';
import type { CrawlState } from '../state/open-state.ts';
import { type Txn, levelTxn } from '../state/txn.ts';
import { docKey, docKeyRange } from '../state/document-keys.ts';
import type { ParseProblem } from './types.ts';

/** Most partial quads kept in a partial record (the rest is only counted). */
export const MAX_PARTIAL_QUADS = 10_000;

/** What the parser produced before failing on a document (issue 2: kept apart, never mixed into the good data). */
export interface PartialInfo {
  error: ParseProblem;
  quads: readonly Quad[];
}

/** The stored form of a partial record, in the `partials` sublevel under the document's URL. */
export interface PartialRecord {
  graph: string;
  error: ParseProblem;
  /** How many quads the parser produced before the error. */
  count: number;
  /** The first {@link MAX_PARTIAL_QUADS} of them as N-Quads (graph = the document URL). */
  nquads: string;
  truncated: boolean;
}

/** Characters of N-Triples per stored value: a big document is several values, read back one at a time. */
export const DOC_CHUNK_CHARS = 256 * 1024;

/**
 * Stages a document's quads in `txn`, moved into the named graph `graphIri` (the document's final URL; graphs
 * named inside a TriG/N-Quads document are folded into it). Duplicates within the document are staged once.
 * Returns the number of distinct quads staged. Nothing is written until `txn.commit()`: the document is stored
 * with its crawl record in one atomic batch, or not at all.
 *
 * Issue 18: the document is written once, as N-Triples text in values of about {@link DOC_CHUNK_CHARS} characters
 * (state.docs, key = graph + chunk number), and marked for the background {@link Indexer}, which loads it into
 * quadstore's SPARQL indexes in large batches. One quad costs one line here instead of six index keys in the fetch's
 * batch (a 1.5 MB Turtle file: 72k quads, 435k keys, +260 MB RSS in one LevelDB batch before; issue 16 item 14).
 */
export function stageDocument(state: CrawlState, txn: Txn, graphIri: string, quads: readonly Quad[]): number {
  const t = levelTxn(txn);
  const seen = new Set<string>();
  const writer = new Writer({ format: 'N-Triples' });
  let chunk: string[] = [];
  let chars = 0;
  let n = 0;
  const flush = (): void => {
    t.put(state.docs, docKey(graphIri, n++), chunk.join(''));
    chunk = [];
    chars = 0;
  };
  for (const q of quads) {
    const line = writer.quadToString(q.subject, q.predicate, q.object);
    if (seen.has(line)) continue;
    seen.add(line);
    chunk.push(line);
    chars += line.length;
    if (chars >= DOC_CHUNK_CHARS) flush();
  }
  if (chars > 0) flush();
  if (seen.size > 0) {
    t.put(state.sub.unindexed, graphIri, n);
    txn.onCommit(() => state.indexer.notify());
  }
  return seen.size;
}

/**
 * Whether a document is stored under the graph `graphIri` (one key seek in the document values; indexed or not).
 * Reads with `all()`, which closes the iterator: an open LevelDB iterator pins a version (memtables, files), and one
 * left open per document made RSS grow by ~90 MB per 1,000 pages (bench/throughput.ts, issue 8).
 */
export async function hasGraph(state: CrawlState, graphIri: string): Promise<boolean> {
  const keys = await state.docs.keys({ ...docKeyRange(graphIri), limit: 1 }).all();
  return keys.length > 0;
}

/**
 * The stored N-Triples text of the document under `graphIri` (its values joined, in order), or undefined when none is
 * stored. Reads with `all()` (see {@link hasGraph}).
 */
export async function readDocumentText(state: CrawlState, graphIri: string): Promise<string | undefined> {
  const values = (await state.docs.values(docKeyRange(graphIri)).all()) as string[];
  return values.length === 0 ? undefined : values.join('');
}

/** Stages the partial record of a document that failed to parse (in the `partials` sublevel, key = `graphIri`). */
export function stagePartial(state: CrawlState, txn: Txn, graphIri: string, info: PartialInfo): PartialRecord {
  const graph = state.dataFactory.namedNode(graphIri);
  const writer = new Writer({ format: 'N-Quads' });
  const kept = info.quads.slice(0, MAX_PARTIAL_QUADS);
  const nquads = kept.map((q) => writer.quadToString(q.subject, q.predicate, q.object, graph)).join('');
  const record: PartialRecord = {
    graph: graphIri,
    error: info.error,
    count: info.quads.length,
    nquads,
    truncated: info.quads.length > kept.length,
  };
  levelTxn(txn).put(state.sub.partials, graphIri, record);
  return record;
}

/** The partial record of a document, if one was stored. */
export async function readPartial(state: CrawlState, graphIri: string): Promise<PartialRecord | undefined> {
  return (await state.sub.partials.get(graphIri)) as PartialRecord | undefined;
}

/** Every partial record, in URL order. */
export async function* listPartials(state: CrawlState): AsyncGenerator<PartialRecord> {
  for await (const value of state.sub.partials.values()) yield value as PartialRecord;
}

/**
 * The exact number of quads in the store (all graphs). Counts the keys of one quadstore index without decoding
 * them (quadstore's own `countQuads` is only approximate): O(quads), for `stats` and tests, not for every step.
 * Waits for the indexer first, so every committed document counts.
 */
export async function countQuads(state: CrawlState): Promise<number> {
  await state.indexer.flush();
  const index = state.quadstore.indexes[0];
  if (index === undefined) return 0;
  let n = 0;
  // Quadstore keys of an index are `<prefix><terms…>`; '\uDBFF\uDFFF' is quadstore's upper boundary.
  for await (const _key of state.db.keys({ gte: index.prefix, lt: `${index.prefix}\uDBFF\uDFFF` })) n++;
  return n;
}
