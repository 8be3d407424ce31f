// **runQuery** answers a read-only SPARQL 1.1 query over a crawl state in a query worker, bounded in time, memory and size.
import type { Quad, Term } from '@rdfjs/types';
import { RdfscoutError } from '../errors.ts';
import { asShardSet, type CrawlSource } from '../crawl-log/shard-merge.ts';
import type { RequestDataset } from './guarded-source.ts';
import { decodeError, QueryRefusedError } from './query-errors.ts';
import { decodeQuad, decodeTerm, type WireQuad, type WireRow } from './term-codec.ts';
import { acquireWorker, type QueryWorker, releaseWorker } from './worker-pool.ts';
import type { FromWorker } from './worker-protocol.ts';

export { QueryRefusedError };

/** Options of {@link runQuery}. */
export interface QueryOptions {
  /** Wall-clock budget of the whole query, result iteration included; then RDFSCOUT_QUERY_TIMEOUT. Default: 30_000 ms. */
  timeoutMs?: number;
  /** Stop after this many solutions or quads and set `truncated`. Default: unlimited. */
  maxResults?: number;
  /**
   * Memory cap of one query, in MB (the query worker's heap beyond the engine's own); past it the query ends with
   * RDFSCOUT_QUERY_MEMORY. Default: 512.
   */
  maxQueryMemoryMb?: number;
  /**
   * Let `SERVICE` clauses through to the engine. Default: false (refused with RDFSCOUT_QUERY_FAILED before running).
   * Note: the bundled engine (`@comunica/query-sparql-rdfjs`) has no HTTP actor, so federated SERVICE calls fail
   * anyway; the switch exists so that a future engine can honour it.
   */
  allowService?: boolean;
  /** Base IRI against which relative IRIs of the query resolve. Default: none. */
  baseIri?: string;
  /**
   * The dataset to query instead of the crawl's own (SPARQL 1.1 Protocol `default-graph-uri` and
   * `named-graph-uri`): the default graph is the merge of `defaultGraphs`, the named graphs are `namedGraphs`.
   */
  dataset?: RequestDataset;
  /**
   * Wait until every document committed before the query is in the SPARQL indexes (documents are indexed in the
   * background, at most ~0.5 s plus one indexing pass after their commit: see state/indexer.ts). Default: true.
   * False answers at once from what is indexed so far (a running crawl's newest documents may be missing).
   */
  waitIndexed?: boolean;
  /**
   * Told of each phase of the query as it ends, with the ms since the call: `indexed` (documents committed before the
   * query are searchable), `worker` (a loaded query worker took it), `head` (parsed, planned, first answer ready),
   * `done` (the last result handed out, or the query closed or failed). Default: none.
   */
  onPhase?: (phase: QueryPhase, ms: number) => void;
}

/** The phases {@link QueryOptions.onPhase} reports. */
type QueryPhase = 'indexed' | 'worker' | 'head' | 'done';

/** One solution: variable name (without `?`) → bound term. Unbound variables are absent. */
export type BindingRow = Readonly<Record<string, Term>>;

/** Common to streamed results. Iterate at most once. */
interface Streamed {
  /** True once iteration stopped because `maxResults` was reached (read it after iterating). */
  readonly truncated: boolean;
  /** Solutions or quads handed out so far. */
  readonly delivered: number;
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
  readonly maxQueryMemoryMb: number;
  readonly allowService: boolean;
  readonly baseIri: string | undefined;
  readonly dataset: RequestDataset | null;
  readonly waitIndexed: boolean;
  readonly onPhase: ((phase: QueryPhase, ms: number) => void) | null;
}

const KNOWN_OPTIONS = new Set(['timeoutMs', 'maxResults', 'maxQueryMemoryMb', 'allowService', 'baseIri', 'dataset', 'waitIndexed', 'onPhase']);
/**
 * Least time a query may wait for the indexer and for a loaded worker before it runs (then `timeoutMs` if longer):
 * loading the engine in a fresh worker takes seconds on a busy machine, which a short time limit should not fail for.
 */
const WAIT_FLOOR_MS = 60_000;
/** Results per message from the worker. */
const BATCH = 256;

/** Validates and freezes {@link QueryOptions}. */
export function resolveQueryOptions(opts: QueryOptions = {}): ResolvedOptions {
  for (const key of Object.keys(opts)) {
    if (!KNOWN_OPTIONS.has(key)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Unknown query option "${key}" (known: ${[...KNOWN_OPTIONS].join(', ')}).`);
  }
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxResults = opts.maxResults ?? Number.POSITIVE_INFINITY;
  const maxQueryMemoryMb = opts.maxQueryMemoryMb ?? 512;
  if (!(timeoutMs > 0)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `timeoutMs must be a positive number of milliseconds, got ${timeoutMs}.`);
  if (!(maxResults >= 0)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `maxResults must be ≥ 0, got ${maxResults}.`);
  if (!(Number.isInteger(maxQueryMemoryMb) && maxQueryMemoryMb >= 16)) {
    throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `maxQueryMemoryMb must be a whole number of MB ≥ 16, got ${maxQueryMemoryMb}.`);
  }
  const dataset = opts.dataset ?? null;
  if (dataset !== null) {
    for (const iri of [...dataset.defaultGraphs, ...dataset.namedGraphs]) {
      if (!URL.canParse(iri)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `A graph of the dataset is not an absolute IRI: "${iri}".`);
    }
  }
  return Object.freeze({ timeoutMs, maxResults, maxQueryMemoryMb, allowService: opts.allowService ?? false, baseIri: opts.baseIri, dataset, waitIndexed: opts.waitIndexed ?? true, onPhase: opts.onPhase ?? null });
}

/**
 * Runs one SPARQL query over the crawl state (or several shards read as one crawl, shard-merge.ts), in a worker thread (worker-pool.ts) that opens the same LevelDB.
 *
 * Dataset (README "SPARQL semantics"; guarded-source.ts): the default graph is the RDF merge of all document
 * graphs, each triple once, without the crawl-metadata graph `urn:rdfscout:crawl`; named graphs are the document
 * URLs and the crawl graph. CONSTRUCT and DESCRIBE results are sets of triples.
 *
 * Refused with RDFSCOUT_QUERY_FAILED: syntax errors (with the parser's message), updates (INSERT, DELETE, LOAD,
 * CLEAR, …), and `SERVICE` unless `allowService`. Limits are hard: past `timeoutMs` (counted from the moment a
 * loaded worker takes the query) the worker is terminated and the query fails with RDFSCOUT_QUERY_TIMEOUT; waiting
 * for the indexer and for a loaded worker before that is bounded too (by `timeoutMs`, at least 60 s); a
 * query whose heap grows past `maxQueryMemoryMb` fails with RDFSCOUT_QUERY_MEMORY. Either way the caller's thread
 * and store stay usable.
 */
export async function runQuery(crawl: CrawlSource, sparql: string, opts: QueryOptions = {}): Promise<QueryResult> {
  const options = resolveQueryOptions(opts);
  const { states, plan } = asShardSet(crawl);
  const started = performance.now();
  const phase = (name: QueryPhase): void => options.onPhase?.(name, Math.round(performance.now() - started));
  const waitUntil = started + Math.max(options.timeoutMs, WAIT_FLOOR_MS);
  if (options.waitIndexed) {
    await beforeDeadline(Promise.all(states.map((state) => state.indexer.flush())), waitUntil, 'for the documents committed before it to be indexed');
    phase('indexed');
  }
  const acquiring = acquireWorker(options.maxQueryMemoryMb);
  let worker: QueryWorker;
  try {
    worker = await beforeDeadline(acquiring, waitUntil, 'for a loaded query worker');
  } catch (err) {
    acquiring.then(releaseWorker, () => {}); // loaded too late for this query: back to the pool
    throw err;
  }
  phase('worker');
  const session = new Session(worker, options.timeoutMs, () => phase('done'));
  session.worker.post({ t: 'run', dirs: states.map((s) => s.dir), plan, sparql, options: { maxResults: options.maxResults, allowService: options.allowService, baseIri: options.baseIri, dataset: options.dataset } });
  const first = await session.receive();
  phase('head');
  if (first.t !== 'head') throw session.unexpected(first);
  const head = first.head;
  if (head.kind === 'boolean') {
    session.end();
    return { kind: 'boolean', value: head.value };
  }
  const df = (states[0] as (typeof states)[number]).dataFactory;
  if (head.kind === 'bindings') {
    const { variables } = head;
    const toRow = (wire: WireRow): BindingRow => {
      const row: Record<string, Term> = {};
      wire.forEach((t, i) => {
        if (t !== null) row[variables[i] as string] = decodeTerm(t, df);
      });
      return row;
    };
    const rows = session.items(toRow);
    return { kind: 'bindings', variables, rows, get truncated() { return session.truncated; }, get delivered() { return session.delivered; }, close: () => session.close() };
  }
  const quads = session.items((wire: WireQuad) => decodeQuad(wire, df));
  return { kind: 'quads', quads, get truncated() { return session.truncated; }, get delivered() { return session.delivered; }, close: () => session.close() };
}

/** `promise`, or RDFSCOUT_QUERY_TIMEOUT once `deadline` (a performance.now() time) passes first. */
async function beforeDeadline<T>(promise: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RdfscoutError('RDFSCOUT_QUERY_TIMEOUT', `The query waited longer than its time limit ${what} and was not run. Try again, or raise the timeout.`)), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** One query on one worker: its timer, its messages, and the worker's return to the pool when it ends. */
class Session {
  readonly worker: QueryWorker;
  truncated = false;
  delivered = 0;
  readonly #onEnd: () => void;
  #timer: NodeJS.Timeout;
  #ended = false;
  #closing = false;
  #started = false;

  constructor(worker: QueryWorker, timeoutMs: number, onEnd: () => void) {
    this.worker = worker;
    this.#onEnd = onEnd;
    this.#timer = setTimeout(() => {
      worker.kill(new RdfscoutError('RDFSCOUT_QUERY_TIMEOUT', `The query ran longer than ${timeoutMs} ms (the time limit) and was stopped. Narrow it (LIMIT, more specific patterns) or raise the timeout.`));
      this.end();
    }, timeoutMs);
  }

  /** The next message; a worker-side error ends the query and is thrown as an RdfscoutError. */
  async receive(): Promise<FromWorker> {
    let m: FromWorker;
    try {
      m = await this.worker.receive();
    } catch (err) {
      this.end();
      throw err;
    }
    if (m.t === 'error') {
      this.end();
      throw decodeError(m.error);
    }
    return m;
  }

  unexpected(m: FromWorker): RdfscoutError {
    this.worker.kill(new RdfscoutError('RDFSCOUT_INTERNAL', 'protocol error'));
    this.end();
    return new RdfscoutError('RDFSCOUT_INTERNAL', `Query worker protocol: unexpected ${m.t}.`);
  }

  /** The query's results, pulled from the worker batch by batch as the consumer iterates. */
  async *items<W, T>(decode: (wire: W) => T): AsyncGenerator<T> {
    if (this.#started) throw new Error('A query result can be iterated only once.');
    this.#started = true;
    try {
      while (!this.#ended && !this.#closing) {
        this.worker.post({ t: 'pull', max: BATCH });
        const m = await this.receive();
        if (m.t !== 'batch') throw this.unexpected(m);
        for (const item of m.items) {
          this.delivered++;
          yield decode(item as W);
        }
        if (m.done) {
          this.truncated = m.truncated;
          this.end();
        }
      }
    } finally {
      this.close();
    }
  }

  /** Abandons the query: the worker stops it and goes back to the pool (or is killed at the time limit). */
  close(): void {
    if (this.#ended || this.#closing) return;
    if (!this.worker.alive) {
      this.end();
      return;
    }
    this.#closing = true;
    this.worker.post({ t: 'close' });
    void this.#awaitClosed();
  }

  async #awaitClosed(): Promise<void> {
    for (;;) {
      const m = await this.worker.receive().catch(() => null);
      if (m === null || m.t === 'closed' || m.t === 'error') break;
    }
    this.end();
  }

  /** The query is over: stop the clock, give the worker back (a dead one is replaced). Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    releaseWorker(this.worker);
    this.#onEnd();
  }
}
