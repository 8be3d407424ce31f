// **WARC records** of a crawl (WARC 1.1 §6): request/response pairs, a fetch's metadata, warcinfo; framed as bytes.
import { createHash, randomUUID } from 'node:crypto';
import type { HttpExchange } from '../fetch/types.ts';

export const WARC_VERSION = 'WARC/1.1';
/** Content-Type of rdfscout's metadata record of one fetch (JSON: what the crawl made of it, for `reparse`). */
export const FETCH_METADATA_TYPE = 'application/vnd.rdfscout.fetch+json';

/** Response headers undici has already undone: the archived body is no longer chunked. */
const UNDONE_HEADERS = new Set(['transfer-encoding']);

/** A status line and its header lines, in order (a WARC record's head, or the HTTP head in its block). */
export interface HeadLines {
  statusline: string;
  headers: readonly (readonly [string, string])[];
}

/** One record before framing: its named fields (WARC 1.1 §5) and its block (an HTTP head, then the payload). */
export interface WarcRecordParts {
  type: 'warcinfo' | 'request' | 'response' | 'metadata';
  id: string;
  fields: [string, string][];
  /** The HTTP status line and headers (request and response records), or null. */
  httpHead: HeadLines | null;
  payload: readonly Buffer[];
}

/**
 * `statusline CRLF (name: value CRLF)*`, as warcio's `StatusAndHeaders.toString()` writes it for headers without
 * repeated names (a test compares the two); built here because warcio's Map-based header classes were ~0.06 ms of
 * CPU per archived page in bench:throughput's profile.
 */
export function headText(h: HeadLines): string {
  let out = `${h.statusline}\r\n`;
  for (const [name, value] of h.headers) out += `${name}: ${value}\r\n`;
  return out;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `sha1:BASE32` (RFC 4648), the digest form web archives use (WARC 1.1 §5.8, §5.9). */
function digestOf(parts: readonly Buffer[]): string {
  const hash = createHash('sha1');
  for (const p of parts) hash.update(p);
  const bytes = hash.digest();
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return `sha1:${out}`;
}

/**
 * The bytes of one record (WARC 1.1 §4): version line, named fields with `Content-Length` and digests, a blank line,
 * the block, and the closing CRLF CRLF. warcio's own serialiser (async iterators, WASM hashing, a CompressionStream
 * per record) cost 1.1–4.3 ms of CPU per page here, against ~0.2 ms for this framing with node:crypto and zlib
 * (see README "Raw responses (WARC)").
 */
export function frameRecord(r: WarcRecordParts): Buffer[] {
  const head = r.httpHead === null ? null : Buffer.from(`${headText(r.httpHead)}\r\n`, 'latin1');
  const block = head === null ? r.payload : [head, ...r.payload];
  const length = block.reduce((n, p) => n + p.length, 0);
  const fields: [string, string][] = [['WARC-Type', r.type], ['WARC-Record-ID', r.id], ...r.fields];
  if (r.type === 'request' || r.type === 'response') {
    fields.push(['WARC-Block-Digest', digestOf(block)]);
    if (r.type === 'response') fields.push(['WARC-Payload-Digest', digestOf(r.payload)]);
  }
  fields.push(['Content-Length', String(length)]);
  return [Buffer.from(`${headText({ statusline: WARC_VERSION, headers: fields })}\r\n`, 'utf8'), ...block, CRLFCRLF];
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

const newId = (): string => `<urn:uuid:${randomUUID()}>`;

/**
 * The request and response records of one exchange (WARC 1.1 §6.3, §6.4), linked by `WARC-Concurrent-To`. The
 * response block is the status line, the headers (lower-case names, as received; `Transfer-Encoding` dropped since
 * the body is stored de-chunked) and the raw body bytes (Content-Encoding kept). An incomplete body says why in
 * `WARC-Truncated`.
 */
export function exchangeRecords(x: HttpExchange): [WarcRecordParts, WarcRecordParts] {
  const responseId = newId();
  const url = new URL(x.url);
  const common: [string, string][] = [
    ['WARC-Target-URI', x.url],
    ['WARC-Date', x.date],
  ];
  const responseHeaders = Object.entries(x.headers).filter(([name]) => !UNDONE_HEADERS.has(name));
  const response: WarcRecordParts = {
    type: 'response',
    id: responseId,
    fields: [...common, ['Content-Type', 'application/http; msgtype=response'], ...(x.truncated === null ? [] : [['WARC-Truncated', x.truncated] as [string, string]])],
    httpHead: { statusline: `HTTP/1.1 ${x.status} ${x.statusText}`.trimEnd(), headers: responseHeaders },
    payload: x.body,
  };
  const request: WarcRecordParts = {
    type: 'request',
    id: newId(),
    fields: [...common, ['Content-Type', 'application/http; msgtype=request'], ['WARC-Concurrent-To', responseId]],
    httpHead: { statusline: `GET ${url.pathname}${url.search} HTTP/1.1`, headers: [['host', url.host], ...Object.entries(x.requestHeaders).filter(([name]) => name !== 'host')] },
    payload: [],
  };
  return [request, response];
}

/** rdfscout's metadata record of one fetch (WARC 1.1 §6.6), about `url`, referring to the fetch's last response. */
export function fetchMetadataRecord(url: string, date: string, meta: unknown, concurrentTo: string | null): WarcRecordParts {
  const fields: [string, string][] = [
    ['WARC-Target-URI', url],
    ['WARC-Date', date],
    ['Content-Type', FETCH_METADATA_TYPE],
  ];
  if (concurrentTo !== null) fields.push(['WARC-Concurrent-To', concurrentTo]);
  return { type: 'metadata', id: newId(), fields, httpHead: null, payload: [Buffer.from(JSON.stringify(meta), 'utf8')] };
}

/** The warcinfo record that opens every file (WARC 1.1 §6.2): software, format, and the crawl's own fields. */
export function warcinfoRecord(filename: string, info: Record<string, string>): WarcRecordParts {
  const all = { software: 'rdfscout/0.1', format: 'WARC File Format 1.1', conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/', ...info };
  const text = Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const fields: [string, string][] = [
    ['WARC-Filename', filename],
    ['WARC-Date', new Date().toISOString()],
    ['Content-Type', 'application/warc-fields'],
  ];
  return { type: 'warcinfo', id: newId(), fields, httpHead: null, payload: [Buffer.from(text, 'utf8')] };
}
