// **Retries**: whether a failed fetch is tried again, and after how long (429/503 and retryable network failures).
import type { FetchResult } from '../fetch/types.ts';
import type { FrontierEntry } from '../frontier/types.ts';

/**
 * When to try `entry` again after `result`, or null for no retry: 429 and 503 answers and retryable network
 * failures, up to `maxRetries` times; after Retry-After (at most 10 min) when the server sent one, else after an
 * exponential back-off from max(delayMs, 500 ms). `serverAsked`: the wait came from Retry-After (the whole PLD waits).
 */
export function retryAfter(entry: FrontierEntry, result: FetchResult, o: { maxRetries: number; delayMs: number }): { waitMs: number; serverAsked: boolean } | null {
  if (entry.attempts >= o.maxRetries) return null;
  const retryable = result.kind === 'failed' ? result.retryable : result.kind === 'http-error' && (result.status === 429 || result.status === 503);
  if (!retryable) return null;
  if (result.kind === 'http-error' && result.retryAfterMs !== null) return { waitMs: Math.min(result.retryAfterMs, 600_000), serverAsked: true };
  return { waitMs: Math.max(o.delayMs, 500) * 2 ** entry.attempts, serverAsked: false };
}
