// **Crawl records** in the `records` sublevel: keys are zero-padded fetch sequence numbers, so LevelDB order is fetch order.
import type { CrawlState } from '../state/open-state.ts';
import { type Txn, levelTxn } from '../state/txn.ts';
import type { RedirectHop } from '../fetch/types.ts';
import type { BadLink } from '../links/types.ts';
import type { CrawlRecord } from './record.ts';

/** Key of a record: its seq, zero-padded (exported for tests that write records by hand). */
export function recordKey(seq: number): string {
  return String(seq).padStart(12, '0');
}

/** Separates the URL from the record key in `record-urls` keys (never part of a URL). */
const RECORD_URL_SEP = '\u0000';

/** The `record-urls` key that finds a record by the URL of the document it describes (its final URL). */
function recordUrlKey(finalUrl: string, seq: number): string {
  return `${finalUrl}${RECORD_URL_SEP}${recordKey(seq)}`;
}

/**
 * Stages a record and its `record-urls` index entry. The crawl graph (GRAPH <urn:rdfscout:crawl>) is a view
 * over the records (CrawlGraphView); the index finds a document's records when a query names the document.
 */
export function stageRecordWrite(state: CrawlState, txn: Txn, record: CrawlRecord): void {
  levelTxn(txn).put(state.sub.records, recordKey(record.seq), record);
  levelTxn(txn).put(state.sub['record-urls'], recordUrlKey(record.finalUrl, record.seq), record.seq);
}

/** Every crawl record in fetch order (streamed; constant memory), voided ones (`CrawlRecord.voided`) skipped. */
export async function* readRecords(state: CrawlState): AsyncGenerator<CrawlRecord> {
  for await (const value of state.sub.records.values()) if ((value as CrawlRecord).voided !== true) yield value as CrawlRecord;
}

/**
 * Marks a stored record void (a shared crawl's release was refused): it stays under its key, with
 * `voided: true`, and reads skip it.
 */
export async function voidRecord(state: CrawlState, record: CrawlRecord): Promise<void> {
  await state.sub.records.put(recordKey(record.seq), { ...record, voided: true });
}

/**
 * Stores a record again under its key, its URL unchanged (a shared crawl's worker corrects `linksQueued` from its
 * release's answer).
 */
export async function rewriteRecord(state: CrawlState, record: CrawlRecord): Promise<void> {
  await state.sub.records.put(recordKey(record.seq), record);
}

/** Seq of the last record, 0 when none. */
export async function lastSeq(state: CrawlState): Promise<number> {
  const keys = await state.sub.records.keys({ reverse: true, limit: 1 }).all();
  return keys.length === 0 ? 0 : Number(keys[0]);
}

/** The record of fetch `seq`, or undefined. */
export async function readRecord(state: CrawlState, seq: number): Promise<CrawlRecord | undefined> {
  return (await state.sub.records.get(recordKey(seq))) as CrawlRecord | undefined;
}

/** The records of the document whose final URL is `finalUrl`, in fetch order (through the `record-urls` index). */
export async function* readRecordsOf(state: CrawlState, finalUrl: string): AsyncGenerator<CrawlRecord> {
  const prefix = `${finalUrl}${RECORD_URL_SEP}`;
  const keys = await state.sub['record-urls'].keys({ gte: prefix, lt: `${finalUrl}\u0001` }).all();
  for (const key of keys) {
    const record = (await state.sub.records.get(String(key).slice(prefix.length))) as CrawlRecord | undefined;
    if (record !== undefined && record.voided !== true) yield record;
  }
}

/** Stages the bad links found on the page of record `seq` (BeeBot's Bad Links table), in page order. */
export function stageBadLinks(state: CrawlState, txn: Txn, seq: number, bad: readonly BadLink[]): void {
  for (const [i, b] of bad.entries()) levelTxn(txn).put(state.sub.badlinks, `${recordKey(seq)}!${i}`, b);
}

/** Every bad link of the crawl, in fetch order. */
export async function* readBadLinkRows(state: CrawlState): AsyncGenerator<BadLink> {
  for await (const value of state.sub.badlinks.values()) yield value as BadLink;
}

/** Stages the redirect hops of a fetch (key: the redirected URL; the latest hop wins). */
export function stageRedirects(state: CrawlState, txn: Txn, hops: readonly RedirectHop[]): void {
  for (const hop of hops) levelTxn(txn).put(state.sub.redirects, hop.from, hop);
}
