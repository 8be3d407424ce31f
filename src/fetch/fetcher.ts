// **Fetcher** gets one URL from the web: robots.txt, SSRF guard, our own redirect handling, limits, proxy (thesis §7).
import { channel } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher, ProxyAgent, request } from 'undici';
import { RdfscoutError } from '../errors.ts';
import { checkIpLiteral, createGuardedLookup } from './address-guard.ts';
import { readBody } from './body-reader.ts';
import { charsetFromBom, charsetFromContentType } from './charset.ts';
import { ExchangeTape } from './exchange-tape.ts';
import { askReadDecision, CallerError, commonOf, discard, failureOf, flattenHeaders, type Progress, RobotsUnavailableError, resolveLocation } from './fetch-outcome.ts';
import { describeFailure, isConnectionFailure, parseRetryAfter } from './network-errors.ts';
import { type FetcherConfig, type FetcherOptions, productToken, resolveFetcherOptions } from './options.ts';
import { classifyRobotsStatus, RobotsCache, type RobotsLoad } from './robots-cache.ts';
import type { FetchResult, ReadDecision, RedirectHop } from './types.ts';

/** Redirect statuses we follow ourselves, recording each hop. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Redirect hops followed when loading a robots.txt (RFC 9309 §2.3.1.2: at least five). */
const ROBOTS_MAX_REDIRECTS = 5;

/** `node:diagnostics_channel` events, published only when someone listens. */
const startChannel = channel('rdfscout:fetch:start');
const endChannel = channel('rdfscout:fetch:end');

/** Per-call options of {@link Fetcher.fetch}. */
export interface FetchOptions {
  /** Asked after the headers of a 2xx response; false → the body is not read and the result is `skipped` (thesis §7 CTF). */
  read?: ReadDecision;
  /** Cancels the fetch; the result is then `failed` (RDFSCOUT_CONNECTION_FAILED, retryable). */
  signal?: AbortSignal;
  /** Accept header of this fetch instead of the configured one (e.g. HTML first, for a resource's HTML variant). */
  accept?: string;
  /** Names this fetch in the exchanges given to the `onExchange` option (`--warc` groups a fetch's hops by it). */
  archiveId?: string;
  /**
   * The politeness gate: awaited once, just before this fetch sends its first request — the robots.txt
   * load it starts, or else its first GET (after waiting for a robots.txt another fetch loads). Its later requests
   * (the GET after its own robots.txt, redirect hops) continue the same slot. It is given the URL about to be
   * requested. A rejection fails the fetch.
   */
  gate?: (url: string) => Promise<void>;
}

/** Mutable progress of one fetch, so that a failure at any point can say where it happened. */

interface Response {
  status: number;
  headers: Record<string, string>;
  body: Readable;
  /** The exchange on tape when `onExchange` is set. */
  tape: ExchangeTape | null;
}

/**
 * How a body the fetch drops goes (`discard`): read to keep its connection. Its exchange's tape, if any, is told the
 * body was dropped, so its record stays as it was (not read: WARC `unspecified`).
 */
function reuseOf(response: Response, signal: AbortSignal): { signal: AbortSignal } {
  response.tape?.dropped();
  return { signal };
}

/**
 * Fetches URLs with undici. `fetch()` never throws for network or HTTP problems: it returns a
 * {@link FetchResult} whose `failed` / `http-error` / `denied` kinds carry a stable error code.
 * One Fetcher holds one connection pool (direct, or to the proxy) and one robots.txt cache; call
 * `close()` when done.
 */
export class Fetcher {
  /** The resolved options (defaults filled in), frozen. */
  readonly config: FetcherConfig;
  #dispatcher: Dispatcher;
  #robots: RobotsCache;
  #headers: Record<string, string>;

  constructor(options: FetcherOptions = {}) {
    this.config = resolveFetcherOptions(options);
    const c = this.config;
    this.#headers = { 'user-agent': c.userAgent, accept: c.accept, 'accept-encoding': 'gzip, deflate, br' };
    if (c.proxy !== null) {
      // undici 8's ProxyAgent sends http:// targets as absolute-form requests to the proxy (no CONNECT) unless
      // proxyTunnel is true; https:// targets are tunnelled with CONNECT. No name is resolved by us.
      this.#dispatcher = new ProxyAgent({
        uri: c.proxy,
        proxyTunnel: false,
        connectTimeout: c.connectTimeoutMs,
        headersTimeout: c.headersTimeoutMs,
        bodyTimeout: c.bodyTimeoutMs,
      });
    } else {
      const lookup = c.allowPrivate && c.resolve === null ? undefined : createGuardedLookup({ allowPrivate: c.allowPrivate, resolve: c.resolve ?? undefined });
      this.#dispatcher = new Agent({
        connect: lookup === undefined ? { timeout: c.connectTimeoutMs } : { timeout: c.connectTimeoutMs, lookup },
        headersTimeout: c.headersTimeoutMs,
        bodyTimeout: c.bodyTimeoutMs,
      });
    }
    this.#robots = new RobotsCache({
      load: (robotsUrl) => this.#loadRobots(robotsUrl),
      agent: productToken(c.userAgent),
      ttlMs: c.robotsTtlMs,
      retryMs: c.robotsRetryMs,
      maxEntries: c.robotsCacheSize,
      maxCrawlDelayMs: c.maxCrawlDelayMs,
    });
  }

  /**
   * Fetches `url`, following up to `maxRedirects` redirects, each hop re-checked (robots, SSRF, URL
   * length). Resolves with a result for every network or HTTP outcome; rejects only if `options.read`
   * throws (with that error). The first request to an origin waits for its robots.txt, which is loaded
   * once for all concurrent callers under its own deadline (`totalTimeoutMs`).
   */
  async fetch(url: string, options: FetchOptions = {}): Promise<FetchResult> {
    const progress: Progress = { url, current: url, status: null, redirects: [], started: performance.now(), archiveId: options.archiveId ?? null };
    if (startChannel.hasSubscribers) startChannel.publish({ url });
    const deadline = AbortSignal.timeout(this.config.totalTimeoutMs);
    const signal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);
    let result: FetchResult;
    try {
      const headers = options.accept === undefined ? this.#headers : { ...this.#headers, accept: options.accept };
      result = await this.#follow(progress, options.read, signal, headers, options.gate);
    } catch (err) {
      if (err instanceof CallerError) throw err.cause; // a bug in the caller's read decision is not a network problem
      result = failureOf(progress, err, deadline, options.signal, this.config.totalTimeoutMs);
    }
    if (endChannel.hasSubscribers) endChannel.publish({ url, result });
    return result;
  }

  /**
   * Asks `origin` for its robots.txt (no redirect followed, body discarded) to learn whether the network works:
   * true when any HTTP response came back. Never throws.
   */
  async probe(origin: string, signal?: AbortSignal): Promise<boolean> {
    const url = `${origin}/robots.txt`;
    const progress: Progress = { url, current: url, status: null, redirects: [], started: performance.now(), archiveId: null };
    const deadline = AbortSignal.timeout(this.config.totalTimeoutMs);
    try {
      const { response } = (await this.#exchange(progress, signal === undefined ? deadline : AbortSignal.any([signal, deadline]), false, 0)) as { response: Response };
      void discard(response.body);
      return true;
    } catch {
      return progress.status !== null; // a redirect refused by the 0-hop limit still answered
    }
  }

  /** Crawl-delay of the URL's origin from its cached robots.txt (ms, capped at `maxCrawlDelayMs`), or null. */
  crawlDelayMs(url: string): number | null {
    return this.#robots.crawlDelayMs(url);
  }

  /** Sitemaps named by the cached robots.txt of the URL's origin (loaded by an earlier fetch there). */
  sitemapsOf(url: string): string[] {
    return this.#robots.sitemaps(url);
  }

  /** Closes the connection pools; pending fetches finish first. */
  async close(): Promise<void> {
    await this.#dispatcher.close();
  }

  async #follow(progress: Progress, read: ReadDecision | undefined, signal: AbortSignal, requestHeaders: Record<string, string>, gate?: (url: string) => Promise<void>): Promise<FetchResult> {
    const reached = await this.#exchange(progress, signal, this.config.obeyRobots, this.config.maxRedirects, requestHeaders, gate);
    if (reached === 'denied') return { ...commonOf(progress), kind: 'denied', status: null, error: 'RDFSCOUT_ROBOTS_DENIED' };
    const { target, response } = reached;
    const { status, headers, body } = response;
    const contentType = headers['content-type'] ?? null;
    if (status < 200 || status >= 300) {
      await discard(body, reuseOf(response, signal));
      const rateLimited = status === 429 || status === 503;
      return {
        ...commonOf(progress),
        kind: 'http-error',
        status,
        contentType,
        headers,
        error: rateLimited ? 'RDFSCOUT_RATE_LIMITED' : 'RDFSCOUT_HTTP_STATUS',
        retryAfterMs: parseRetryAfter(headers['retry-after'], Date.now()),
      };
    }
    if (read !== undefined && !askReadDecision(read, { url: target.href, status, contentType }, body, reuseOf(response, signal))) {
      return { ...commonOf(progress), kind: 'skipped', status, contentType, headers };
    }
    const bytes = await this.#readBody(target, response, this.config.maxDecompressedBytes, false);
    const charset = charsetFromContentType(contentType) ?? charsetFromBom(bytes);
    return { ...commonOf(progress), kind: 'ok', status, contentType, headers, body: bytes, charset };
  }

  /**
   * Sends GETs from `progress.current`, following redirects itself (each hop recorded and checked again: URL length,
   * scheme, private address, and robots.txt when `checkRobots`), up to `maxRedirects` hops; returns the first
   * response that is not a redirect, or 'denied'. The page fetch and the robots.txt loader both use it. `gate` (see
   * `FetchOptions.gate`) is passed once, before the first request this call sends or has the robots.txt cache send.
   * @throws RdfscoutError (redirect loop or limit, invalid URL, refused address, robots.txt unavailable) or a network error.
   */
  async #exchange(
    progress: Progress,
    signal: AbortSignal,
    checkRobots: boolean,
    maxRedirects: number,
    requestHeaders: Record<string, string> = this.#headers,
    gate?: (url: string) => Promise<void>,
  ): Promise<{ target: URL; response: Response } | 'denied'> {
    const seen = new Set<string>();
    let pending = gate; // the gate not passed yet
    for (;;) {
      const target = this.#checkTarget(progress.current);
      seen.add(target.href);
      if (checkRobots) {
        const robotsGate = pending;
        const { verdict, sentLoad } = await this.#robots.checkGated(target, robotsGate && (() => robotsGate(`${target.origin}/robots.txt`)));
        if (sentLoad) pending = undefined; // its robots.txt request went out right after the gate: same slot
        if (verdict.kind === 'denied') return 'denied';
        if (verdict.kind === 'unavailable') {
          throw new RobotsUnavailableError(`robots.txt of ${target.origin} is unavailable (${verdict.reason}); retry later`, target.href, verdict);
        }
      }
      if (pending !== undefined) {
        await pending(target.href);
        pending = undefined;
      }
      const response = await this.#send(target, signal, requestHeaders, progress.archiveId);
      progress.status = response.status;
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || location === undefined) return { target, response };
      await discard(response.body, reuseOf(response, signal));
      const next = resolveLocation(location, target);
      progress.redirects.push({ from: progress.current, to: next, status: response.status as RedirectHop['status'] });
      progress.current = next;
      if (seen.has(next)) throw new RdfscoutError('RDFSCOUT_REDIRECT_LOOP', `Redirect loop: ${target.href} leads back to ${next}`, { url: next });
      if (progress.redirects.length > maxRedirects) {
        throw new RdfscoutError('RDFSCOUT_REDIRECT_LIMIT', `More than ${maxRedirects} redirects from ${progress.url}`, { url: next });
      }
    }
  }

  /** Reads a 2xx body under the size limits (a declared Content-Length over the limit is refused unread); `truncate` keeps the first `maxDecompressed` bytes instead of failing. */
  async #readBody(target: URL, response: Response, maxDecompressed: number, truncate: boolean): Promise<Buffer> {
    const { headers, body } = response;
    const declared = Number(headers['content-length']);
    if (!truncate && Number.isFinite(declared) && declared > this.config.maxBodyBytes) {
      void discard(body);
      throw new RdfscoutError('RDFSCOUT_BODY_TOO_LARGE', `Body of ${target.href} is ${declared} bytes, over ${this.config.maxBodyBytes}`, { url: target.href });
    }
    const tape = response.tape;
    return readBody(body, {
      url: target.href,
      ...(tape === null ? {} : { onChunk: tape.chunk, onLimit: tape.limit }),
      contentEncoding: headers['content-encoding'] ?? null,
      maxBodyBytes: this.config.maxBodyBytes,
      maxDecompressedBytes: maxDecompressed,
      ...(truncate ? { truncate: true } : {}),
    });
  }

  /** Parses and checks a URL before any connection: length, scheme, private IP literal. Throws RdfscoutError. */
  #checkTarget(url: string): URL {
    const max = this.config.maxUrlLength;
    if (url.length > max) throw new RdfscoutError('RDFSCOUT_URL_TOO_LONG', `URL of ${url.length} characters exceeds ${max}`, { url: url.slice(0, 200) });
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch (err) {
      throw new RdfscoutError('RDFSCOUT_INVALID_URL', `Not a URL: ${url}`, { url, cause: err });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new RdfscoutError('RDFSCOUT_INVALID_URL', `Only http and https URLs are fetched, not ${url}`, { url });
    }
    parsed.hash = '';
    if (parsed.href.length > max) {
      throw new RdfscoutError('RDFSCOUT_URL_TOO_LONG', `URL of ${parsed.href.length} characters (normalised) exceeds ${max}`, { url: url.slice(0, 200) });
    }
    if (!this.config.allowPrivate) {
      const refusal = checkIpLiteral(parsed);
      if (refusal !== null) throw refusal;
    }
    return parsed;
  }

  /** One GET, no redirect following (on tape for `onExchange`, as `archiveId`'s). Rejects on network errors and timeouts. */
  async #send(target: URL, signal: AbortSignal, requestHeaders: Record<string, string>, archiveId: string | null): Promise<Response> {
    const report = this.config.onExchange;
    const tape = report === null ? null : new ExchangeTape(archiveId, target.href, requestHeaders, report);
    const res = await request(target, {
      dispatcher: this.#dispatcher,
      method: 'GET',
      headers: requestHeaders,
      signal,
      headersTimeout: this.config.headersTimeoutMs,
      bodyTimeout: this.config.bodyTimeoutMs,
    });
    const headers = flattenHeaders(res.headers);
    tape?.respond(res.statusCode, res.statusText, headers, res.body);
    return { status: res.statusCode, headers, body: res.body, tape };
  }

  /**
   * Loads a robots.txt for the cache (RFC 9309 §2.3): the same request path as a page (redirects followed, ≤ 5 hops,
   * each checked), the body truncated at `robotsMaxBytes`, the status classified. A connection-level failure is
   * "unavailable" and marked `network` (the crawl's outage detector counts it); a permanent one (refused address,
   * unknown host, bad redirect) allows all, briefly, so that the page fetch meets and reports the real problem.
   */
  async #loadRobots(robotsUrl: string): Promise<RobotsLoad> {
    const signal = AbortSignal.timeout(this.config.totalTimeoutMs);
    const progress: Progress = { url: robotsUrl, current: robotsUrl, status: null, redirects: [], started: performance.now(), archiveId: null };
    let reached: { target: URL; response: Response };
    try {
      reached = (await this.#exchange(progress, signal, false, ROBOTS_MAX_REDIRECTS)) as { target: URL; response: Response };
    } catch (err) {
      const failure = describeFailure(err);
      if (failure.retryable) return { kind: 'unavailable', reason: failure.message, network: isConnectionFailure(failure.code, progress.status) };
      return { kind: 'allow-all', reason: failure.message, brief: true };
    }
    const { target, response } = reached;
    const verdict = classifyRobotsStatus(response.status);
    if (verdict !== 'parse') {
      await discard(response.body, reuseOf(response, signal));
      const reason = `HTTP ${response.status}`;
      return verdict === 'allow-all' ? { kind: 'allow-all', reason } : { kind: 'unavailable', reason, network: false };
    }
    try {
      const bytes = await this.#readBody(target, response, this.config.robotsMaxBytes, true);
      let text = bytes.toString('utf8'); // RFC 9309 §2.3: robots.txt is UTF-8
      if (bytes.length >= this.config.robotsMaxBytes) text = text.slice(0, text.lastIndexOf('\n') + 1); // drop the cut line
      return { kind: 'text', text };
    } catch (err) {
      const failure = describeFailure(err);
      if (failure.code === 'RDFSCOUT_DECODE_FAILED' || failure.code === 'RDFSCOUT_BODY_TOO_LARGE') return { kind: 'allow-all', reason: failure.message };
      return { kind: 'unavailable', reason: failure.message, network: false };
    }
  }
}
