// **WARC records** of a crawl (WARC 1.1, built with warcio): request/response pairs, a fetch's metadata, warcinfo.
import { WARCRecord } from 'warcio';
import type { HttpExchange } from '../fetch/types.ts';

export const WARC_VERSION = 'WARC/1.1';
/** Content-Type of rdfscout's metadata record of one fetch (JSON: what the crawl made of it, for `reparse`). */
export const FETCH_METADATA_TYPE = 'application/vnd.rdfscout.fetch+json';

const encoder = new TextEncoder();

/** Response headers undici has already undone: the archived body is no longer chunked. */
const UNDONE_HEADERS = new Set(['transfer-encoding']);

/** The request line of a URL (origin form) and its Host. */
function requestHead(url: string): { line: string; host: string } {
  const u = new URL(url);
  return { line: `GET ${u.pathname}${u.search} HTTP/1.1`, host: u.host };
}

/**
 * The request and response records of one exchange (WARC 1.1 §6.3, §6.4), linked by `WARC-Concurrent-To`. The
 * response block is the status line, the headers (lower-case names, as received; `Transfer-Encoding` dropped since
 * the body is stored de-chunked) and the raw body bytes (Content-Encoding kept). An incomplete body says why in
 * `WARC-Truncated`.
 */
export function exchangeRecords(x: HttpExchange): WARCRecord[] {
  const headers: [string, string][] = Object.entries(x.headers).filter(([name]) => !UNDONE_HEADERS.has(name));
  const warcHeaders: Record<string, string> = x.truncated === null ? {} : { 'WARC-Truncated': x.truncated };
  const response = WARCRecord.create(
    { url: x.url, date: x.date, type: 'response', warcVersion: WARC_VERSION, statusline: `HTTP/1.1 ${x.status} ${x.statusText}`.trimEnd(), httpHeaders: headers, warcHeaders },
    x.body,
  );
  const responseId = response.warcHeaders.headers.get('WARC-Record-ID') as string;
  const { line, host } = requestHead(x.url);
  const request = WARCRecord.create(
    {
      url: x.url,
      date: x.date,
      type: 'request',
      warcVersion: WARC_VERSION,
      statusline: line,
      httpHeaders: [['host', host], ...Object.entries(x.requestHeaders)],
      warcHeaders: { 'WARC-Concurrent-To': responseId },
    },
    [],
  );
  return [request, response];
}

/** rdfscout's metadata record of one fetch (WARC 1.1 §6.6), about `url`, referring to the fetch's last response. */
export function fetchMetadataRecord(url: string, date: string, meta: unknown, concurrentTo: string | null): WARCRecord {
  const warcHeaders: Record<string, string> = { 'Content-Type': FETCH_METADATA_TYPE };
  if (concurrentTo !== null) warcHeaders['WARC-Concurrent-To'] = concurrentTo;
  return WARCRecord.create({ url, date, type: 'metadata', warcVersion: WARC_VERSION, warcHeaders }, [encoder.encode(JSON.stringify(meta))]);
}

/** The warcinfo record that opens every file (WARC 1.1 §6.2): software, format, and the crawl's own fields. */
export function warcinfoRecord(filename: string, fields: Record<string, string>): WARCRecord {
  return WARCRecord.createWARCInfo(
    { filename, warcVersion: WARC_VERSION },
    { software: 'rdfscout/0.1 (warcio.js)', format: 'WARC File Format 1.1', conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/', ...fields },
  );
}
