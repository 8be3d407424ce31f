// **Staged writes**: what one transaction of a shared frontier sends to Redis when it commits — links, and the fetch it finishes with its release.
import { pldOf } from '../links/normalize-url.ts';
import type { FinishInfo } from './redis/shared-queue.ts';
import type { Flight } from './fetch-flights.ts';
import { toQueueAdd } from './shared-entry.ts';
import type { ExpectedChange } from './shared-mirror.ts';
import type { FrontierEntry, NewEntry } from '../frontier/types.ts';

/** Writes staged in one transaction: links to add, and the fetch it finishes (if any). */
export interface Staged {
  adds: Map<string, NewEntry>;
  finish?: { entry: FrontierEntry; mode: 'done' | 'retry'; notBefore: number; aliases: string[] };
}

/**
 * What the mirror counts before Redis answers: `fresh` links queued, and the finished fetch leaving flight (a retry
 * queued again, waiting for its back-off when it has one that ends after `now`). Counted when the transaction
 * commits, before a deferred release is sent: the scheduler's next choice, made just before (`claimAhead`), sees the
 * page's links and its end as one process's choice after its commit does.
 */
export function expectedChanges(s: Staged, fresh: readonly NewEntry[], now: number): ExpectedChange[] {
  const changes: ExpectedChange[] = fresh.map((e) => ({ pld: pldOf(e.url), queued: 1 }));
  if (s.finish !== undefined) {
    const { entry, mode, notBefore } = s.finish;
    const waits = mode === 'retry' && notBefore > now;
    changes.push({ pld: entry.pld, inFlight: -1, queued: mode === 'retry' ? 1 : 0, done: mode === 'done' ? 1 : 0, ...(waits ? { waiting: 1, waitingUntil: notBefore } : {}) });
  }
  return changes;
}

/** The release of the fetch `s` finishes, carrying its links, budget, learning and wait (`delayMs` at least). */
export function releaseOf(s: Staged & { finish: NonNullable<Staged['finish']> }, flight: Flight, delayMs: number, now: number): FinishInfo {
  const { entry, mode, notBefore, aliases } = s.finish;
  const { note } = flight;
  return {
    token: flight.token,
    url: entry.url,
    mode,
    spent: mode === 'done' && note.spent !== false,
    rdf: note.rdf ?? 0,
    notBefore,
    // A retry may change its priority and rules (`Strategy.reprioritise`): it waits with them from now on.
    ...(mode === 'retry' ? { requeueAs: { ...toQueueAdd(newEntryOf(entry)), attempts: entry.attempts + 1 } } : {}),
    waitMs: Math.max(delayMs, note.waitMs ?? 0),
    aliases: aliases.map((url) => ({ url, pld: pldOf(url) })),
    adds: [...s.adds.values()].map(toQueueAdd),
    log: mode === 'done' ? (note.learned ?? '') : '',
    depthDropped: note.depthDropped ?? 0,
    now,
  };
}

/** The entry as queued: what `toFrontierEntry` reads back (the fields the queue keeps itself left out). */
function newEntryOf(entry: FrontierEntry): NewEntry {
  const { pld: _p, host: _h, seq: _s, attempts: _a, notBefore: _n, ...queued } = entry;
  return queued;
}
