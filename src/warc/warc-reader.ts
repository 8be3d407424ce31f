// **readArchive** reads WARC files (ours or another tool's) into the responses and fetch metadata a re-parse needs.
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AsyncIterReader, type LimitReader, WARCParser, type WARCRecord } from 'warcio';
import { RdfscoutError } from '../errors.ts';
import { FETCH_METADATA_TYPE } from './warc-records.ts';

/** A response as archived: its body de-chunked, Content-Encoding kept (as the fetcher received it from undici). */
export interface ArchivedResponse {
  kind: 'response';
  id: string;
  url: string;
  date: string;
  status: number;
  statusText: string;
  /** Lower-case names; repeated headers joined with ', '; `transfer-encoding` removed once undone. */
  headers: Record<string, string>;
  body: Buffer;
  /** `WARC-Truncated` of the record (the body is incomplete), or null. */
  truncated: string | null;
}

/** What a read of WARC files yields, in file order. */
export type ArchivedItem =
  | ArchivedResponse
  | { kind: 'info'; file: string; fields: Record<string, string> }
  /** rdfscout's metadata record of one fetch. */
  | { kind: 'fetch'; url: string; meta: unknown; concurrentTo: string | null }
  /** A record that could not be read whole (a file cut by a crash): skipped; `message` says where. */
  | { kind: 'problem'; file: string; offset: number; message: string };

const WARC_NAME = /\.warc(\.gz)?$/i;

/** The WARC files named: files as given, folders as their `*.warc` / `*.warc.gz` files in name order. */
export async function listWarcFiles(targets: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const target of targets) {
    const info = await stat(target).catch((err: Error) => {
      throw new RdfscoutError('RDFSCOUT_WARC_FAILED', `Cannot read ${target}: ${err.message}`, { cause: err });
    });
    if (!info.isDirectory()) files.push(target);
    else files.push(...(await readdir(target)).filter((n) => WARC_NAME.test(n)).sort().map((n) => join(target, n)));
  }
  return files;
}

/** HTTP headers of a record as one lower-case map. */
function headersOf(record: WARCRecord): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of record.httpHeaders?.headers ?? []) {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  }
  return out;
}

/** The payload of a response record with chunked transfer coding undone (tools that keep the wire bytes keep it). */
async function payloadOf(record: WARCRecord, headers: Record<string, string>): Promise<Buffer> {
  const raw = await record.readFully(false);
  if (headers['transfer-encoding']?.toLowerCase() !== 'chunked') return Buffer.from(raw);
  delete headers['transfer-encoding'];
  return Buffer.from(await new AsyncIterReader([raw], null, true).readFully());
}

/** What one record gives a re-parse (null for records it does not need: request, revisit, resource, …). */
async function itemOf(record: WARCRecord, file: string): Promise<ArchivedItem | null> {
  const type = record.warcType;
  if (type === 'response' && record.httpHeaders !== null) {
    const headers = headersOf(record);
    const body = await payloadOf(record, headers);
    const statusline = record.httpHeaders.statusline.split(' ');
    return {
      kind: 'response',
      id: record.warcHeader('WARC-Record-ID') ?? '',
      url: record.warcTargetURI ?? '',
      date: record.warcDate ?? '',
      status: Number(statusline[1]),
      statusText: statusline.slice(2).join(' '),
      headers,
      body,
      truncated: record.warcHeader('WARC-Truncated') ?? null,
    };
  }
  if (type === 'metadata' && record.warcContentType === FETCH_METADATA_TYPE) {
    const text = await record.contentText();
    if ((record._reader as LimitReader).limit > 0) return null; // cut short: reported by the caller
    return { kind: 'fetch', url: record.warcTargetURI ?? '', meta: JSON.parse(text), concurrentTo: record.warcHeader('WARC-Concurrent-To') ?? null };
  }
  if (type === 'warcinfo') {
    const fields: Record<string, string> = {};
    for (const line of (await record.contentText()).split(/\r?\n/)) {
      const at = line.indexOf(':');
      if (at > 0) fields[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
    return { kind: 'info', file, fields };
  }
  return null;
}

/** Reads one file's records; a record cut short (or unreadable bytes at its end) becomes a `problem` and ends it. */
async function* readFile(file: string): AsyncGenerator<ArchivedItem> {
  const size = (await stat(file)).size;
  const parser = new WARCParser(createReadStream(file));
  let end = 0;
  try {
    for await (const record of parser) {
      const offset = parser.offset;
      const item = await itemOf(record, file);
      if (record.consumed === '') await record.readFully(false);
      // Fewer bytes than the record's Content-Length: the file was cut inside it (a crash while writing).
      if ((record._reader as LimitReader).limit > 0) {
        yield { kind: 'problem', file, offset, message: `the ${record.warcType} record of ${record.warcTargetURI ?? 'the file'} at byte ${offset} is cut short` };
        return;
      }
      if (item !== null) yield item;
      end = offset + parser.recordLength;
    }
  } catch (err) {
    yield { kind: 'problem', file, offset: end, message: `unreadable from byte ${end}: ${(err as Error).message}` };
    return;
  }
  // An uncompressed record's length leaves out its closing CRLF CRLF (WARC 1.1 §4): 4 bytes at most are not data.
  if (size - end > 4) yield { kind: 'problem', file, offset: end, message: `${size - end} bytes at the end are not a whole record` };
}

/** Every item of `files`, file after file, in record order. */
export async function* readArchive(files: readonly string[]): AsyncGenerator<ArchivedItem> {
  for (const file of files) yield* readFile(file);
}
