// **WarcWriter** appends WARC records to a file, or to rotating files in a folder, one gzip member per record.
import { writeSync } from 'node:fs';
import { type FileHandle, mkdir, open, stat } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import { crc32 } from 'node:zlib';
import { ArgumentError, RdfscoutError } from '../errors.ts';
import { ByteSink } from './byte-sink.ts';
import { DeflateMember, GZIP_HEADER } from './deflate-member.ts';
import { encodeRecord, type WarcRecordParts, warcinfoRecord } from './warc-records.ts';

/** The largest stored deflate block (RFC 1951 §3.2.4: LEN is 16 bits). */
const MAX_STORED = 0xffff;
/**
 * Response records smaller than this are stored (level 0) whatever the level: a `gzipSync` call costs ~20–40 µs of
 * set-up (a zlib stream, its state, an output buffer) before any byte is compressed, and the records of
 * bench:throughput's web are small (1.4 kB of body per fetch on average).
 */
const MIN_DEFLATE = 1024;
/** zlib's state: smaller than the defaults' 256 kB (records are a few kB). */
const DEFLATE_OPTIONS = { memLevel: 5, windowBits: 13 };

/**
 * Appends record `r` to `out` as a gzip member of its own (WARC 1.1 Annex D). The level applies to response records
 * of {@link MIN_DEFLATE} bytes or more, which hold the bodies; request, metadata and warcinfo records (0.8 and
 * 1.4 kB on average in bench:throughput) are stored. Measured by replaying a crawl's exchanges through the writer (3,000 fetches of
 * bench:throughput's web, load 10–12, CPU per fetch): deflating every record at level 1 took 0.47 ms for 2.01 kB
 * per fetch; records of 1 kB or more, 0.31–0.40 ms for 2.26 kB; responses only, 0.19–0.23 ms for 2.97 kB (stored:
 * 0.07–0.08 ms, 4.05 kB). Stored: framed in place, header and block header first, the record, then CRC-32 and ISIZE
 * (RFC 1952 §2.3, RFC 1951 §3.2.4), with no copy of the record and no zlib stream. Deflated: the record is framed in
 * `scratch` and `deflate` (the writer's one zlib state at `level`, reset per record) compresses it (async `zlib.gzip`
 * cost ~3× as much CPU: thread-pool hand-offs; `gzipSync`, a zlib stream per record).
 */
function appendGzipMember(r: WarcRecordParts, level: number, out: ByteSink, scratch: ByteSink, deflate: DeflateMember | null): void {
  if (level > 0 && r.type === 'response' && deflate !== null) {
    scratch.clear();
    encodeRecord(r, scratch);
    if (scratch.length >= MIN_DEFLATE) deflate.append(scratch.view(), out);
    else out.put(storedGzip([scratch.view()]));
    return;
  }
  const at = out.skip(GZIP_HEADER.length + 5);
  encodeRecord(r, out);
  const dataAt = at + GZIP_HEADER.length + 5;
  const n = out.length - dataAt;
  if (n > MAX_STORED) {
    // More than one stored block (a body over 64 kB: rare): framed apart, block headers between the parts.
    const member = storedGzip([Buffer.from(out.view(dataAt))]);
    out.length = at;
    out.put(member);
    return;
  }
  const buf = out.buffer;
  GZIP_HEADER.copy(buf, at);
  buf[at + 10] = 1; // BFINAL, BTYPE 00 (stored)
  buf.writeUInt16LE(n, at + 11);
  buf.writeUInt16LE(n ^ 0xffff, at + 13);
  const crc = crc32(out.view(dataAt)) >>> 0;
  const end = out.skip(8);
  out.buffer.writeUInt32LE(crc, end);
  out.buffer.writeUInt32LE(n, end + 4);
}

/**
 * A gzip member holding `parts` in stored (uncompressed) deflate blocks, built directly: RFC 1952 header, RFC 1951
 * §3.2.4 blocks (BFINAL/BTYPE=00 byte, LEN, NLEN, the bytes), then CRC-32 and ISIZE. What `gzipSync` at level 0
 * writes, without a zlib stream per record (that set-up was most of level 0's cost).
 */
export function storedGzip(parts: readonly Buffer[]): Buffer {
  const data = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  const blocks = Math.max(1, Math.ceil(data.length / MAX_STORED));
  const out = Buffer.allocUnsafe(GZIP_HEADER.length + blocks * 5 + data.length + 8);
  let at = GZIP_HEADER.copy(out, 0);
  for (let b = 0; b < blocks; b++) {
    const start = b * MAX_STORED;
    const len = Math.min(MAX_STORED, data.length - start);
    out[at] = b === blocks - 1 ? 1 : 0; // BFINAL on the last block; BTYPE 00
    out.writeUInt16LE(len, at + 1);
    out.writeUInt16LE(len ^ 0xffff, at + 3);
    at += 5;
    at += data.copy(out, at, start, start + len);
  }
  out.writeUInt32LE(crc32(data) >>> 0, at);
  out.writeUInt32LE(data.length % 2 ** 32, at + 4);
  return out;
}

/** Options of {@link WarcWriter.open}. */
export interface WarcWriterOptions {
  /** A file (created, or appended to) or a folder (an existing one, or a path ending with `/`): rotating files in it. */
  target: string;
  /** In a folder: a new file is begun once the current one holds this many bytes. Default: 1 GiB. */
  maxFileBytes?: number;
  /** Fields of the warcinfo record that opens each file (e.g. the crawl's options). Default: none. */
  info?: Record<string, string>;
  /** Deflate level of response records of 1 kB or more, 0 (stored: gzip framing only, least CPU) to 9; other records are stored. Default: 1. */
  gzipLevel?: number;
}

/** `20261123141530`: a file name's UTC time stamp. */
function stamp(d: Date): string {
  return d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * Writes records in the order given, in the background: `write()` returns at once, so the fetch path never waits for
 * the disk; `flush()` waits for what was given. Each record is its own gzip member, so a file cut by a crash reads
 * up to its last whole record. A folder gets files named `rdfscout-TIME-PID-NNNNN.warc.gz` (one series per process),
 * each begun with a warcinfo record. The first write error is kept (`error`) and nothing more is written.
 */
export class WarcWriter {
  readonly #o: Required<WarcWriterOptions>;
  readonly #dir: string | null;
  readonly #prefix: string;
  #file: FileHandle | null = null;
  #fileBytes = 0;
  /** Groups of records given and not written yet; one write takes them all (fewer system calls under load). */
  #queue: (readonly WarcRecordParts[])[] = [];
  /** Resolvers of the promises `write()` returned for the groups in `#queue`. */
  #waiting: (() => void)[] = [];
  #draining: Promise<void> | null = null;
  /** The bytes of the batch being written (reused batch after batch). */
  readonly #out = new ByteSink();
  /** A record framed before it is deflated (reused). */
  readonly #scratch = new ByteSink(64 * 1024);
  /** The zlib state that deflates response records (none at level 0). */
  #deflate: DeflateMember | null;
  #error: RdfscoutError | null = null;
  /** Files written to, in order. */
  readonly files: string[] = [];
  /** Bytes written, over all files. */
  bytes = 0;

  private constructor(o: Required<WarcWriterOptions>, dir: string | null) {
    this.#o = o;
    this.#dir = dir;
    this.#prefix = `rdfscout-${stamp(new Date())}-${process.pid}`;
    this.#deflate = o.gzipLevel > 0 ? new DeflateMember(o.gzipLevel, DEFLATE_OPTIONS) : null;
  }

  /** Opens the target (a folder is created when the path ends with `/`); throws RDFSCOUT_WARC_FAILED when it cannot. */
  static async open(options: WarcWriterOptions): Promise<WarcWriter> {
    const o = { maxFileBytes: 1024 ** 3, info: {}, gzipLevel: 1, ...options };
    if (!Number.isInteger(o.gzipLevel) || o.gzipLevel < 0 || o.gzipLevel > 9) throw new ArgumentError(`The WARC gzip level must be 0 to 9, got ${o.gzipLevel}.`);
    let isDir = o.target.endsWith('/') || o.target.endsWith(sep);
    try {
      if (isDir) await mkdir(o.target, { recursive: true });
      else isDir = (await stat(o.target).catch(() => null))?.isDirectory() === true;
    } catch (err) {
      throw new RdfscoutError('RDFSCOUT_WARC_FAILED', `Cannot create the WARC folder ${o.target}: ${(err as Error).message}`, { cause: err });
    }
    const writer = new WarcWriter(o, isDir ? o.target : null);
    await writer.#openFile(); // a target we cannot write fails now, before any fetch
    return writer;
  }

  /** The first write error, or null. */
  get error(): RdfscoutError | null {
    return this.#error;
  }

  /**
   * Queues groups of records (e.g. one per fetch) to be written after those queued before, together with any queued
   * in the same turn (one system call). The promise resolves once they are written (handed to the OS: they survive a
   * kill of the process), or failed (see `error`); it never rejects.
   */
  write(...groups: (readonly WarcRecordParts[])[]): Promise<void> {
    const written = new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#queue.push(...groups);
    this.#draining ??= this.#drain();
    return written;
  }

  /** Resolves when everything queued so far is written (or failed: see `error`). */
  async flush(): Promise<void> {
    while (this.#draining !== null) await this.#draining;
  }

  async #drain(): Promise<void> {
    await Promise.resolve(); // after the writes queued in this turn's synchronous code
    while (this.#queue.length > 0) {
      const groups = this.#queue;
      const waiting = this.#waiting;
      this.#queue = [];
      this.#waiting = [];
      await this.#append(groups);
      for (const resolve of waiting) resolve();
    }
    this.#draining = null;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.#file?.close();
    this.#file = null;
    this.#deflate?.close(); // a write after close (a misuse) would store its records rather than deflate them
    this.#deflate = null;
  }

  /** Compresses and writes groups, in one system call per file; a folder's next file begins between two groups. */
  async #append(groups: readonly (readonly WarcRecordParts[])[]): Promise<void> {
    if (this.#error !== null) return;
    const out = this.#out;
    try {
      out.clear();
      for (const group of groups) {
        if (this.#dir !== null && this.#fileBytes + out.length >= this.#o.maxFileBytes) {
          this.#writeOut();
          await this.#openFile();
        }
        for (const record of group) appendGzipMember(record, this.#o.gzipLevel, out, this.#scratch, this.#deflate);
      }
      this.#writeOut();
    } catch (err) {
      this.#error = new RdfscoutError('RDFSCOUT_WARC_FAILED', `Cannot write WARC records to ${this.files.at(-1) ?? this.#o.target}: ${(err as Error).message}`, { cause: err });
    } finally {
      out.clear();
    }
  }

  /**
   * Appends the sink's bytes with one synchronous write, and empties it: the bytes go to the page cache, and the
   * thread-pool hand-off of an async write cost more CPU than the write (3.5% of a crawl's main-thread time in a
   * profile, for `writev`).
   */
  #writeOut(): void {
    const out = this.#out;
    const n = out.length;
    if (n === 0) return;
    const fd = (this.#file as FileHandle).fd;
    for (let at = 0; at < n; ) at += writeSync(fd, out.buffer, at, n - at);
    out.clear();
    this.#fileBytes += n;
    this.bytes += n;
  }

  /** Begins the next file (or opens the target file for appending) and writes its warcinfo record. */
  async #openFile(): Promise<void> {
    await this.#file?.close();
    const path = this.#dir === null ? this.#o.target : join(this.#dir, `${this.#prefix}-${String(this.files.length).padStart(5, '0')}.warc.gz`);
    try {
      this.#file = await open(path, 'a');
      this.files.push(path);
      this.#fileBytes = 0;
      const info = new ByteSink(4096);
      appendGzipMember(warcinfoRecord(basename(path), this.#o.info), this.#o.gzipLevel, info, this.#scratch, this.#deflate);
      await this.#file.write(info.view());
      this.#fileBytes = info.length;
      this.bytes += info.length;
    } catch (err) {
      throw new RdfscoutError('RDFSCOUT_WARC_FAILED', `Cannot write the WARC file ${path}: ${(err as Error).message}`, { cause: err });
    }
  }
}
