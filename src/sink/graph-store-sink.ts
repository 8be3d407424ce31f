// **GraphStoreSink** sends stored documents to a SPARQL 1.1 Graph Store Protocol endpoint: one named graph per document (PUT), with retries (`--sink`).
import type { Quad } from '@rdfjs/types';
import { type Dispatcher, request } from 'undici';
import { RdfscoutError, redactUrl } from '../errors.ts';
import { GRAPH_BODY_TYPE, graphBody } from './graph-body.ts';

/** Options of {@link GraphStoreSink}. */
export interface GraphStoreSinkOptions {
  /** Attempts per document before it is reported refused. Default: 5. */
  attempts?: number;
  /** Wait before the second attempt; it doubles with each further one, up to `maxBackoffMs`. Default: 500 ms. */
  backoffMs?: number;
  /** Longest wait between two attempts, a Retry-After included. Default: 30 000 ms. */
  maxBackoffMs?: number;
  /** Time for the whole response of one attempt. Default: 60 000 ms. */
  timeoutMs?: number;
  /** Sent as User-Agent. Default: `rdfscout`. */
  userAgent?: string;
  /** An undici dispatcher (connection pool, proxy). Default: undici's global one. */
  dispatcher?: Dispatcher;
}

/** What became of one document. */
export type SinkResult =
  | { kind: 'stored'; graph: string; status: number; triples: number; attempts: number }
  /**
   * Not stored. `retryable`: the store was unreachable or answered 408/425/429/5xx on the last attempt (a later
   * resume may succeed); otherwise it rejected the request (4xx). `reason` quotes the store's answer.
   */
  | { kind: 'refused'; graph: string; status: number | null; reason: string; attempts: number; retryable: boolean };

/** The outcome of `putAll`: how many documents were stored, and every refused one (nothing is dropped silently). */
export interface SinkReport {
  stored: number;
  triples: number;
  refused: Array<Extract<SinkResult, { kind: 'refused' }>>;
}

/** One document to send: its URL (the named graph) and its quads. */
export interface SinkDocument {
  graph: string;
  quads: Iterable<Quad>;
}

const RETRY_STATUS = new Set([408, 425, 429]);

/**
 * A client of one Graph Store Protocol endpoint (e.g. Virtuoso's `/sparql-graph-crud`). `put` replaces the named
 * graph `?graph=<document URL>` with the document's triples (GSP §5.3: PUT), so sending a document twice leaves the
 * same graph. User and password in the endpoint URL are sent as HTTP Basic authentication.
 */
export class GraphStoreSink {
  readonly endpoint: string;
  readonly #url: URL;
  readonly #headers: Record<string, string>;
  readonly #o: Required<Omit<GraphStoreSinkOptions, 'dispatcher' | 'userAgent'>>;
  readonly #dispatcher: Dispatcher | undefined;

  constructor(endpoint: string, options: GraphStoreSinkOptions = {}) {
    const { attempts = 5, backoffMs = 500, maxBackoffMs = 30_000, timeoutMs = 60_000, userAgent = 'rdfscout', dispatcher, ...unknown } = options;
    const extra = Object.keys(unknown);
    if (extra.length > 0) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Unknown sink option "${extra[0]}"`);
    for (const [name, v] of Object.entries({ attempts, backoffMs, maxBackoffMs, timeoutMs })) {
      if (!Number.isSafeInteger(v) || v < (name === 'attempts' || name === 'timeoutMs' ? 1 : 0)) {
        throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Sink option ${name} must be a whole number${name === 'attempts' ? ' ≥ 1' : ' of ms'}, got ${v}`);
      }
    }
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new RdfscoutError('RDFSCOUT_INVALID_URL', `--sink needs the http(s) URL of a Graph Store Protocol endpoint, got ${endpoint}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new RdfscoutError('RDFSCOUT_INVALID_URL', `--sink needs an http(s) URL, got ${url.protocol} in ${redactUrl(url)}`);
    }
    this.#headers = { 'content-type': `${GRAPH_BODY_TYPE}; charset=utf-8`, 'user-agent': userAgent };
    if (url.username !== '' || url.password !== '') {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      this.#headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    this.#url = url;
    this.endpoint = url.href;
    this.#o = { attempts, backoffMs, maxBackoffMs, timeoutMs };
    this.#dispatcher = dispatcher;
  }

  /** The request URL for a graph: the endpoint with `graph=<graph>` added to its query. */
  graphUrl(graph: string): string {
    const u = new URL(this.#url.href);
    u.searchParams.set('graph', graph);
    return u.href;
  }

  /** Replaces the named graph `graph` with these quads' triples; retries with back-off; never throws for a refusal. */
  async put(graph: string, quads: Iterable<Quad>): Promise<SinkResult> {
    const { body, triples } = graphBody(quads);
    return this.putBody(graph, body, triples);
  }

  /**
   * As {@link put}, with the body ready: N-Triples text of `triples` distinct triples (a stored document's values,
   * rdf/document-store.ts, which hold each triple once).
   */
  async putBody(graph: string, body: string, triples: number): Promise<SinkResult> {
    const target = this.graphUrl(graph);
    let last: { status: number | null; reason: string; retryable: boolean; retryAfterMs: number } | undefined;
    for (let attempt = 1; attempt <= this.#o.attempts; attempt++) {
      if (last !== undefined) {
        const backoff = Math.max(this.#o.backoffMs * 2 ** (attempt - 2), last.retryAfterMs);
        await new Promise((resolve) => setTimeout(resolve, Math.min(backoff, this.#o.maxBackoffMs)));
      }
      last = await this.#attempt(target, body);
      if (last.status !== null && last.status >= 200 && last.status < 300) {
        return { kind: 'stored', graph, status: last.status, triples, attempts: attempt };
      }
      if (!last.retryable) return { kind: 'refused', graph, status: last.status, reason: last.reason, attempts: attempt, retryable: false };
    }
    const { status, reason } = last!;
    return { kind: 'refused', graph, status, reason, attempts: this.#o.attempts, retryable: true };
  }

  /** Sends documents, `concurrency` at a time (default 4), in any order; reports every refused one. */
  async putAll(documents: AsyncIterable<SinkDocument> | Iterable<SinkDocument>, concurrency = 4): Promise<SinkReport> {
    const report: SinkReport = { stored: 0, triples: 0, refused: [] };
    const inFlight = new Set<Promise<void>>();
    for await (const doc of documents) {
      const p: Promise<void> = this.put(doc.graph, doc.quads).then((r) => {
        if (r.kind === 'stored') {
          report.stored++;
          report.triples += r.triples;
        } else {
          report.refused.push(r);
        }
        inFlight.delete(p);
      });
      inFlight.add(p);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    return report;
  }

  async #attempt(target: string, body: string): Promise<{ status: number | null; reason: string; retryable: boolean; retryAfterMs: number }> {
    try {
      const res = await request(target, {
        method: 'PUT',
        headers: this.#headers,
        body,
        headersTimeout: this.#o.timeoutMs,
        bodyTimeout: this.#o.timeoutMs,
        dispatcher: this.#dispatcher,
      });
      const text = await res.body.text();
      const status = res.statusCode;
      const retryable = status >= 500 || RETRY_STATUS.has(status);
      return { status, reason: `HTTP ${status}: ${describe(text)}`, retryable, retryAfterMs: retryAfterMs(res.headers['retry-after']) };
    } catch (err) {
      const code = (err as { code?: string }).code;
      const why = err instanceof Error ? err.message : String(err);
      return { status: null, reason: `${code ?? 'request failed'}: ${why}`, retryable: true, retryAfterMs: 0 };
    }
  }
}

/** The gist of a store's answer: the text of an HTML error page (Virtuoso's), shortened. */
function describe(text: string): string {
  const inner = /<xmp>([\s\S]*?)<\/xmp>/i.exec(text)?.[1] ?? text.replace(/<[^>]*>/g, ' ');
  const flat = inner.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat || '(no body)';
}

/** Retry-After in ms: delta-seconds or an HTTP date; 0 when absent or unreadable. */
function retryAfterMs(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return 0;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}
