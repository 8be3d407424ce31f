// **Fetch outcomes**: the pieces of a fetch's result that need no connection: common fields, failures, redirects, headers.
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { RdfscoutError } from '../errors.ts';
import { describeFailure, isConnectionFailure } from './network-errors.ts';
import type { RobotsVerdict } from './robots-cache.ts';
import type { FetchResult, ReadDecision, RedirectHop } from './types.ts';

/** Where a fetch stands: the URL asked for, the one being fetched now (after redirects), the last status, the hops. */
export interface Progress {
  url: string;
  current: string;
  status: number | null;
  redirects: RedirectHop[];
  started: number;
  /** `FetchOptions.archiveId`, given to the exchanges of this fetch. */
  archiveId: string | null;
}

/** What every result of a fetch carries: its URL, final URL, redirect hops and time. */
export function commonOf(progress: Progress) {
  return {
    url: progress.url,
    finalUrl: progress.redirects.length === 0 ? progress.url : progress.current,
    redirects: progress.redirects,
    ms: Math.round(performance.now() - progress.started),
  };
}

/** The failed result of a fetch that threw: which failure, whether retryable, whether the connection was the cause. */
export function failureOf(progress: Progress, err: unknown, deadline: AbortSignal, callerSignal: AbortSignal | undefined, totalTimeoutMs: number): FetchResult {
  let failure = describeFailure(err);
  if (!(err instanceof RdfscoutError)) {
    // An abort surfaces as a generic AbortError; say which clock ran out.
    if (callerSignal?.aborted === true) {
      failure = { code: 'RDFSCOUT_CONNECTION_FAILED', message: 'Fetch aborted by the caller', retryable: true };
    } else if (deadline.aborted) {
      const code = progress.status === null ? 'RDFSCOUT_HEADERS_TIMEOUT' : 'RDFSCOUT_BODY_TIMEOUT';
      failure = { code, message: `Fetch of ${progress.current} exceeded the total deadline of ${totalTimeoutMs} ms`, retryable: true };
    }
  }
  // A robots.txt that could not be read: retry when the cache will ask for it again; a network failure is the connection's.
  const robots = findRobotsUnavailable(err);
  const connection = robots === null ? callerSignal?.aborted !== true && isConnectionFailure(failure.code, progress.status) : robots.verdict.network;
  const retryAfterMs = robots === null ? null : Math.max(0, robots.verdict.retryAt - Date.now());
  return {
    ...commonOf(progress),
    kind: 'failed',
    status: progress.status,
    error: failure.code,
    message: failure.message,
    retryable: failure.retryable,
    connection,
    retryAfterMs,
  };
}

/** The robots.txt of a fetch's origin could not be read: retryable, and says whether the network was the cause and when to retry. */
export class RobotsUnavailableError extends RdfscoutError {
  readonly verdict: Extract<RobotsVerdict, { kind: 'unavailable' }>;
  constructor(message: string, url: string, verdict: Extract<RobotsVerdict, { kind: 'unavailable' }>) {
    super('RDFSCOUT_ROBOTS_UNAVAILABLE', message, { url, retryable: true });
    this.verdict = verdict;
  }
}

function findRobotsUnavailable(err: unknown): RobotsUnavailableError | null {
  return err instanceof RobotsUnavailableError ? err : null;
}

/** Wraps an exception thrown by the caller's own callback, so that `fetch()` rethrows it instead of recording it. */
export class CallerError extends Error {}

/** Asks the read decision; false (or a throw) discards the body (`reuse`: see {@link discard}). */
export function askReadDecision(read: ReadDecision, head: Parameters<ReadDecision>[0], body: Readable, reuse?: { signal: AbortSignal } | null): boolean {
  let wanted: boolean;
  try {
    wanted = read(head);
  } catch (err) {
    void discard(body, reuse);
    throw new CallerError('read decision threw', { cause: err });
  }
  if (!wanted) void discard(body, reuse);
  return wanted;
}

/** Resolves a Location header against the current URL, fragment removed; throws RDFSCOUT_INVALID_URL. */
export function resolveLocation(location: string, base: URL): string {
  let next: URL;
  try {
    next = new URL(location, base);
  } catch (err) {
    throw new RdfscoutError('RDFSCOUT_INVALID_URL', `Redirect from ${base.href} to an invalid Location "${location.slice(0, 200)}"`, { url: base.href, cause: err });
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new RdfscoutError('RDFSCOUT_INVALID_URL', `Redirect from ${base.href} to a non-HTTP URL ${next.href.slice(0, 200)}`, { url: base.href });
  }
  next.hash = '';
  return next.href;
}

/** Bytes of a body {@link discard} reads to keep its connection, beyond which it closes the connection instead. */
const DISCARD_READ_BYTES = 64 * 1024;

/**
 * Drops a body we will not read, and swallows the errors doing so may raise. By default the body is destroyed, which
 * closes its connection. With `reuse`, an undici body of at most {@link DISCARD_READ_BYTES} (a redirect's, an error
 * page's) is read to its end, unkept, so that its keep-alive connection serves the next request (destroying one per
 * redirect cost a new connection each, and an error object with its stack); a longer one, or whatever is left when
 * `reuse.signal` aborts, is destroyed. Resolves (never rejects) once the body is gone: a fetch that sends another
 * request next (a redirect's hop, the page after its robots.txt) waits for it, or that request finds the connection
 * still busy and opens another.
 */
export function discard(body: Readable, reuse?: { signal: AbortSignal } | null): Promise<void> {
  body.on('error', () => {});
  const dump = (body as Readable & { dump?: (o: { limit: number; signal: AbortSignal }) => Promise<unknown> }).dump;
  if (reuse != null && typeof dump === 'function' && !reuse.signal.aborted) {
    return dump.call(body, { limit: DISCARD_READ_BYTES, signal: reuse.signal }).then(
      () => {},
      () => {},
    );
  }
  body.destroy();
  return Promise.resolve();
}

/** undici's header object (values may be arrays) as plain strings, lower-case names. */
export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  // for-in, not Object.entries: no [name, value] array per header of every response.
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    const value = headers[name];
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
