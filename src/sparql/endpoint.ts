// **startEndpoint** serves a read-only SPARQL 1.1 Protocol endpoint over a crawl (or shards read as one) at `/sparql` (node:http).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RdfscoutError } from '../errors.ts';
import type { CrawlSource } from '../crawl-log/shard-merge.ts';
import { CRAWL_GRAPH, CRAWL_PREFIXES } from '../crawl-log/crawl-vocab.ts';
import { formatResult, MEDIA_TYPES } from './format-results.ts';
import { negotiate, SERVER_ORDER } from './negotiate.ts';
import { type QueryOptions, QueryRefusedError, type QueryResult, resolveQueryOptions, runQuery } from './query-engine.ts';
import { sendServiceDescription } from './service-description.ts';
import { keepWarm } from './worker-pool.ts';

/** Options of {@link startEndpoint}. */
export interface EndpointOptions {
  /** Interface to listen on. Default: '127.0.0.1' (not reachable from other machines). */
  host?: string;
  /** TCP port; 0 picks a free one. Default: 3030. */
  port?: number;
  /** Budget per query, result writing included. Default: 30_000 ms. */
  timeoutMs?: number;
  /** Solutions or quads per response at most (further ones are dropped). Default: 100_000. */
  maxResults?: number;
  /** Memory cap per query in MB (QueryOptions.maxQueryMemoryMb); past it 503 with RDFSCOUT_QUERY_MEMORY. Default: 512. */
  maxQueryMemoryMb?: number;
  /** Let SERVICE clauses through (see QueryOptions.allowService). Default: false. */
  allowService?: boolean;
  /** Send `Access-Control-Allow-Origin: *` so that browser pages on other origins may query. Default: false. */
  cors?: boolean;
  /** Largest request body accepted (POSTed query), in bytes; larger → 413. Default: 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Extra routes served beside the endpoint (the live dashboard): called first for every request; returns true
   * when it answered. Default: none.
   */
  mount?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /**
   * Told one line per request to /sparql once it is answered: method, status, ms, rows (solutions or quads sent),
   * the error code if any, and the start of the query. Default: none (`rdfscout serve` writes them to stderr).
   */
  log?: (line: string) => void;
  /** Also log each query's phases (QueryOptions.onPhase: indexed, worker, head, done) with their ms. Default: false. */
  verbose?: boolean;
}

/** A running endpoint. */
export interface Endpoint {
  /** The query URL, e.g. `http://127.0.0.1:3030/sparql`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening, aborts running queries, and closes open connections. Does not close the state. */
  close(): Promise<void>;
}

/**
 * Starts the endpoint. Queries: `GET /sparql?query=…`, `POST /sparql` with `application/sparql-query` or
 * `application/x-www-form-urlencoded` (`query=…`). Updates (`update=`, `application/sparql-update`) get 403.
 * Answers by content negotiation on Accept (406 when nothing fits); 400 with the parser's message for bad queries;
 * 503 when a query exceeds its time or memory (X-Rdfscout-Error names which). `GET /sparql` without a query
 * returns the service description; `GET /` a help page. Queries run in worker threads (runQuery), so they never
 * block this thread; responses respect backpressure. Resolves once listening and one query worker is loaded.
 */
export async function startEndpoint(crawl: CrawlSource, opts: EndpointOptions = {}): Promise<Endpoint> {
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? 3030;
  const baseOptions: QueryOptions = {
    timeoutMs: opts.timeoutMs ?? 30_000,
    maxResults: opts.maxResults ?? 100_000,
    maxQueryMemoryMb: opts.maxQueryMemoryMb ?? 512,
    allowService: opts.allowService ?? false,
  };
  const queryOptions = resolveQueryOptions(baseOptions);
  const cors = opts.cors ?? false;
  const maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
  const running = new Set<QueryResult>();
  let queries = 0;

  const server = createServer((req, res) => {
    if (opts.mount?.(req, res)) return; // the dashboard's pages and API (src/dashboard)
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept');
    }
    const started = performance.now();
    const note: RequestNote = { rows: null, query: null };
    if (opts.log) res.once('close', () => opts.log?.(logLine(req, res, note, Math.round(performance.now() - started))));
    handle(req, res, note).catch((err: unknown) => {
      if (!res.headersSent) sendText(res, 500, `Internal error: ${(err as Error).message}\n`);
      else res.destroy(err as Error);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, note: RequestNote): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'OPTIONS' && cors) {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Use GET.\n', { Allow: 'GET, HEAD' });
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(helpPage());
      return;
    }
    if (url.pathname !== '/sparql') return sendText(res, 404, 'Not found. The SPARQL endpoint is at /sparql; see / for help.\n');
    let query: string | undefined;
    // Protocol §2.1.4: the dataset may come with the request, in the URL (GET, POST) or in the form (POST).
    const graphParams = new URLSearchParams(url.searchParams);
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (url.searchParams.has('update')) return refuseUpdate(res);
      const all = url.searchParams.getAll('query');
      if (all.length === 0 && [...url.searchParams.keys()].length === 0) return sendServiceDescription(req, res, endpointUrl(req));
      if (all.length !== 1) return sendText(res, 400, all.length === 0 ? 'Missing the query parameter: /sparql?query=SELECT…\n' : 'Give exactly one query parameter.\n');
      query = all[0];
    } else if (req.method === 'POST') {
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (type === 'application/sparql-update') return refuseUpdate(res);
      const body = await readBody(req, maxBodyBytes);
      if (body === null) return sendText(res, 413, `The request body is larger than ${maxBodyBytes} bytes.\n`);
      if (type === 'application/sparql-query') query = body;
      else if (type === 'application/x-www-form-urlencoded') {
        const form = new URLSearchParams(body);
        if (form.has('update')) return refuseUpdate(res);
        const all = form.getAll('query');
        if (all.length !== 1) return sendText(res, 400, 'Give exactly one query field in the form.\n');
        query = all[0];
        for (const name of ['default-graph-uri', 'named-graph-uri']) for (const v of form.getAll(name)) graphParams.append(name, v);
      } else {
        return sendText(res, 415, 'POST a query as application/sparql-query or application/x-www-form-urlencoded (query=…).\n');
      }
    } else {
      return sendText(res, 405, 'Use GET or POST.\n', { Allow: cors ? 'GET, POST, OPTIONS' : 'GET, POST' });
    }
    const defaultGraphs = graphParams.getAll('default-graph-uri');
    const namedGraphs = graphParams.getAll('named-graph-uri');
    const dataset = defaultGraphs.length + namedGraphs.length > 0 ? { defaultGraphs, namedGraphs } : undefined;
    note.query = query ?? '';
    await answer(query ?? '', dataset, req, res, note);
  }

  async function answer(query: string, dataset: QueryOptions['dataset'], req: IncomingMessage, res: ServerResponse, note: RequestNote): Promise<void> {
    let result: QueryResult;
    const id = ++queries;
    const onPhase = opts.verbose && opts.log ? (phase: string, ms: number) => opts.log?.(`  query ${id} ${phase} ${ms} ms`) : undefined;
    try {
      result = await runQuery(crawl, query, { ...baseOptions, ...(dataset ? { dataset } : {}), ...(onPhase ? { onPhase } : {}) });
    } catch (err) {
      return sendError(res, err);
    }
    note.rows = () => (result.kind === 'boolean' ? 1 : result.delivered);
    running.add(result);
    const stop = (): void => {
      if (result.kind !== 'boolean') result.close();
    };
    res.once('close', stop);
    try {
      const format = negotiate(req.headers.accept, result.kind);
      if (format === null) {
        stop();
        return sendText(res, 406, `Not acceptable. This ${result.kind} result can be sent as: ${SERVER_ORDER[result.kind].map((f) => MEDIA_TYPES[f]).join(', ')}.\n`);
      }
      const chunks = formatResult(result, format, { prefixes: CRAWL_PREFIXES })[Symbol.asyncIterator]();
      let first: IteratorResult<string>;
      try {
        // The first chunk comes before the status line, so that most failures (timeouts in ORDER BY, COUNT…) get a proper status.
        first = await chunks.next();
      } catch (err) {
        return sendError(res, err);
      }
      res.writeHead(200, {
        'Content-Type': `${MEDIA_TYPES[format]}; charset=utf-8`,
        Vary: 'Accept',
        'X-Rdfscout-Max-Results': String(queryOptions.maxResults),
      });
      if (req.method === 'HEAD') {
        stop();
        res.end();
        return;
      }
      for (let step = first; !step.done; step = await chunks.next()) {
        if (!res.write(step.value)) await waitDrain(res);
        if (res.destroyed) return;
      }
      res.end();
    } catch (err) {
      // Headers are out: the only honest signal left is an aborted response.
      res.destroy(err as Error);
    } finally {
      running.delete(result);
      res.removeListener('close', stop);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Cannot listen on ${host}:${port}: ${err.message}`, { cause: err })));
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  // The endpoint is announced once a query worker is loaded: no query waits seconds for the engine to load.
  const warmth = keepWarm(queryOptions.maxQueryMemoryMb);
  await warmth.ready;
  const shownHost = address.family === 'IPv6' || host.includes(':') ? `[${address.address}]` : host;
  return {
    url: `http://${shownHost}:${address.port}/sparql`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        warmth.stop();
        for (const r of running) if (r.kind !== 'boolean') r.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What a request's log line says beyond its status: rows sent, the query. */
interface RequestNote {
  rows: (() => number) | null;
  query: string | null;
}

/** `GET 200 12 ms rows=10 SELECT ?s …`: one line per answered request (the query's start, whitespace folded). */
function logLine(req: IncomingMessage, res: ServerResponse, note: RequestNote, ms: number): string {
  const code = res.getHeader('X-Rdfscout-Error');
  const aborted = res.writableFinished ? '' : ' aborted';
  const query = note.query === null ? new URL(req.url ?? '/', 'http://localhost').pathname : note.query.replace(/\s+/g, ' ').trim().slice(0, 120);
  return `${req.method} ${res.statusCode} ${ms} ms rows=${note.rows?.() ?? 0}${code ? ` ${code}` : ''}${aborted} ${query}`;
}

/** The endpoint's own URL as the client addressed it (for the service description's sd:endpoint). */
function endpointUrl(req: IncomingMessage): string {
  return `http://${req.headers.host ?? 'localhost'}/sparql`;
}

function sendError(res: ServerResponse, err: unknown): void {
  const code = err instanceof RdfscoutError ? err.code : 'RDFSCOUT_QUERY_FAILED';
  const message = err instanceof Error ? err.message : String(err);
  const status = code === 'RDFSCOUT_QUERY_TIMEOUT' || code === 'RDFSCOUT_QUERY_MEMORY' ? 503 : code === 'RDFSCOUT_QUERY_FAILED' || code === 'RDFSCOUT_INVALID_ARGUMENT' ? 400 : 500;
  sendText(res, err instanceof QueryRefusedError ? 403 : status, `${message}\n`, { 'X-Rdfscout-Error': code });
}

function refuseUpdate(res: ServerResponse): void {
  sendText(res, 403, 'SPARQL Update is refused: this endpoint is read-only.\n', { 'X-Rdfscout-Error': 'RDFSCOUT_QUERY_FAILED' });
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  // set, not passed to writeHead: the request's log line reads X-Rdfscout-Error back
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
}

/** The body as UTF-8, or null when it exceeds `max` bytes (the rest is drained, not buffered). */
async function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  const parts: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) tooLarge = true;
    else parts.push(chunk);
  }
  return tooLarge ? null : Buffer.concat(parts).toString('utf8');
}

function waitDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.removeListener('drain', done);
      res.removeListener('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

function helpPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rdfscout SPARQL endpoint</title></head>
<body>
<h1>rdfscout SPARQL endpoint</h1>
<p>Read-only SPARQL 1.1 endpoint at <code>/sparql</code>: <code>GET /sparql?query=…</code>, or <code>POST</code> with
<code>application/sparql-query</code> or <code>application/x-www-form-urlencoded</code> (<code>query=…</code>).</p>
<p>Results by <code>Accept</code>: ${Object.values(MEDIA_TYPES).map((t) => `<code>${t}</code>`).join(', ')}.</p>
<p>The default graph is the union of all crawled documents; each document is also a named graph named by its URL
(<code>GRAPH ?doc { … }</code>). Crawl metadata is in <code>GRAPH &lt;${CRAWL_GRAPH}&gt;</code>
(prefix <code>rs: &lt;${CRAWL_PREFIXES.rs}&gt;</code>).</p>
<form action="/sparql" method="get">
<textarea name="query" rows="8" cols="80">SELECT ?doc (COUNT(*) AS ?triples) WHERE { GRAPH ?doc { ?s ?p ?o } } GROUP BY ?doc ORDER BY DESC(?triples) LIMIT 20</textarea><br>
<button type="submit">Run</button>
</form>
</body></html>
`;
}
