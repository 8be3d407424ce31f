// **startSimweb** serves a simulated web on 127.0.0.1: one HTTP server that is a forward proxy for every site and answers by Host too.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArgumentError } from '../errors.ts';
import { pldOf } from '../links/normalize-url.ts';
import { RequestLog, type RequestLogEntry } from './request-log.ts';
import { respond } from './respond.ts';
import { truthForUrl, truthRecords } from './truth.ts';
import type { SimSite, SimWebStats, TruthRecord } from './types.ts';
import type { WebModel, WebOptions } from './web.ts';
import { buildWeb, describeSite, linksOf } from './web.ts';

/** Where a simulated web says what it is (profiles, seed, scale), on requests to the server itself (not proxied). */
export const SIMWEB_DESCRIPTION_PATH = '/.well-known/rdfscout-simweb';

/** Options of `startSimweb`. */
export interface SimWebOptions extends WebOptions {
  /** Port on 127.0.0.1. Default 0 (any free port). */
  port?: number;
  /** Delay added to every response, ms. Default 0. */
  latencyMs?: number;
  /** Extra delay of the documents marked slow (~1%), ms. Default 20. */
  slowMs?: number;
  /** Overrides the Crawl-delay (seconds) of sites that declare one. Default: the profile's (0.01). */
  crawlDelay?: number;
  /** Keep a log of every request (PLD, start, end, in flight; `SimWeb.requestLog()`). Default false. */
  logRequests?: boolean;
  /** Pads every HTML page to at least this many bytes with link-free markup, as large as real pages (benchmarks of cost per page). Default 0. */
  htmlPadBytes?: number;
}

/** A running simulated web. */
export interface SimWeb {
  port: number;
  /** `http://127.0.0.1:PORT`: use as an HTTP proxy, or send plain requests with a `Host` header. */
  proxyUrl: string;
  sites: SimSite[];
  /** The site graphs (for the oracle and tools). */
  model: WebModel;
  /** Every URL's truth (built on first call, then cached). */
  truth(): TruthRecord[];
  /** The truth of one URL, or `undefined` when the web does not know it. */
  truthFor(url: string): TruthRecord | undefined;
  /** Links of a URL as served (internal, then external; redirect targets for 301/303). */
  links(url: string): string[];
  stats(): SimWebStats;
  resetStats(): void;
  /** The requests answered so far, in start order (empty unless `logRequests`); see `checkPoliteness`. */
  requestLog(): RequestLogEntry[];
  /** Forgets the logged requests. */
  clearRequestLog(): void;
  close(): Promise<void>;
}

const KNOWN_KEYS = new Set(['profiles', 'seed', 'scale', 'copies', 'port', 'latencyMs', 'slowMs', 'crawlDelay', 'logRequests', 'htmlPadBytes']);

/** Whether a Host header names this machine's loopback (the server itself, not a simulated host). */
function isLoopbackHost(host: string | undefined): boolean {
  const name = (host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return name === '127.0.0.1' || name === 'localhost' || name === '::1';
}

function emptyStats(): SimWebStats {
  return { requests: 0, proxyRequests: 0, byStatus: {}, byHost: {}, bytes: 0 };
}

/** Builds the web from `options` and serves it; resolves when listening. */
export async function startSimweb(options: SimWebOptions): Promise<SimWeb> {
  for (const key of Object.keys(options)) {
    if (!KNOWN_KEYS.has(key)) throw new ArgumentError(`unknown simweb option "${key}"; known: ${[...KNOWN_KEYS].join(', ')}`);
  }
  const latencyMs = options.latencyMs ?? 0;
  const slowMs = options.slowMs ?? 20;
  const model = buildWeb(options);
  const description: WebOptions = { profiles: options.profiles, seed: options.seed, scale: options.scale ?? 1, copies: options.copies ?? 1 };
  let stats = emptyStats();
  const respondOptions = { ...(options.crawlDelay === undefined ? {} : { crawlDelay: options.crawlDelay }), ...(options.htmlPadBytes ? { htmlPadBytes: options.htmlPadBytes } : {}) };
  const log = options.logRequests === true ? new RequestLog() : undefined;

  const server = createServer((req, res) => {
    res.sendDate = false; // byte-identical responses for the same seed
    const raw = req.url ?? '/';
    const proxied = /^[a-z]+:\/\//i.test(raw);
    if (!proxied && raw === SIMWEB_DESCRIPTION_PATH && isLoopbackHost(req.headers.host)) {
      // Lets a crawl pointed at this web draw the reference curves (oracle, breadth-first) beside its own.
      const body = Buffer.from(`${JSON.stringify(description)}\n`);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const url = proxied ? raw : `http://${(req.headers.host ?? '').replace(/:\d+$/, '')}${raw}`;
    const entry = log?.begin(url, ...hostAndPld(model, url));
    const method = req.method ?? 'GET';
    const r =
      method === 'GET' || method === 'HEAD'
        ? url.startsWith('http://')
          ? respond(model, url, req.headers.accept, respondOptions)
          : respond(model, 'http://unknown.invalid/')
        : { status: 405, headers: { 'content-type': 'text/plain', allow: 'GET, HEAD' }, body: Buffer.from('method not allowed\n'), slow: false, knownHost: true };
    stats.requests++;
    if (proxied) stats.proxyRequests++;
    stats.byStatus[r.status] = (stats.byStatus[r.status] ?? 0) + 1;
    const host = r.knownHost ? new URL(url).hostname : '(unknown)';
    stats.byHost[host] = (stats.byHost[host] ?? 0) + 1;
    stats.bytes += r.body.length;
    // The end is logged just before the response is written, so no client can have read it earlier (a 'finish'
    // event would come later still when this loop is busy); 'close' ends a request the client gave up on.
    const location = typeof r.headers.location === 'string' ? absoluteUrl(r.headers.location, url) : undefined;
    const logEnd = (): void => {
      if (entry) log?.end(entry, r.status, location);
    };
    res.once('close', logEnd);
    const send = (): void => {
      res.writeHead(r.status, { ...r.headers, 'content-length': String(r.body.length) });
      logEnd();
      res.end(method === 'HEAD' ? undefined : r.body);
    };
    const delay = latencyMs + (r.slow ? slowMs : 0);
    if (delay > 0) setTimeout(send, delay).unref();
    else send();
  });
  // HTTPS through the proxy is not simulated: every site is plain http.
  server.on('connect', (_req, socket) => socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  let truthCache: TruthRecord[] | undefined;
  return {
    port,
    proxyUrl: `http://127.0.0.1:${port}`,
    sites: model.sites.map(describeSite),
    model,
    truth: () => {
      truthCache ??= [...truthRecords(model)];
      return truthCache;
    },
    truthFor: (url) => truthForUrl(model, url),
    links: (url) => linksOf(model, url),
    stats: () => structuredClone(stats),
    resetStats: () => {
      stats = emptyStats();
    },
    requestLog: () => log?.entries() ?? [],
    clearRequestLog: () => log?.clear(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Host and PLD of a requested URL (the site's PLD when the web knows the host). */
function hostAndPld(model: WebModel, url: string): [string, string] {
  try {
    const host = new URL(url).hostname;
    return [host, model.byHost.get(host)?.pld ?? pldOf(host)];
  } catch {
    return ['(invalid)', '(invalid)'];
  }
}

function absoluteUrl(location: string, base: string): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}
