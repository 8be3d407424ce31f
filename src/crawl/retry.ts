// **Retries**: whether a failed fetch is tried again, and after how long (429/503 and retryable network failures).
import type { FetchResult } from '../fetch/types.ts';
import type { FrontierEntry } from '../frontier/types.ts';

/** Longest wait the crawl accepts from a server or a robots.txt cache (ms). */
const MAX_WAIT_MS = 600_000;

/**
 * When to try `entry` again after `result`, or null for no retry: 429 and 503 answers and retryable network
 * failures, up to `maxRetries` times; after Retry-After (at most 10 min) when the server sent one, else after an
 * exponential back-off from max(delayMs, 500 ms), never before a robots.txt that could not be read is asked for
 * again. `backoffPld`: the whole PLD waits — rate limits (Retry-After) and connection failures that may be the
 * network's, whose other URLs would meet the same; not `ownFailure`s, the failures of an origin that is dead while
 * others answer (fetch/connectivity.ts): a dead host never makes the live hosts of its PLD wait. A `deadOrigin`'s
 * URLs are not retried at all.
 */
export function retryAfter(
  entry: FrontierEntry,
  result: FetchResult,
  o: { maxRetries: number; delayMs: number; ownFailure?: boolean; deadOrigin?: boolean },
): { waitMs: number; backoffPld: boolean } | null {
  if (entry.attempts >= o.maxRetries || o.deadOrigin === true) return null;
  const retryable = result.kind === 'failed' ? result.retryable : result.kind === 'http-error' && (result.status === 429 || result.status === 503);
  if (!retryable) return null;
  if (result.kind === 'http-error' && result.retryAfterMs !== null) return { waitMs: Math.min(result.retryAfterMs, MAX_WAIT_MS), backoffPld: true };
  const backoff = Math.max(o.delayMs, 500) * 2 ** entry.attempts;
  if (result.kind !== 'failed') return { waitMs: backoff, backoffPld: false };
  const waitMs = result.retryAfterMs != null ? Math.max(backoff, Math.min(result.retryAfterMs, MAX_WAIT_MS)) : backoff;
  return { waitMs, backoffPld: result.connection === true && o.ownFailure !== true };
}
