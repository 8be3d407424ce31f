// **network-errors** maps undici, socket and DNS errors to rdfscout error codes, and parses Retry-After.
import { type ErrorCode, RdfscoutError } from '../errors.ts';

/** A failure as recorded on a document: stable code, message, and whether a later retry may succeed. */
export interface FailureInfo {
  code: ErrorCode;
  message: string;
  retryable: boolean;
}

const BY_CODE: Record<string, [ErrorCode, boolean]> = {
  UND_ERR_CONNECT_TIMEOUT: ['RDFSCOUT_CONNECT_TIMEOUT', true],
  ETIMEDOUT: ['RDFSCOUT_CONNECT_TIMEOUT', true],
  UND_ERR_HEADERS_TIMEOUT: ['RDFSCOUT_HEADERS_TIMEOUT', true],
  UND_ERR_BODY_TIMEOUT: ['RDFSCOUT_BODY_TIMEOUT', true],
  UND_ERR_SOCKET: ['RDFSCOUT_CONNECTION_FAILED', true],
  UND_ERR_CLOSED: ['RDFSCOUT_CONNECTION_FAILED', true],
  UND_ERR_DESTROYED: ['RDFSCOUT_CONNECTION_FAILED', true],
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: ['RDFSCOUT_CONNECTION_FAILED', true],
  UND_ERR_PRX_CONN: ['RDFSCOUT_CONNECTION_FAILED', true],
  ECONNRESET: ['RDFSCOUT_CONNECTION_FAILED', true],
  ECONNREFUSED: ['RDFSCOUT_CONNECTION_FAILED', true],
  ECONNABORTED: ['RDFSCOUT_CONNECTION_FAILED', true],
  EPIPE: ['RDFSCOUT_CONNECTION_FAILED', true],
  EHOSTUNREACH: ['RDFSCOUT_CONNECTION_FAILED', true],
  ENETUNREACH: ['RDFSCOUT_CONNECTION_FAILED', true],
  EAI_AGAIN: ['RDFSCOUT_CONNECTION_FAILED', true],
  ENOTFOUND: ['RDFSCOUT_CONNECTION_FAILED', false],
  UND_ERR_HEADERS_OVERFLOW: ['RDFSCOUT_CONNECTION_FAILED', false],
  UND_ERR_INFO: ['RDFSCOUT_CONNECTION_FAILED', false],
};

/** Finds the first error in a `cause` chain (and AggregateError members) that satisfies `test`. */
function findInChain(err: unknown, test: (e: unknown) => boolean, depth = 0): unknown {
  if (err === null || err === undefined || depth > 8) return undefined;
  if (test(err)) return err;
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const found = findInChain(inner, test, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return findInChain((err as { cause?: unknown }).cause, test, depth + 1);
}

/** The code of an error, looking through `cause` chains; undefined for non-errors. */
function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps any thrown value of a request to a failure: rdfscout errors keep their code, known network codes map, the rest is a connection failure. */
export function describeFailure(err: unknown): FailureInfo {
  const own = findInChain(err, (e) => e instanceof RdfscoutError);
  if (own instanceof RdfscoutError) return { code: own.code, message: own.message, retryable: own.retryable };
  const known = findInChain(err, (e) => {
    const code = codeOf(e);
    return code !== undefined && code in BY_CODE;
  });
  const message = err instanceof Error ? err.message : String(err);
  const code = codeOf(known);
  if (code !== undefined) {
    const [mapped, retryable] = BY_CODE[code] as [ErrorCode, boolean];
    return { code: mapped, message: `${code}: ${(known as Error).message || message}`, retryable };
  }
  if (codeOf(err)?.startsWith('HPE_')) return { code: 'RDFSCOUT_CONNECTION_FAILED', message: `Invalid HTTP response: ${message}`, retryable: false };
  return { code: 'RDFSCOUT_CONNECTION_FAILED', message, retryable: true };
}

/**
 * Whether a failure is connection-level: no HTTP response came back at all (refused, reset, unreachable, connect
 * timeout). These say more about the network (or proxy) than about the URL: the crawl retries them later and, when
 * they come from every host at once, pauses.
 */
export function isConnectionFailure(code: ErrorCode, status: number | null): boolean {
  return status === null && (code === 'RDFSCOUT_CONNECTION_FAILED' || code === 'RDFSCOUT_CONNECT_TIMEOUT');
}

/**
 * Parses a Retry-After header (RFC 9110 §10.2.3): delay-seconds or an HTTP date, relative to `nowMs`.
 * Returns the delay in ms (≥ 0), or null when absent or unparseable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}
