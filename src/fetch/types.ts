// Types of the fetcher's results: what came back from the network for one URL.
import type { ErrorCode } from '../errors.ts';

/** One redirect hop, recorded in the redirect map. */
export interface RedirectHop {
  from: string;
  to: string;
  status: 301 | 302 | 303 | 307 | 308;
}

/** What the crawler wants to know before reading a body (the thesis's fetch filter CTF, §7). */
export type ReadDecision = (head: { url: string; status: number; contentType: string | null }) => boolean;

/**
 * The outcome of fetching one URL (redirects followed by us, at most `maxRedirects` hops).
 * - `ok`: a 2xx response whose body was read.
 * - `skipped`: a 2xx response whose body the read decision declined (not downloaded).
 * - `http-error`: a non-2xx final status (4xx, 5xx); body not kept.
 * - `denied`: robots.txt disallows the URL (or a redirect target).
 * - `failed`: network error, timeout, limit hit, SSRF refusal, redirect limit/loop.
 */
export type FetchResult =
  | (FetchCommon & { kind: 'ok'; status: number; contentType: string | null; headers: Record<string, string>; body: Buffer; charset: string | null })
  | (FetchCommon & { kind: 'skipped'; status: number; contentType: string | null; headers: Record<string, string> })
  | (FetchCommon & { kind: 'http-error'; status: number; contentType: string | null; headers: Record<string, string>; error: ErrorCode; retryAfterMs: number | null })
  | (FetchCommon & { kind: 'denied'; status: null; error: 'RDFSCOUT_ROBOTS_DENIED' })
  | (FetchCommon & {
      kind: 'failed';
      status: number | null;
      error: ErrorCode;
      message: string;
      retryable: boolean;
      /** No HTTP response at all (refused, reset, connect timeout; or robots.txt unreachable so): the network's fault more than the URL's. */
      connection?: boolean;
      /** When a retry may succeed, in ms from now, if known (a robots.txt that could not be read is asked for again then). */
      retryAfterMs?: number | null;
    });

interface FetchCommon {
  /** The URL asked for. */
  url: string;
  /** The URL after redirects (equals `url` when there were none). */
  finalUrl: string;
  redirects: RedirectHop[];
  /** Wall time of the whole fetch, redirects included. */
  ms: number;
}

/**
 * One HTTP exchange as it happened, for archiving (`--warc`): the request sent and the response received, its body as
 * the raw bytes off the wire (Content-Encoding not undone; undici has removed chunked transfer coding).
 */
export interface HttpExchange {
  /** The page fetch it belongs to (`FetchOptions.archiveId`); null for robots.txt. */
  fetchId: string | null;
  /** The URL requested (a redirect hop's own URL). */
  url: string;
  requestHeaders: Record<string, string>;
  /** When the request was sent (ISO 8601). */
  date: string;
  status: number;
  statusText: string;
  /** Response headers, lower-case names, repeated ones joined with ', '. */
  headers: Record<string, string>;
  body: Buffer[];
  /** Why the body is incomplete (WARC 1.1 §5.13): a limit (`length`), a timeout (`time`), the connection (`disconnect`), not read (`unspecified`); null when whole. */
  truncated: 'length' | 'time' | 'disconnect' | 'unspecified' | null;
}
