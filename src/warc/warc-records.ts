// **WARC records** of a crawl (WARC 1.1 §6): request/response pairs, a fetch's metadata, warcinfo; framed as bytes.
import { hash, randomUUID } from 'node:crypto';
import type { HttpExchange } from '../fetch/types.ts';
import type { ByteSink } from './byte-sink.ts';

const WARC_VERSION = 'WARC/1.1';
/** Content-Type of rdfscout's metadata record of one fetch (JSON: what the crawl made of it, for `reparse`). */
export const FETCH_METADATA_TYPE = 'application/vnd.rdfscout.fetch+json';

/** The response header undici has already undone: the archived body is no longer chunked. */
const UNDONE_HEADER = 'transfer-encoding';

/** One record before framing: its named fields (WARC 1.1 §5) and its block (an HTTP head, then the payload). */
export interface WarcRecordParts {
  type: 'warcinfo' | 'request' | 'response' | 'metadata';
  id: string;
  fields: [string, string][];
  /** The HTTP head of the block, status line to the blank line that ends it (latin1: {@link headText}), or null. */
  httpHead: string | null;
  /** The payload: bytes in pieces, or text (written as UTF-8). */
  payload: readonly Buffer[] | string;
}

/**
 * `statusline CRLF (name: value CRLF)* CRLF`, as warcio's `StatusAndHeaders.toString()` writes it for headers without
 * repeated names, then the blank line (a test compares the two); `first` (whole lines) comes before the headers, and
 * the header named `omit` is left out. Built here because warcio's Map-based header classes were ~0.06 ms of CPU per
 * archived page in bench:throughput's profile.
 */
export function headText(statusline: string, headers: Readonly<Record<string, string>>, omit = '', first = ''): string {
  let out = `${statusline}\r\n${first}`;
  for (const name in headers) if (name !== omit) out += `${name}: ${headers[name]}\r\n`;
  return `${out}\r\n`;
}

/** RFC 4648 base32 alphabet, as bytes. */
const BASE32 = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 'latin1');

/**
 * Writes the SHA-1 of `bytes` in base32 (32 characters, RFC 4648), the digest form web archives use (WARC 1.1 §5.8,
 * §5.9), into `buf` at `at`, byte by byte: no string per digest (the strings of the earlier `sha1:…` builder were a
 * sixth of the archive's allocations in bench:throughput's profile). One-shot `hash`: no Hash object per digest.
 */
function writeSha1(buf: Buffer, at: number, bytes: Uint8Array): void {
  const digest = hash('sha1', bytes, 'buffer');
  let o = at;
  let bits = 0;
  let value = 0;
  for (let i = 0; i < 20; i++) {
    value = ((value << 8) | (digest[i] as number)) & 0xfff; // the bits not yet written: fewer than 13
    bits += 8;
    while (bits >= 5) {
      buf[o++] = BASE32[(value >>> (bits - 5)) & 31] as number;
      bits -= 5;
    }
  }
  // 160 bits: exactly 32 characters, nothing left over
}

/** The base32 SHA-1 of no bytes (an empty payload: a redirect, a body not read). */
const EMPTY_SHA1 = Buffer.alloc(32);
writeSha1(EMPTY_SHA1, 0, new Uint8Array(0));

/** What a digest field holds: `sha1:` then the 32 characters written in place once the block is written. */
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
  const http = r.httpHead;
  const payload = r.payload;
  let payloadLength = 0;
  if (typeof payload === 'string') payloadLength = Buffer.byteLength(payload, 'utf8');
  else for (const p of payload) payloadLength += p.length;
  const start = out.length;
  // All ASCII up to the digest slots (version, type, a UUID URN), so their byte offsets are string offsets.
  let head = `${WARC_VERSION}\r\nWARC-Type: ${r.type}\r\nWARC-Record-ID: ${r.id}\r\n`;
  let blockDigestAt = -1;
  let payloadDigestAt = -1;
  if (r.type === 'request' || r.type === 'response') {
    blockDigestAt = start + head.length + 24; // 'WARC-Block-Digest: sha1:'
    head += `WARC-Block-Digest: ${DIGEST_SLOT}\r\n`;
    if (r.type === 'response') {
      payloadDigestAt = start + head.length + 26; // 'WARC-Payload-Digest: sha1:'
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
  if (typeof payload === 'string') out.text(payload, 'utf8');
  else for (const p of payload) out.put(p);
  const end = out.length;
  out.put(CRLFCRLF);
  if (blockDigestAt >= 0) writeSha1(out.buffer, blockDigestAt, out.view(blockStart, end));
  if (payloadDigestAt >= 0) {
    if (payloadLength === 0) EMPTY_SHA1.copy(out.buffer, payloadDigestAt);
    else writeSha1(out.buffer, payloadDigestAt, out.view(payloadStart, end));
  }
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

const newId = (): string => `<urn:uuid:${randomUUID()}>`;

/**
 * `/path?query` and `host[:port]` of an absolute http(s) URL as WHATWG serialises it (scheme `//` authority path,
 * the path at least `/`), by slicing: the request line and `Host` of a request record, without parsing the URL again.
 */
function targetOf(url: string): { path: string; host: string } {
  const authority = url.indexOf('//') + 2;
  let end = url.length;
  let pathAt = -1;
  for (let i = authority; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (pathAt < 0 && (c === 47 /* / */ || c === 63 /* ? */)) pathAt = i;
    if (c === 35 /* # */) {
      end = i;
      break;
    }
  }
  if (pathAt < 0) pathAt = end;
  const at = url.lastIndexOf('@', pathAt);
  const host = url.slice(at >= authority ? at + 1 : authority, pathAt);
  const path = url.slice(pathAt, end);
  return { path: path === '' || path.startsWith('?') ? `/${path}` : path, host };
}

/**
 * The request and response records of one exchange (WARC 1.1 §6.3, §6.4), linked by `WARC-Concurrent-To`. The
 * response block is the status line, the headers (lower-case names, as received; `Transfer-Encoding` dropped since
 * the body is stored de-chunked) and the raw body bytes (Content-Encoding kept). An incomplete body says why in
 * `WARC-Truncated`.
 */
export function exchangeRecords(x: HttpExchange): [WarcRecordParts, WarcRecordParts] {
  const responseId = newId();
  const { path, host } = targetOf(x.url);
  const responseFields: [string, string][] = [
    ['WARC-Target-URI', x.url],
    ['WARC-Date', x.date],
    ['Content-Type', 'application/http; msgtype=response'],
  ];
  if (x.truncated !== null) responseFields.push(['WARC-Truncated', x.truncated]);
  const response: WarcRecordParts = {
    type: 'response',
    id: responseId,
    fields: responseFields,
    httpHead: headText(`HTTP/1.1 ${x.status} ${x.statusText}`.trimEnd(), x.headers, UNDONE_HEADER),
    payload: x.body,
  };
  const request: WarcRecordParts = {
    type: 'request',
    id: newId(),
    fields: [
      ['WARC-Target-URI', x.url],
      ['WARC-Date', x.date],
      ['Content-Type', 'application/http; msgtype=request'],
      ['WARC-Concurrent-To', responseId],
    ],
    httpHead: headText(`GET ${path} HTTP/1.1`, x.requestHeaders, 'host', `host: ${host}\r\n`),
    payload: EMPTY,
  };
  return [request, response];
}

const EMPTY: readonly Buffer[] = [];

/** rdfscout's metadata record of one fetch (WARC 1.1 §6.6), about `url`, referring to the fetch's last response. */
export function fetchMetadataRecord(url: string, date: string, meta: unknown, concurrentTo: string | null): WarcRecordParts {
  const fields: [string, string][] = [
    ['WARC-Target-URI', url],
    ['WARC-Date', date],
    ['Content-Type', FETCH_METADATA_TYPE],
  ];
  if (concurrentTo !== null) fields.push(['WARC-Concurrent-To', concurrentTo]);
  return { type: 'metadata', id: newId(), fields, httpHead: null, payload: JSON.stringify(meta) };
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
  return { type: 'warcinfo', id: newId(), fields, httpHead: null, payload: text };
}
