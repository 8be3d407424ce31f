// **Crawl records** in the `records` sublevel: keys are zero-padded fetch sequence numbers, so LevelDB order is fetch order.
import type { CrawlState } from '../state/open-state.ts';
import type { Txn } from '../state/txn.ts';
import type { CrawlRecord } from './record.ts';

export function recordKey(seq: number): string {
  return String(seq).padStart(12, '0');
}

/** Separates the URL from the record key in `record-urls` keys (never part of a URL). */
export const RECORD_URL_SEP = '\u0000';

/** The `record-urls` key that finds a record by the URL of the document it describes (its final URL). */
export function recordUrlKey(finalUrl: string, seq: number): string {
  return `${finalUrl}${RECORD_URL_SEP}${recordKey(seq)}`;
}

/**
 * Stages a record and its `record-urls` index entry. The crawl graph (GRAPH <urn:rdfscout:crawl>) is a view
 * over the records (CrawlGraphView); the index finds a document's records when a query names the document.
 */
export function stageRecordWrite(state: CrawlState, txn: Txn, record: CrawlRecord): void {
  txn.put(state.sub.records, recordKey(record.seq), record);
  txn.put(state.sub['record-urls'], recordUrlKey(record.finalUrl, record.seq), record.seq);
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
