// **loadSeen** rebuilds LevelFrontier's memory (seen table, per-PLD counters, heads) from one scan of `seen`.
import { pldOf } from '../links/normalize-url.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { AnySublevel } from '../state/txn.ts';
import type { QueueHeads } from './queue-heads.ts';
import { URL_STATE, type UrlTable } from './url-table.ts';

/** Value of a `seen` sublevel record (key: the URL). `seq` is the queue seq (of the completed entry for done URLs). */
export type SeenRecord = { state: 'queued'; priority: number; seq: number } | { state: 'done'; seq: number };

/**
 * One scan of `seen` (in batches) rebuilds the seen table, the per-PLD counters (a URL is queued exactly while
 * its record says so: in-flight entries of a crashed run are queued again) and the seq counter; then each PLD's
 * head is read. Queue keys are not scanned: a stale key (its URL done as an alias) counts for nothing and is
 * dropped when met.
 */
export async function loadSeen(seen: AnySublevel, table: UrlTable, heads: QueueHeads): Promise<{ seq: number; queued: number; done: number }> {
  let seq = 0;
  let queued = 0;
  let done = 0;
  const it = seen.iterator();
  try {
    for (;;) {
      const rows = (await it.nextv(1000)) as Array<[string, SeenRecord]>;
      if (rows.length === 0) break;
      for (const [url, rec] of rows) {
        if (rec.state === 'done') {
          table.set(url, URL_STATE.done, Number.NaN);
          done++;
        } else {
          table.set(url, URL_STATE.queued, rec.priority);
          heads.of(pldOf(url), '').queued++;
          queued++;
        }
        if (rec.seq > seq) seq = rec.seq;
      }
    }
  } finally {
    await it.close();
  }
  // Heads are read 32 PLDs at a time: 1000 iterators at once cost ~100 MB of native memory for nothing.
  let started = 0;
  for (const st of heads.values()) {
    if (st.queued === 0) continue;
    heads.refill(st);
    if (++started % 32 === 0) await heads.settled();
  }
  await heads.settled();
  return { seq, queued, done };
}

/**
 * Deletes the seen records of `urls` (in the one-queue table and the two-queue variant's RDF side, those they hold),
 * so that the URLs count as new when the frontier is opened (`--retry-failed`).
 */
export async function forgetSeen(state: CrawlState, urls: readonly string[]): Promise<void> {
  if (urls.length === 0) return;
  for (const seen of [state.sub.seen, state.sub['seen-rdf']] as AnySublevel[]) {
    const known = await seen.getMany([...urls]);
    const dels = urls.filter((_, i) => known[i] !== undefined).map((key) => ({ type: 'del' as const, key }));
    if (dels.length > 0) await seen.batch(dels);
  }
}
