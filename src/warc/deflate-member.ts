// **DeflateMember** deflates records into gzip members with one zlib state reused from record to record.
import { constants, crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';
import type { ByteSink } from './byte-sink.ts';

/** RFC 1952 §2.3 member header: ID1 ID2, CM = 8 (deflate), no flags, MTIME 0, XFL 0, OS 255 (unknown). */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * The zlib binding under a node:zlib stream, as `zlib.gzipSync` itself drives it (node:zlib `processChunkSync`):
 * `writeSync` deflates from `input` into `output` and leaves what is left of each in `_writeState` (avail out, avail
 * in). `processChunkSync` closes the stream when it is done, so it cannot serve a reused one.
 */
type SyncDeflate = DeflateRaw & {
  _handle: {
    writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, output: Uint8Array, outOff: number, outLen: number): void;
    reset(): void;
  };
  _writeState: Uint32Array;
};

/**
 * Appends `data` to a sink as one gzip member (RFC 1952: header, raw deflate data, CRC-32, ISIZE), deflated by a
 * raw deflate stream made once and reset after each member (zlib's `deflateReset` keeps its window and tables).
 * `gzipSync` builds a zlib stream per call: in a `--warc` crawl's profile, the constructors (Gzip, Zlib, ZlibBase)
 * and the state they allocate took more CPU than the compression itself.
 */
export class DeflateMember {
  readonly #zlib: SyncDeflate;

  #error: Error | null = null;

  constructor(level: number, opts: { memLevel: number; windowBits: number }) {
    this.#zlib = createDeflateRaw({ level, ...opts }) as SyncDeflate;
    // zlib reports an error through the stream (as for gzipSync, which listens the same way); thrown by `append`.
    this.#zlib.on('error', (err: Error) => {
      this.#error ??= err;
    });
  }

  /**
   * Appends `data` (not a view of `out`'s own buffer) deflated, as a gzip member, to `out`: the deflate output goes
   * straight into `out`'s buffer, grown while zlib fills it.
   */
  append(data: Uint8Array, out: ByteSink): void {
    if (this.#error !== null) throw this.#error;
    const start = out.skip(GZIP_HEADER.length);
    GZIP_HEADER.copy(out.buffer, start);
    const handle = this.#zlib._handle;
    const state = this.#zlib._writeState;
    let inOff = 0;
    let inLen = data.length;
    try {
      // Room for the whole member at once in the common case: deflate's worst case is ~0.03% over the input.
      out.reserve(inLen + (inLen >> 8) + 64);
      for (;;) {
        const room = out.buffer.length - out.length;
        handle.writeSync(constants.Z_FINISH, data, inOff, inLen, out.buffer, out.length, room);
        if (this.#error !== null) throw this.#error;
        const [availOut = 0, availIn = 0] = state;
        out.length += room - availOut;
        inOff += inLen - availIn;
        inLen = availIn;
        if (availOut !== 0) break; // Z_FINISH with output room left: the stream is complete
        out.reserve(Math.max(4096, inLen));
      }
    } catch (err) {
      out.length = start; // nothing of a member that failed
      throw err;
    } finally {
      handle.reset();
    }
    const end = out.skip(8);
    out.buffer.writeUInt32LE(crc32(data) >>> 0, end);
    out.buffer.writeUInt32LE(data.length % 2 ** 32, end + 4);
  }

  /** Frees the zlib state. */
  close(): void {
    this.#zlib.close();
  }
}
