// **Crawl records** in the `records` sublevel: keys are zero-padded fetch sequence numbers, so LevelDB order is fetch order.
import type { CrawlState } from '../state/open-state.ts';
import type { CrawlRecord } from './types.ts';

export function recordKey(seq: number): string {
  return String(seq).padStart(12, '0');
}

/** Every crawl record in fetch order (streamed; constant memory). */
export async function* readRecords(state: CrawlState): AsyncGenerator<CrawlRecord> {
  for await (const value of state.sub.records.values()) yield value as CrawlRecord;
}

/** Seq of the last record, 0 when none. */
export async function lastSeq(state: CrawlState): Promise<number> {
  const keys = await state.sub.records.keys({ reverse: true, limit: 1 }).all();
  return keys.length === 0 ? 0 : Number(keys[0]);
}
