// **WARC records** of a crawl (WARC 1.1 §6): request/response pairs, a fetch's metadata, warcinfo; framed as bytes.
import { hash, randomUUID } from 'node:crypto';
import type { HttpExchange } from '../fetch/types.ts';
import type { ByteSink } from './byte-sink.ts';

const WARC_VERSION = 'WARC/1.1';
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

/** `sha1:BASE32` (RFC 4648), the digest form web archives use (WARC 1.1 §5.8, §5.9), of bytes in one piece. */
function sha1Of(bytes: Uint8Array): string {
  // One-shot: no Hash object per digest (two per response record; `createHash` + `update` + `digest` cost ~3× as much
  // for the ~2 kB records of bench:throughput's web).
  const digest = hash('sha1', bytes, 'buffer');
  let out = 'sha1:';
  let bits = 0;
  let value = 0;
  for (const byte of digest) {
    value = ((value << 8) | byte) & 0xfff; // the bits not yet written: fewer than 13
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The digest of no bytes (an empty payload: a redirect, a body not read). */
const EMPTY_SHA1 = sha1Of(new Uint8Array(0));
/** What a digest field holds until the block is written and hashed: as long as a digest (`sha1:` + 32 characters). */
const DIGEST_SLOT = `sha1:${' '.repeat(32)}`;

/**
 * Appends one record (WARC 1.1 §4) to `out`: version line, named fields with the digests and `Content-Length`, a
 * blank line, the block (the HTTP head, then the payload), and the closing CRLF CRLF. The block is written in place
 * and hashed there, in one piece each (block and payload), and the digests are written into slots left for them
 * right after `WARC-Record-ID` (their length is fixed), so no record is assembled in a Buffer of its own. warcio's
 * serialiser (async iterators, WASM hashing, a CompressionStream per record) cost 1.1–4.3 ms of CPU per page here
 * (docs/research-notes.md "WARC").
 */
export function encodeRecord(r: WarcRecordParts, out: ByteSink): void {
  const http = r.httpHead === null ? null : `${headText(r.httpHead)}\r\n`;
  let payloadLength = 0;
  for (const p of r.payload) payloadLength += p.length;
  const start = out.length;
  // All ASCII up to the digest slots (version, type, a UUID URN), so their byte offsets are string offsets.
  let head = `${WARC_VERSION}\r\nWARC-Type: ${r.type}\r\nWARC-Record-ID: ${r.id}\r\n`;
  let blockDigestAt = -1;
  let payloadDigestAt = -1;
  if (r.type === 'request' || r.type === 'response') {
    blockDigestAt = start + head.length + 19; // 'WARC-Block-Digest: '
    head += `WARC-Block-Digest: ${DIGEST_SLOT}\r\n`;
    if (r.type === 'response') {
      payloadDigestAt = start + head.length + 21; // 'WARC-Payload-Digest: '
      head += `WARC-Payload-Digest: ${DIGEST_SLOT}\r\n`;
    }
  }
  for (const [name, value] of r.fields) head += `${name}: ${value}\r\n`;
  // An HTTP head is latin1 (one byte per character: undici decodes header bytes so), hence its length in bytes.
  head += `Content-Length: ${(http?.length ?? 0) + payloadLength}\r\n\r\n`;
  out.text(head, 'utf8');
  const blockStart = out.length;
  if (http !== null) out.text(http, 'latin1');
  const payloadStart = out.length;
  for (const p of r.payload) out.put(p);
  const end = out.length;
  out.put(CRLFCRLF);
  if (blockDigestAt >= 0) out.buffer.write(sha1Of(out.view(blockStart, end)), blockDigestAt, 'latin1');
  if (payloadDigestAt >= 0) out.buffer.write(payloadLength === 0 ? EMPTY_SHA1 : sha1Of(out.view(payloadStart, end)), payloadDigestAt, 'latin1');
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
