// **stageDocument** and friends: a document's quads in the store, one named graph per document (graph = URL).
import type { Quad } from '@rdfjs/types';
import { Writer } from 'n3';
// quadstore's pattern → key-range writer (not re-exported by its index; the package has no `exports` map).
import { writePattern } from 'quadstore/dist/serialization/patterns.js';
import type { CrawlState } from '../state/open-state.ts';
import { type Txn, levelTxn } from '../state/txn.ts';
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

/**
 * Stages a document's quads in `txn`, moved into the named graph `graphIri` (the document's final URL; graphs
 * named inside a TriG/N-Quads document are folded into it). Duplicates within the document are staged once.
 * Returns the number of distinct quads staged. Nothing is written until `txn.commit()`: the document is stored
 * with its crawl record in one atomic batch, or not at all.
 */
export function stageDocument(state: CrawlState, txn: Txn, graphIri: string, quads: readonly Quad[]): number {
  const df = state.dataFactory;
  const graph = df.namedNode(graphIri);
  const seen = new Set<string>();
  const staged: Quad[] = [];
  const writer = new Writer({ format: 'N-Quads' });
  for (const q of quads) {
    const key = writer.quadToString(q.subject, q.predicate, q.object);
    if (seen.has(key)) continue;
    seen.add(key);
    staged.push(df.quad(q.subject, q.predicate, q.object, graph));
  }
  levelTxn(txn).putQuads(staged);
  return staged.length;
}

/**
 * Whether any quad is stored in the graph `graphIri` (one index seek, keys only). Reads the key range of the first
 * index that starts with the graph directly and closes the iterator: quadstore 15's `get()` never closes its
 * LevelDB iterator, and each open iterator pins a LevelDB version (memtables, files), so calling it once per
 * document made RSS grow by ~90 MB per 1,000 pages (bench/throughput.ts, issue 8).
 */
export async function hasGraph(state: CrawlState, graphIri: string): Promise<boolean> {
  const { quadstore } = state;
  const pattern = { graph: state.dataFactory.namedNode(graphIri) };
  for (const index of quadstore.indexes) {
    const q = writePattern(pattern, index, quadstore.prefixes);
    if (q === null) continue;
    // As quadstore's own getLevelQueryForIndex: `gt`/`lt` hold the bounds, `gte`/`lte` say whether they are inclusive.
    const range = { [q.gte ? 'gte' : 'gt']: q.gt, [q.lte ? 'lte' : 'lt']: q.lt, limit: 1 };
    const keys = await state.db.keys(range).all(); // all() closes the iterator
    return keys.length > 0;
  }
  const { items } = await quadstore.get(pattern, { limit: 1 }); // no index starts with the graph (custom indexes)
  return items.length > 0;
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
 */
export async function countQuads(state: CrawlState): Promise<number> {
  const index = state.quadstore.indexes[0];
  if (index === undefined) return 0;
  let n = 0;
  // Quadstore keys of an index are `<prefix><terms…>`; '\uDBFF\uDFFF' is quadstore's upper boundary.
  for await (const _key of state.db.keys({ gte: index.prefix, lt: `${index.prefix}\uDBFF\uDFFF` })) n++;
  return n;
}
