// **stageDocument** and friends: a document's quads in the store, one named graph per document (graph = URL).
import type { Quad } from '@rdfjs/types';
import { Writer } from 'n3';
import { RdfscoutError } from '../errors.ts';
import type { CrawlState } from '../state/open-state.ts';
import { type Txn, levelTxn } from '../state/txn.ts';
import { docKey, docKeyRange } from '../state/document-keys.ts';
import { DocumentWriter } from './document-writer.ts';
import type { ParseProblem } from './types.ts';

/** Most partial quads kept in a partial record (the rest is only counted). */
export const MAX_PARTIAL_QUADS = 10_000;

/** What the parser produced before failing on a document (kept apart, never mixed into the good data). */
export interface PartialInfo {
  error: ParseProblem;
  /** The first quads the parser produced (at most MAX_PARTIAL_QUADS are stored). */
  quads: readonly Quad[];
  /** How many it produced in all, if more than `quads` holds. Default: `quads.length`. */
  count?: number;
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
 * Stages a document given as an array of quads in `txn` (see {@link DocumentWriter}, which the crawl feeds as it
 * parses): moved into the named graph `graphIri`, duplicates staged once, every chunk in the transaction. Returns
 * the number of distinct quads staged. Nothing is written until `txn.commit()`.
 */
export function stageDocument(state: CrawlState, txn: Txn, graphIri: string, quads: readonly Quad[]): number {
  const writer = new DocumentWriter(state, graphIri, { spill: false });
  for (const q of quads) writer.add(q);
  return writer.stage(txn);
}

/**
 * Stages quads of several named graphs as one document per graph ({@link stageDocument}; for tests and benchmarks
 * that build a store from quads). Each graph must not be stored yet: a document is stored once. A quad in the
 * default graph is refused (RDFSCOUT_INVALID_ARGUMENT): the store holds documents, each a named graph. Returns the
 * number of distinct quads staged.
 */
export function stageDocuments(state: CrawlState, txn: Txn, quads: readonly Quad[]): number {
  const byGraph = new Map<string, Quad[]>();
  for (const q of quads) {
    if (q.graph.termType !== 'NamedNode') throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Only quads of named graphs are stored (one document per graph); got one in the ${q.graph.termType}.`);
    const list = byGraph.get(q.graph.value);
    if (list === undefined) byGraph.set(q.graph.value, [q]);
    else list.push(q);
  }
  let n = 0;
  for (const [graph, list] of byGraph) n += stageDocument(state, txn, graph, list);
  return n;
}

/**
 * Whether a document is stored under the graph `graphIri` (indexed or not): whether its chunk 0 is, as a stored
 * document's chunks are numbered from 0. Asked with `get`, whose lookup runs on libuv's thread pool: classic-level's
 * `has()` and an iterator build a LevelDB iterator over every table file on the calling thread, which took 3% of a
 * bfs crawl's main thread (one ask per redirected document; bench/throughput.ts profile).
 */
export async function hasGraph(state: CrawlState, graphIri: string): Promise<boolean> {
  return (await state.docs.get(docKey(graphIri, 0))) !== undefined;
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
    count: Math.max(info.count ?? 0, info.quads.length),
    nquads,
    truncated: Math.max(info.count ?? 0, info.quads.length) > kept.length,
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
