// The differential SPARQL harness: one generated crawl answered by rdfscout (one folder, two shards, HTTP) and by a reference engine.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { QueryEngine } from '@comunica/query-sparql';
import type { Quad, Term } from '@rdfjs/types';
import { Parser, Store } from 'n3';
import { DataFactory } from 'rdf-data-factory';
import { isomorphic } from 'rdf-isomorphic';
import { CRAWL_GRAPH } from '../../../src/crawl-log/crawl-vocab.ts';
import { stageRecordWrite } from '../../../src/crawl-log/record-store.ts';
import { asShardSet, type CrawlSource, planShardMerge, readMergedRecords, type ShardSet } from '../../../src/crawl-log/shard-merge.ts';
import { CrawlTally } from '../../../src/crawl-log/tally.ts';
import { Prng } from '../../../src/random/prng.ts';
import { exportNQuads, stageDocuments } from '../../../src/rdf/index.ts';
import { type Endpoint, startEndpoint } from '../../../src/sparql/endpoint.ts';
import { termToNt } from '../../../src/sparql/format-results.ts';
import { runQuery } from '../../../src/sparql/query-engine.ts';
import { repairUnionIterator } from '../../../src/sparql/union-iterator-repair.ts';
import { type CrawlState, openState } from '../../../src/state/open-state.ts';
import { makeRecord } from '../fixture.ts';
import { type GeneratedData, generateData } from './generate-data.ts';
import type { GeneratedQuery } from './generate-query.ts';

/** A comparable answer: sorted (or, for a total ORDER BY, ordered) row strings, a boolean, or a graph. */
export type Answer = { kind: 'rows'; rows: string[] } | { kind: 'boolean'; value: boolean } | { kind: 'graph'; quads: Quad[] };

/** Per-query time limit of every engine (ms). */
export const CASE_TIMEOUT_MS = Number(process.env.DIFF_TIMEOUT_MS ?? 20_000);

// The reference is Comunica too, over asynciterator's UnionIterator: unrepaired, it stalled on UNIONs whose first
// branch ends inside the union's read (2 reference stalls in 2000 cases), as rdfscout did.
repairUnionIterator();
const reference = new QueryEngine();
const df = new DataFactory();

/** The crawl of one seed, stored three ways, with an endpoint and the reference stores. */
export class World {
  readonly seed: number;
  readonly data: GeneratedData;
  readonly #dirs: string[];
  readonly #states: CrawlState[];
  readonly one: CrawlState;
  readonly shards: ShardSet;
  readonly endpoint: Endpoint;
  readonly #refOne: Store;
  readonly #refShards: Store;
  /** quads in document graphs: export, SPARQL (GRAPH ?g without the crawl graph), stats (records' triples). */
  readonly counts: { export: number; sparql: number; stats: number; shardsExport: number; shardsSparql: number; shardsStats: number };

  private constructor(init: { seed: number; data: GeneratedData; dirs: string[]; states: CrawlState[]; shards: ShardSet; endpoint: Endpoint; refOne: Store; refShards: Store; counts: World['counts'] }) {
    this.seed = init.seed;
    this.data = init.data;
    this.#dirs = init.dirs;
    this.#states = init.states;
    this.one = init.states[0] as CrawlState;
    this.shards = init.shards;
    this.endpoint = init.endpoint;
    this.#refOne = init.refOne;
    this.#refShards = init.refShards;
    this.counts = init.counts;
  }

  static async create(seed: number): Promise<World> {
    const data = generateData(seed);
    const prng = new Prng(seed ^ 0x5eed);
    const dirs = await Promise.all([0, 1, 2].map(() => mkdtemp(join(tmpdir(), 'rdfscout-diff-'))));
    const states = await Promise.all(dirs.map((d) => openState(d)));
    const [one, a, b] = states as [CrawlState, CrawlState, CrawlState];
    const seqs = [1, 1, 1];
    const store = async (state: CrawlState, i: number, doc: GeneratedData['documents'][number], second: number): Promise<void> => {
      const txn = state.txn();
      stageDocuments(state, txn, doc.quads);
      const seq = seqs[i] ?? 1;
      seqs[i] = seq + 1;
      stageRecordWrite(state, txn, makeRecord({ seq, url: doc.url, finalUrl: doc.url, triples: doc.quads.length, pld: 'ex.org', fetchedAt: new Date(Date.UTC(2024, 4, 1, 10, 0, second)).toISOString() }));
      await txn.commit();
    };
    for (const [k, doc] of data.documents.entries()) {
      await store(one, 0, doc, k);
      // Two shards: each document in one, and one document in both (the later fetch, in b, wins; same content).
      const shard = k === 0 ? 'both' : prng.chance(0.5) ? 'a' : 'b';
      if (shard !== 'b') await store(a, 1, doc, k);
      if (shard !== 'a') await store(b, 2, doc, k + 30);
    }
    for (const s of states) await s.indexer.flush();
    const shards: ShardSet = { states: [a, b], plan: await planShardMerge([a, b]) };
    const endpoint = await startEndpoint(one, { port: 0, timeoutMs: CASE_TIMEOUT_MS });
    const [oneExport, oneQuads] = await exported(one);
    const [shardsExport, shardsQuads] = await exported(shards);
    const counts = {
      export: oneExport,
      sparql: await sparqlQuadCount(one),
      stats: await statsTriples(one),
      shardsExport,
      shardsSparql: await sparqlQuadCount(shards),
      shardsStats: await statsTriples(shards),
    };
    return new World({ seed, data, dirs, states, shards, endpoint, refOne: referenceStore(oneQuads), refShards: referenceStore(shardsQuads), counts });
  }

  async close(): Promise<void> {
    await this.endpoint.close();
    for (const s of this.#states) await s.close();
    for (const d of this.#dirs) await rm(d, { recursive: true, force: true });
  }

  /** The answer of `where` (rdfscout over one folder, over the two shards, over HTTP; or the reference engine). */
  async answer(where: 'one' | 'shards' | 'http' | 'reference' | 'reference-shards', q: GeneratedQuery): Promise<Answer> {
    if (where === 'reference' || where === 'reference-shards') return referenceAnswer(where === 'reference' ? this.#refOne : this.#refShards, q);
    if (where === 'http') return httpAnswer(this.endpoint.url, q);
    return rdfscoutAnswer(where === 'one' ? this.one : this.shards, q);
  }
}

/** The export's quad count (documents only) and every quad with the crawl graph, parsed back. */
async function exported(source: CrawlSource): Promise<[number, Quad[]]> {
  const sink = (): { out: Writable; text: () => string } => {
    const parts: string[] = [];
    return { out: new Writable({ write(chunk, _e, cb) { parts.push(String(chunk)); cb(); } }), text: () => parts.join('') };
  };
  const plain = sink();
  const count = await exportNQuads(source, plain.out);
  const full = sink();
  await exportNQuads(source, full.out, { withCrawlGraph: true });
  return [count, new Parser({ format: 'N-Quads', blankNodePrefix: '' }).parse(full.text())];
}

async function sparqlQuadCount(source: CrawlSource): Promise<number> {
  const r = await runQuery(source, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?g != <${CRAWL_GRAPH}>) }`, { timeoutMs: CASE_TIMEOUT_MS });
  if (r.kind !== 'bindings') throw new Error('expected bindings');
  let n = -1;
  for await (const row of r.rows) n = Number(row.n?.value);
  return n;
}

/** What `rdfscout stats` counts as triples: the records' (CrawlTally over the merged records). */
async function statsTriples(source: CrawlSource): Promise<number> {
  const tally = new CrawlTally();
  for await (const { record } of readMergedRecords(asShardSet(source))) tally.add(record);
  return tally.triples;
}

/**
 * The reference dataset (SPARQL 1.1 §13, as rdfscout documents it): every quad in its named graph, and the default
 * graph the merge of the document graphs (each triple once), without the crawl graph.
 */
function referenceStore(quads: Quad[]): Store {
  const store = new Store();
  const seen = new Set<string>();
  for (const q of quads) {
    store.addQuad(q);
    if (q.graph.value === CRAWL_GRAPH) continue;
    const key = `${termToNt(q.subject)} ${termToNt(q.predicate)} ${termToNt(q.object)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    store.addQuad(q.subject, q.predicate, q.object);
  }
  return store;
}

function rowKey(row: Record<string, Term | undefined>): string {
  return Object.keys(row).filter((k) => row[k] !== undefined).sort().map((k) => `${k}=${termToNt(row[k] as Term)}`).join(' ');
}

function rowsAnswer(rows: string[], q: GeneratedQuery): Answer {
  return { kind: 'rows', rows: q.ordered ? rows : rows.sort() };
}

async function rdfscoutAnswer(source: CrawlSource, q: GeneratedQuery): Promise<Answer> {
  const r = await runQuery(source, q.sparql, { timeoutMs: CASE_TIMEOUT_MS });
  if (r.kind === 'boolean') return { kind: 'boolean', value: r.value };
  if (r.kind === 'bindings') {
    const rows: string[] = [];
    for await (const row of r.rows) rows.push(rowKey(row));
    return rowsAnswer(rows, q);
  }
  const quads: Quad[] = [];
  for await (const quad of r.quads) quads.push(quad);
  return { kind: 'graph', quads };
}

async function referenceAnswer(store: Store, q: GeneratedQuery): Promise<Answer> {
  const context = { sources: [store] } as never;
  if (q.form === 'ask') return { kind: 'boolean', value: await reference.queryBoolean(q.sparql, context) };
  if (q.form === 'select') {
    const stream = await reference.queryBindings(q.sparql, context);
    const rows: string[] = [];
    for await (const b of stream) rows.push(rowKey(Object.fromEntries([...b].map(([k, v]) => [k.value, v]))));
    return rowsAnswer(rows, q);
  }
  const stream = await reference.queryQuads(q.sparql, context);
  // SPARQL 1.1 §16.2: instances that are not RDF triples are not in the result (Comunica keeps a literal subject)
  return { kind: 'graph', quads: (await stream.toArray()).filter((x) => (x.subject.termType as string) !== 'Literal' && x.predicate.termType === 'NamedNode') };
}

interface JsonTerm {
  type: 'uri' | 'bnode' | 'literal' | 'typed-literal';
  value: string;
  'xml:lang'?: string;
  datatype?: string;
}

async function httpAnswer(url: string, q: GeneratedQuery): Promise<Answer> {
  const graph = q.form === 'construct' || q.form === 'describe';
  const res = await fetch(`${url}?query=${encodeURIComponent(q.sparql)}`, { headers: { Accept: graph ? 'application/n-triples' : 'application/sparql-results+json' }, signal: AbortSignal.timeout(CASE_TIMEOUT_MS + 5_000) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${body.slice(0, 300)}`);
  if (graph) return { kind: 'graph', quads: new Parser({ format: 'N-Triples', blankNodePrefix: '' }).parse(body) };
  const json = JSON.parse(body) as { boolean?: boolean; results?: { bindings: Array<Record<string, JsonTerm>> } };
  if (json.boolean !== undefined) return { kind: 'boolean', value: json.boolean };
  const parser = new Parser({ format: 'N-Triples', blankNodePrefix: '' });
  const toTerm = (t: JsonTerm): Term => {
    if (t.type === 'uri') return { termType: 'NamedNode', value: t.value } as Term;
    if (t.type === 'bnode') return { termType: 'BlankNode', value: t.value } as Term;
    const lit = `"${JSON.stringify(t.value).slice(1, -1)}"${t['xml:lang'] ? `@${t['xml:lang']}` : t.datatype ? `^^<${t.datatype}>` : ''}`;
    return (parser.parse(`<x:s> <x:p> ${lit} .`)[0] as Quad).object;
  };
  const rows = (json.results?.bindings ?? []).map((b) => rowKey(Object.fromEntries(Object.entries(b).map(([k, v]) => [k, toTerm(v)]))));
  return rowsAnswer(rows, q);
}

/** Null when equal; else what differs. Graphs: sets of triples, isomorphic (blank nodes renamed). */
export function compareAnswers(got: Answer, want: Answer): string | null {
  if (got.kind !== want.kind) return `kind ${got.kind} vs ${want.kind}`;
  if (got.kind === 'boolean' && want.kind === 'boolean') return got.value === want.value ? null : `ASK ${got.value} vs ${want.value}`;
  if (got.kind === 'rows' && want.kind === 'rows') {
    if (got.rows.length === want.rows.length && got.rows.every((r, i) => r === want.rows[i])) return null;
    const missing = want.rows.filter((r) => !got.rows.includes(r)).slice(0, 3);
    const extra = got.rows.filter((r) => !want.rows.includes(r)).slice(0, 3);
    return `${got.rows.length} rows vs ${want.rows.length}; missing ${JSON.stringify(missing)}; extra ${JSON.stringify(extra)}${missing.length + extra.length === 0 ? `; order ${JSON.stringify(got.rows.slice(0, 4))} vs ${JSON.stringify(want.rows.slice(0, 4))}` : ''}`;
  }
  if (got.kind === 'graph' && want.kind === 'graph') {
    const triples = (qs: Quad[]): Quad[] => {
      const seen = new Map<string, Quad>();
      for (const x of qs) seen.set(`${termToNt(x.subject)} ${termToNt(x.predicate)} ${termToNt(x.object)}`, df.quad(x.subject, x.predicate, x.object));
      return [...seen.values()];
    };
    const a = triples(got.quads);
    const b = triples(want.quads);
    if (a.length === b.length && isomorphic(a, b)) return null;
    return `graph of ${a.length} triples vs ${b.length}: ${a.slice(0, 2).map((x) => termToNt(x.subject) + termToNt(x.predicate) + termToNt(x.object)).join(' | ')} vs ${b.slice(0, 2).map((x) => termToNt(x.subject) + termToNt(x.predicate) + termToNt(x.object)).join(' | ')}`;
  }
  return 'incomparable';
}
