// **runQuery** answers a read-only SPARQL 1.1 query over a crawl state with Comunica, bounded in time and size.
import { Readable } from 'node:stream';
import { QueryEngine } from '@comunica/query-sparql-rdfjs';
import type { Quad, Quad_Graph, Quad_Object, Quad_Predicate, Quad_Subject, Term } from '@rdfjs/types';
import { RdfscoutError } from '../errors.ts';
import type { CrawlState } from '../state/open-state.ts';
import { CrawlGraphView } from './crawl-graph-view.ts';
import { CRAWL_GRAPH } from './crawl-vocab.ts';

/** Options of {@link runQuery}. */
export interface QueryOptions {
  /** Wall-clock budget of the whole query, result iteration included; then RDFSCOUT_QUERY_TIMEOUT. Default: 30_000 ms. */
  timeoutMs?: number;
  /** Stop after this many solutions or quads and set `truncated`. Default: unlimited. */
  maxResults?: number;
  /**
   * Let `SERVICE` clauses through to the engine. Default: false (refused with RDFSCOUT_QUERY_FAILED before running).
   * Note: the bundled engine (`@comunica/query-sparql-rdfjs`) has no HTTP actor, so federated SERVICE calls fail
   * anyway; the switch exists so that a future engine can honour it.
   */
  allowService?: boolean;
  /** Base IRI against which relative IRIs of the query resolve. Default: none. */
  baseIri?: string;
  /**
   * Wait until every document committed before the query is in the SPARQL indexes (documents are indexed in the
   * background, at most ~0.5 s plus one indexing pass after their commit: see rdf/indexer.ts). Default: true.
   * False answers at once from what is indexed so far (a running crawl's newest documents may be missing).
   */
  waitIndexed?: boolean;
}

/** One solution: variable name (without `?`) → bound term. Unbound variables are absent. */
export type BindingRow = Readonly<Record<string, Term>>;

/** Common to streamed results. Iterate at most once. */
interface Streamed {
  /** True once iteration stopped because `maxResults` was reached (read it after iterating). */
  readonly truncated: boolean;
  /** Stops the query and frees its iterators (call when abandoning iteration early; idempotent). */
  close(): void;
}

/** The answer to a query, by form: SELECT → bindings, ASK → boolean, CONSTRUCT/DESCRIBE → quads. */
export type QueryResult =
  | (Streamed & { kind: 'bindings'; variables: readonly string[]; rows: AsyncIterable<BindingRow> })
  | { kind: 'boolean'; value: boolean }
  | (Streamed & { kind: 'quads'; quads: AsyncIterable<Quad> });

interface ResolvedOptions {
  readonly timeoutMs: number;
  readonly maxResults: number;
  readonly allowService: boolean;
  readonly baseIri: string | undefined;
  readonly waitIndexed: boolean;
}

const KNOWN_OPTIONS = new Set(['timeoutMs', 'maxResults', 'allowService', 'baseIri', 'waitIndexed']);

/** Validates and freezes {@link QueryOptions}. */
export function resolveQueryOptions(opts: QueryOptions = {}): ResolvedOptions {
  for (const key of Object.keys(opts)) {
    if (!KNOWN_OPTIONS.has(key)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Unknown query option "${key}" (known: ${[...KNOWN_OPTIONS].join(', ')}).`);
  }
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxResults = opts.maxResults ?? Number.POSITIVE_INFINITY;
  if (!(timeoutMs > 0)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `timeoutMs must be a positive number of milliseconds, got ${timeoutMs}.`);
  if (!(maxResults >= 0)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `maxResults must be ≥ 0, got ${maxResults}.`);
  return Object.freeze({ timeoutMs, maxResults, allowService: opts.allowService ?? false, baseIri: opts.baseIri, waitIndexed: opts.waitIndexed ?? true });
}

/** A query refused by policy, not by syntax: an update, or SERVICE when not allowed. Code RDFSCOUT_QUERY_FAILED. */
export class QueryRefusedError extends RdfscoutError {
  readonly reason: 'update' | 'service';
  constructor(reason: 'update' | 'service', message: string) {
    super('RDFSCOUT_QUERY_FAILED', message);
    this.name = 'QueryRefusedError';
    this.reason = reason;
  }
}

/** Algebra operations that write: refused, the store is read-only here. */
const UPDATE_TYPES = new Set(['compositeupdate', 'deleteinsert', 'load', 'clear', 'create', 'drop', 'add', 'move', 'copy']);

let sharedEngine: QueryEngine | undefined;
function engine(): QueryEngine {
  sharedEngine ??= new QueryEngine();
  return sharedEngine;
}

/** The subset of asynciterator's AsyncIterator that we drive by hand. */
interface PullIterator<T> {
  read(): T | null;
  readonly done: boolean;
  destroy(cause?: Error): void;
  on(event: string, fn: (...args: never[]) => void): unknown;
  removeListener(event: string, fn: (...args: never[]) => void): unknown;
}

/**
 * Runs one SPARQL query over the crawl state.
 *
 * Dataset: the default graph is the union of all document graphs (plus any quads stored in the real default
 * graph) and excludes the crawl-metadata graph `urn:rdfscout:crawl`; named graphs are the document URLs and the
 * crawl graph (`GRAPH ?doc { … }`, `GRAPH <urn:rdfscout:crawl> { … }`). A triple stated by two documents appears
 * twice in the default graph: use DISTINCT when that matters.
 *
 * Refused with RDFSCOUT_QUERY_FAILED: syntax errors (with the parser's message), updates (INSERT, DELETE, LOAD,
 * CLEAR, …), and `SERVICE` unless `allowService`. A query running past `timeoutMs` fails with
 * RDFSCOUT_QUERY_TIMEOUT and its store iterators are destroyed, so the work really stops.
 */
export async function runQuery(state: CrawlState, sparql: string, opts: QueryOptions = {}): Promise<QueryResult> {
  const options = resolveQueryOptions(opts);
  if (options.waitIndexed) await state.indexer.flush();
  const guard = new AbortController();
  const source = new GuardedSource(state, guard.signal);
  const timer = setTimeout(() => {
    guard.abort(new RdfscoutError('RDFSCOUT_QUERY_TIMEOUT', `The query ran longer than ${options.timeoutMs} ms and was stopped. Narrow it (LIMIT, more specific patterns) or raise the timeout.`));
  }, options.timeoutMs);
  timer.unref();
  guard.signal.addEventListener('abort', () => {
    clearTimeout(timer);
    source.destroyAll();
  });
  // Comunica writes into the context it is given: a fresh one per call.
  const context = (): object => ({ sources: [source], unionDefaultGraph: false, ...(options.baseIri === undefined ? {} : { baseIRI: options.baseIri }) });
  try {
    const algebra = await raceAbort(parseQuery(sparql, context()), guard.signal);
    checkAlgebra(algebra, options);
    // biome-ignore lint/suspicious/noExplicitAny: the algebra comes from the same engine's parser
    const result = await raceAbort(engine().query(algebra as any, context() as any), guard.signal);
    if (result.resultType === 'boolean') {
      const value = await raceAbort(result.execute(), guard.signal);
      guard.abort();
      return { kind: 'boolean', value };
    }
    if (result.resultType === 'bindings') {
      const metadata = await raceAbort(result.metadata(), guard.signal);
      const variables = (metadata.variables as unknown as Array<{ value: string }>).map((v) => v.value);
      const stream = (await raceAbort(result.execute(), guard.signal)) as unknown as PullIterator<Iterable<[{ value: string }, Term]>>;
      const iter = new BoundedStream(stream, guard, options.maxResults, toRow);
      return { kind: 'bindings', variables, rows: iter, get truncated() { return iter.truncated; }, close: () => iter.close() };
    }
    if (result.resultType === 'quads') {
      const stream = (await raceAbort(result.execute(), guard.signal)) as unknown as PullIterator<Quad>;
      const iter = new BoundedStream(stream, guard, options.maxResults, (q: Quad) => q);
      return { kind: 'quads', quads: iter, get truncated() { return iter.truncated; }, close: () => iter.close() };
    }
    throw new RdfscoutError('RDFSCOUT_QUERY_FAILED', 'Only queries are accepted (SELECT, ASK, CONSTRUCT, DESCRIBE); the crawl store is read-only here.');
  } catch (err) {
    guard.abort();
    throw toQueryError(err);
  }
}

async function parseQuery(sparql: string, context: object): Promise<unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: Comunica's context typing is generic over every engine
  const explained = await engine().explain(sparql, context as any, 'parsed');
  return (explained as { data: unknown }).data;
}

/** Refuses updates and, unless allowed, SERVICE, by walking the parsed algebra before anything runs. */
function checkAlgebra(algebra: unknown, options: ResolvedOptions): void {
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    const type = (node as { type?: unknown }).type;
    if (typeof type === 'string' && UPDATE_TYPES.has(type)) {
      throw new QueryRefusedError('update', `SPARQL Update (${type === 'deleteinsert' ? 'INSERT/DELETE' : type.toUpperCase()}) is refused: the crawl store is read-only here. Send a SELECT, ASK, CONSTRUCT or DESCRIBE query.`);
    }
    if (type === 'service' && !options.allowService) {
      const name = (node as { name?: { value?: string } }).name?.value ?? '?';
      throw new QueryRefusedError('service', `SERVICE <${name}> is disabled: federated queries to other endpoints are off by default.`);
    }
    for (const value of Object.values(node)) if (typeof value === 'object') walk(value);
  };
  walk(algebra);
}

function toQueryError(err: unknown): RdfscoutError {
  if (err instanceof RdfscoutError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new RdfscoutError('RDFSCOUT_QUERY_FAILED', `The query failed: ${message}`, { cause: err });
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function toRow(bindings: Iterable<[{ value: string }, Term]>): BindingRow {
  const row: Record<string, Term> = {};
  for (const [variable, term] of bindings) row[variable.value] = term;
  return row;
}

/** Pulls from a Comunica stream item by item, stopping at `max` items, on close, or when the guard aborts. */
class BoundedStream<In, Out> implements AsyncIterable<Out> {
  #stream: PullIterator<In>;
  #guard: AbortController;
  #max: number;
  #convert: (item: In) => Out;
  #error: unknown = undefined;
  #started = false;
  truncated = false;

  constructor(stream: PullIterator<In>, guard: AbortController, max: number, convert: (item: In) => Out) {
    this.#stream = stream;
    this.#guard = guard;
    this.#max = max;
    this.#convert = convert;
    stream.on('error', (err: unknown) => {
      this.#error ??= err;
    });
    guard.signal.addEventListener('abort', () => stream.destroy(), { once: true });
  }

  close(): void {
    if (!this.#guard.signal.aborted) this.#guard.abort();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Out> {
    if (this.#started) throw new Error('A query result can be iterated only once.');
    this.#started = true;
    const signal = this.#guard.signal;
    let count = 0;
    try {
      for (;;) {
        if (signal.aborted) {
          if (signal.reason instanceof RdfscoutError) throw signal.reason;
          return;
        }
        if (this.#error !== undefined) throw toQueryError(this.#error);
        const item = this.#stream.read();
        if (item !== null) {
          if (count >= this.#max) {
            this.truncated = true;
            return;
          }
          count++;
          yield this.#convert(item);
          continue;
        }
        if (this.#stream.done) return;
        await this.#waitForData(signal);
      }
    } finally {
      this.close();
    }
  }

  #waitForData(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        this.#stream.removeListener('readable', wake);
        this.#stream.removeListener('end', wake);
        this.#stream.removeListener('error', wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      this.#stream.on('readable', wake);
      this.#stream.on('end', wake);
      this.#stream.on('error', wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }
}

/** Whether a pattern's graph term names the crawl graph (a view over the records, CrawlGraphView). */
function isCrawlGraph(graph: Term | null | undefined): boolean {
  return graph?.termType === 'NamedNode' && graph.value === CRAWL_GRAPH;
}

/**
 * The RDF/JS source Comunica reads: the quadstore and the crawl graph's view (CrawlGraphView) seen through the
 * dataset described on {@link runQuery}.
 * It only reads (no `import`/`remove`, so no Comunica update actor can write through it), remembers every
 * iterator it hands out, and destroys them all when the query is stopped.
 */
class GuardedSource {
  #state: CrawlState;
  #signal: AbortSignal;
  #live = new Set<{ destroy(): void; done: boolean }>();

  readonly #view: CrawlGraphView;

  constructor(state: CrawlState, signal: AbortSignal) {
    this.#state = state;
    this.#signal = signal;
    this.#view = new CrawlGraphView(state);
  }

  match(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): unknown {
    if (this.#signal.aborted) return Readable.from([], { objectMode: true });
    if (isCrawlGraph(graph)) return this.#trackReadable(Readable.from(this.#view.match(subject, predicate, object)));
    const store = this.#state.quadstore;
    const s = (subject ?? undefined) as Quad_Subject | undefined;
    const p = (predicate ?? undefined) as Quad_Predicate | undefined;
    const o = (object ?? undefined) as Quad_Object | undefined;
    if (graph?.termType === 'DefaultGraph') {
      const df = this.#state.dataFactory;
      const raw = store.match(s, p, o, undefined);
      this.#track(raw);
      const merged = raw
        .filter((q) => !(q.graph.termType === 'NamedNode' && q.graph.value === CRAWL_GRAPH))
        .map((q) => (q.graph.termType === 'DefaultGraph' ? q : df.quad(q.subject, q.predicate, q.object, df.defaultGraph())));
      this.#track(merged);
      return merged;
    }
    const it = store.match(s, p, o, (graph ?? undefined) as Quad_Graph | undefined);
    this.#track(it);
    if (graph) return it;
    // Any graph: the stored quads, then the crawl graph's.
    const view = this.#view;
    return this.#trackReadable(
      Readable.from(
        (async function* () {
          yield* it as unknown as AsyncIterable<Quad>;
          yield* view.match(subject, predicate, object);
        })(),
      ),
    );
  }

  async countQuads(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): Promise<number> {
    if (isCrawlGraph(graph)) return this.#view.count(subject, predicate, object);
    const g = graph?.termType === 'DefaultGraph' ? undefined : ((graph ?? undefined) as Quad_Graph | undefined);
    const stored = await this.#state.quadstore.countQuads(
      (subject ?? undefined) as Quad_Subject | undefined,
      (predicate ?? undefined) as Quad_Predicate | undefined,
      (object ?? undefined) as Quad_Object | undefined,
      g,
    );
    return graph ? stored : stored + (await this.#view.count(subject, predicate, object));
  }

  destroyAll(): void {
    for (const it of this.#live) if (!it.done) it.destroy();
    this.#live.clear();
  }

  #track(it: { destroy(): void; done: boolean; once(event: string, fn: () => void): unknown }): void {
    this.#live.add(it);
    it.once('end', () => this.#live.delete(it));
  }

  #trackReadable(r: Readable): Readable {
    const handle = {
      destroy: () => r.destroy(),
      get done() {
        return r.readableEnded || r.destroyed;
      },
    };
    this.#live.add(handle);
    r.once('close', () => this.#live.delete(handle));
    return r;
  }
}
