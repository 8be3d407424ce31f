// **FetcherOptions** and their resolution, once, into a frozen config with documented defaults.
import { ArgumentError } from '../errors.ts';
import type { ResolveAll } from './address-guard.ts';
import type { HttpExchange } from './types.ts';

/** The User-Agent sent by default; its product token (`rdfscout`) is what robots.txt groups are matched against. */
const DEFAULT_USER_AGENT = 'rdfscout/0.1 (+https://github.com/rdfscout/rdfscout)';

/**
 * q-weighted Accept header ranking RDF serialisations above HTML (HTML may still carry RDFa or
 * JSON-LD), then anything (thesis §7: the body is read when it is RDF or HTML).
 */
export const DEFAULT_ACCEPT = [
  'text/turtle',
  'application/rdf+xml;q=0.95',
  'application/n-triples;q=0.9',
  'application/n-quads;q=0.9',
  'application/ld+json;q=0.9',
  'application/trig;q=0.85',
  'text/n3;q=0.8',
  'application/xhtml+xml;q=0.6',
  'text/html;q=0.5',
  'application/xml;q=0.3',
  '*/*;q=0.1',
].join(', ');

/** Options of a {@link Fetcher}. Unknown keys are rejected. */
export interface FetcherOptions {
  /** User-Agent header. Default: `rdfscout/0.1 (+https://github.com/rdfscout/rdfscout)`. */
  userAgent?: string;
  /** Accept header. Default: {@link DEFAULT_ACCEPT} (RDF types first, `text/html;q=0.5`, `*∕*;q=0.1`). */
  accept?: string;
  /** Redirect hops followed per fetch; one more is RDFSCOUT_REDIRECT_LIMIT. Default: 5. */
  maxRedirects?: number;
  /** Longest URL fetched, in characters (each redirect target too). Default: 2048. */
  maxUrlLength?: number;
  /** TCP (and TLS) connect timeout. Default: 10000 ms. */
  connectTimeoutMs?: number;
  /** Time from sending the request until the response headers are complete (slowloris guard). Default: 15000 ms. */
  headersTimeoutMs?: number;
  /** Longest idle gap between two body chunks. Default: 15000 ms. */
  bodyTimeoutMs?: number;
  /** Overall deadline of one fetch, redirects included (a body trickled forever ends here). Default: 60000 ms. */
  totalTimeoutMs?: number;
  /** Largest body read from the wire (before decompression). Default: 10 MiB. */
  maxBodyBytes?: number;
  /** Largest body after gzip/deflate/br decoding (bombs stop here). Default: 50 MiB. */
  maxDecompressedBytes?: number;
  /** HTTP forward proxy URL (`http://127.0.0.1:8080`); http:// targets use absolute-form request lines. Default: none. */
  proxy?: string | null;
  /** Allow private, loopback, link-local… targets (SSRF guard off). Default: false. */
  allowPrivate?: boolean;
  /** Fetch and obey robots.txt. Default: true. */
  obeyRobots?: boolean;
  /** Largest robots.txt read; the rest is ignored (as Google does at 500 KiB). Default: 512000 bytes. */
  robotsMaxBytes?: number;
  /** How long a fetched (or missing) robots.txt is cached per origin. Default: 86400000 ms (24 h). */
  robotsTtlMs?: number;
  /** How long "robots.txt unavailable" (5xx, network error) is remembered before trying again. Default: 30000 ms. */
  robotsRetryMs?: number;
  /** Origins whose robots.txt is kept in memory; the oldest is dropped beyond it. Default: 10000. */
  robotsCacheSize?: number;
  /** Upper bound applied to a robots.txt `Crawl-delay`. Default: 60000 ms. */
  maxCrawlDelayMs?: number;
  /** DNS resolver for direct connections (tests inject a fake one). Default: `node:dns` lookup. */
  resolve?: ResolveAll | null;
  /** Told every HTTP exchange (robots.txt and each redirect hop too) once its body is read or dropped (`--warc`). Default: none. */
  onExchange?: ((x: HttpExchange) => void) | null;
}

/** The resolved, frozen configuration of a Fetcher. */
export type FetcherConfig = Readonly<Required<FetcherOptions>>;

/** Every fetcher option's default; the crawl's timeouts and limits default to these too (one place). */
export const FETCHER_DEFAULTS: FetcherConfig = Object.freeze({
  userAgent: DEFAULT_USER_AGENT,
  accept: DEFAULT_ACCEPT,
  maxRedirects: 5,
  maxUrlLength: 2048,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  totalTimeoutMs: 60_000,
  maxBodyBytes: 10 * 1024 * 1024,
  maxDecompressedBytes: 50 * 1024 * 1024,
  proxy: null,
  allowPrivate: false,
  obeyRobots: true,
  robotsMaxBytes: 512_000,
  robotsTtlMs: 24 * 3600_000,
  robotsRetryMs: 30_000,
  robotsCacheSize: 10_000,
  maxCrawlDelayMs: 60_000,
  resolve: null,
  onExchange: null,
});

const NON_NEGATIVE = ['maxRedirects'] as const;
const POSITIVE = [
  'maxUrlLength',
  'connectTimeoutMs',
  'headersTimeoutMs',
  'bodyTimeoutMs',
  'totalTimeoutMs',
  'maxBodyBytes',
  'maxDecompressedBytes',
  'robotsMaxBytes',
  'robotsTtlMs',
  'robotsRetryMs',
  'robotsCacheSize',
  'maxCrawlDelayMs',
] as const;

/** Resolves fetcher options into a frozen config; throws ArgumentError on unknown keys or bad values. */
export function resolveFetcherOptions(options: FetcherOptions = {}): FetcherConfig {
  const known = Object.keys(FETCHER_DEFAULTS);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new ArgumentError(`Unknown fetcher option "${key}". Known options: ${known.join(', ')}.`);
  }
  const config: Record<string, unknown> = { ...FETCHER_DEFAULTS };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) config[key] = value;

  for (const key of NON_NEGATIVE) checkInteger(key, config[key], 0);
  for (const key of POSITIVE) checkInteger(key, config[key], 1);
  for (const key of ['userAgent', 'accept'] as const) {
    if (typeof config[key] !== 'string' || config[key] === '') throw new ArgumentError(`Fetcher option "${key}" must be a non-empty string.`);
  }
  for (const key of ['allowPrivate', 'obeyRobots'] as const) {
    if (typeof config[key] !== 'boolean') throw new ArgumentError(`Fetcher option "${key}" must be true or false.`);
  }
  if (config.proxy !== null) checkProxy(config.proxy);
  for (const key of ['resolve', 'onExchange'] as const) {
    if (config[key] !== null && typeof config[key] !== 'function') throw new ArgumentError(`Fetcher option "${key}" must be a function.`);
  }
  return Object.freeze(config) as FetcherConfig;
}

function checkInteger(key: string, value: unknown, min: number): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new ArgumentError(`Fetcher option "${key}" must be an integer ≥ ${min}, got ${String(value)}.`);
  }
}

function checkProxy(proxy: unknown): void {
  let url: URL;
  try {
    url = new URL(String(proxy));
  } catch {
    throw new ArgumentError(`Proxy "${String(proxy)}" is not a URL. Expected e.g. http://127.0.0.1:8080.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ArgumentError(`Proxy "${String(proxy)}" must be an http:// or https:// URL.`);
  }
}

/** The product token of a User-Agent (`rdfscout/0.1 (…)` → `rdfscout`), matched against robots.txt groups. */
export function productToken(userAgent: string): string {
  return (userAgent.split(/[/\s]/)[0] ?? userAgent).toLowerCase();
}
