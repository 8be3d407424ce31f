// **evaluate** runs one SPARQL query with Comunica over a crawl state and hands its results out in batches (query worker side).
import { QueryEngine } from '@comunica/query-sparql-rdfjs';
import type { Quad, Term } from '@rdfjs/types';
import { RdfscoutError } from '../errors.ts';
import type { CrawlSource } from '../crawl-log/shard-merge.ts';
import { GuardedSource, type RequestDataset } from './guarded-source.ts';
import { projectionOrder } from './projection-order.ts';
import { QueryRefusedError } from './query-errors.ts';
import { encodeQuad, encodeTerm, type WireQuad, type WireRow } from './term-codec.ts';
import { termsKey } from './union-dedupe.ts';
import { repairUnionIterator } from './union-iterator-repair.ts';

/** What the worker is asked to run. */
export interface EvaluateOptions {
  maxResults: number;
  allowService: boolean;
  baseIri: string | undefined;
  /** The request's dataset (protocol default-graph-uri / named-graph-uri), or null for the crawl's own. */
  dataset: RequestDataset | null;
}

/** One batch of results: at least one item unless `done`. */
export interface Batch<T> {
  items: T[];
  done: boolean;
  /** Iteration stopped at `maxResults` with more results to come. */
  truncated: boolean;
}

/** A running query's results, pulled batch by batch. */
export interface Evaluation {
  readonly head: { kind: 'bindings'; variables: string[] } | { kind: 'quads' } | { kind: 'boolean'; value: boolean };
  /** The next batch (up to `max` items: what is ready now, or the first item to come). */
  next(max: number): Promise<Batch<WireRow | WireQuad>>;
  /** Stops the query and frees its store iterators (idempotent). */
  close(): void;
  /**
   * Resolves once nothing of the closed query uses the store any more (the engine's calls in flight have returned),
   * so that the store can be closed under it.
   */
  settled(): Promise<void>;
}

/** Algebra operations that write: refused, the store is read-only here. */
const UPDATE_TYPES = new Set(['compositeupdate', 'deleteinsert', 'load', 'clear', 'create', 'drop', 'add', 'move', 'copy']);

let sharedEngine: QueryEngine | undefined;
/** The Comunica engine (loaded once per worker: loading takes seconds), over a repaired UnionIterator. */
export function engine(): QueryEngine {
  if (sharedEngine === undefined) {
    repairUnionIterator();
    sharedEngine = new QueryEngine();
  }
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
 * Parses `sparql`, refuses updates and (unless allowed) SERVICE before anything runs, and starts the query.
 * CONSTRUCT and DESCRIBE results are graphs: each triple is sent once, and only RDF triples (SPARQL 1.1 §16.2: the
 * result is an RDF graph; Comunica's CONSTRUCT keeps a literal it binds in subject position).
 */
export async function evaluate(crawl: CrawlSource, sparql: string, options: EvaluateOptions): Promise<Evaluation> {
  const source = new GuardedSource(crawl, options.dataset);
  // Comunica writes into the context it is given: a fresh one per call.
  const base = prologueBase(sparql, options.baseIri);
  const context = (): object => ({ sources: [source], unionDefaultGraph: false, ...(base === undefined ? {} : { baseIRI: base }) });
  try {
    // biome-ignore lint/suspicious/noExplicitAny: Comunica's context typing is generic over every engine
    const algebra = ((await engine().explain(sparql, context() as any, 'parsed')) as { data: unknown }).data;
    checkAlgebra(algebra, options);
    // biome-ignore lint/suspicious/noExplicitAny: the algebra comes from the same engine's parser
    const result = await engine().query(algebra as any, context() as any);
    if (result.resultType === 'boolean') {
      const value = await result.execute();
      source.destroyAll();
      return { head: { kind: 'boolean', value }, next: async () => ({ items: [], done: true, truncated: false }), close: () => {}, settled: () => settledSource(source) };
    }
    if (result.resultType === 'bindings') {
      const metadata = await result.metadata();
      const variables = projectionOrder(sparql, (metadata.variables as unknown as Array<{ variable: { value: string } } | { value: string }>).map((v) => ('variable' in v ? v.variable.value : v.value)));
      const stream = (await result.execute()) as unknown as PullIterator<{ get(name: string): Term | undefined }>;
      const toRow = (b: { get(name: string): Term | undefined }): WireRow => variables.map((v) => {
        const t = b.get(v);
        return t ? encodeTerm(t) : null;
      });
      return batched({ kind: 'bindings', variables }, stream, source, options.maxResults, toRow);
    }
    if (result.resultType === 'quads') {
      const stream = (await result.execute()) as unknown as PullIterator<Quad>;
      const seen = new Set<string>();
      const fresh = (q: Quad): WireQuad | null => {
        // SPARQL 1.1 §16.2: a template instance that is not an RDF triple (a literal subject, a predicate that is not an IRI) is left out
        if ((q.subject.termType as string) === 'Literal' || q.predicate.termType !== 'NamedNode') return null;
        const key = termsKey([q.subject, q.predicate, q.object]);
        if (seen.has(key)) return null;
        seen.add(key);
        return encodeQuad(q);
      };
      return batched({ kind: 'quads' }, stream, source, options.maxResults, fresh);
    }
    throw new RdfscoutError('RDFSCOUT_QUERY_FAILED', 'Only queries are accepted (SELECT, ASK, CONSTRUCT, DESCRIBE); the crawl store is read-only here.');
  } catch (err) {
    source.destroyAll();
    throw err;
  }
}

/** The prologue's BASE declarations and PREFIX declarations, comments and white space between them. */
const PROLOGUE = /^(?:\s+|#[^\n]*(?:\n|$)|PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s*<([^>]*)>)/i;

/**
 * The base IRI of the query: `baseIri` as its retrieval IRI, then each BASE of its prologue resolved against the one
 * before (SPARQL 1.1 §4.1.1.1, RFC 3986 §5.1). The engine parses the query's own IRIs so, but resolves IRI() and URI()
 * against the base it is given: given `baseIri` alone, they ignored the query's BASE.
 */
function prologueBase(sparql: string, baseIri: string | undefined): string | undefined {
  let base = baseIri;
  let rest = sparql;
  for (let m = PROLOGUE.exec(rest); m !== null && m[0].length > 0; m = PROLOGUE.exec(rest)) {
    const declared = m[1];
    if (declared !== undefined) base = URL.canParse(declared, base) ? new URL(declared, base).href : declared;
    rest = rest.slice(m[0].length);
  }
  return base;
}

/** After a turn of the event loop (what a destroyed stream does next runs first), the source's store calls returned. */
async function settledSource(source: GuardedSource): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await source.settled();
}

/** Refuses updates and, unless allowed, SERVICE, by walking the parsed algebra before anything runs. */
function checkAlgebra(algebra: unknown, options: EvaluateOptions): void {
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

/** Pulls converted items (null = skip) from a Comunica stream in batches, stopping after `max` items. */
function batched<In, Out>(head: Evaluation['head'], stream: PullIterator<In>, source: GuardedSource, max: number, convert: (item: In) => Out | null): Evaluation {
  let error: unknown;
  let count = 0;
  let finished = false;
  stream.on('error', (err: unknown) => {
    error ??= err;
  });
  const close = (): void => {
    if (finished) return;
    finished = true;
    stream.destroy();
    source.destroyAll();
  };
  const wait = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const wake = (): void => {
        stream.removeListener('readable', wake);
        stream.removeListener('end', wake);
        stream.removeListener('error', wake);
        resolve();
      };
      stream.on('readable', wake);
      stream.on('end', wake);
      stream.on('error', wake);
    });
  const next = async (size: number): Promise<Batch<Out>> => {
    const items: Out[] = [];
    for (;;) {
      if (finished) return { items, done: true, truncated: false };
      if (error !== undefined) {
        close();
        throw error;
      }
      const item = stream.read();
      if (item !== null) {
        const out = convert(item);
        if (out === null) continue;
        if (count >= max) {
          close();
          return { items, done: true, truncated: true };
        }
        count++;
        items.push(out);
        if (items.length >= size) return { items, done: false, truncated: false };
        continue;
      }
      if (stream.done) {
        close();
        return { items, done: true, truncated: false };
      }
      if (items.length > 0) return { items, done: false, truncated: false };
      await wait();
    }
  };
  return { head, next: next as Evaluation['next'], close, settled: () => settledSource(source) };
}
