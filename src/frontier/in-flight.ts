// The URLs a frontier has handed out and not yet finished: each may be completed or retried once.
import { RdfscoutError } from '../errors.ts';
import type { FrontierEntry } from './types.ts';

/** One handed-out URL: where its queue key lives, and whether `complete`/`retry` has already taken it. */
export interface InFlight {
  pld: string;
  sortKey: string;
  finishing: boolean;
}

/**
 * Marks `entry` as being finished by `what` (`complete` or `retry`); throws when it was not handed out by `next()`
 * or was already finished, so that a caller bug cannot delete or requeue another claim's entry.
 */
export function claimInFlight(inFlight: ReadonlyMap<string, InFlight>, entry: FrontierEntry, what: string): InFlight {
  const f = inFlight.get(entry.url);
  if (f === undefined || f.finishing) {
    throw new RdfscoutError(
      'RDFSCOUT_INVALID_ARGUMENT',
      `Frontier.${what}(${entry.url}): the URL is not in flight${f?.finishing ? ' (already completed or retried)' : ''}; only entries from next() can be finished, once.`,
    );
  }
  f.finishing = true;
  return f;
}
