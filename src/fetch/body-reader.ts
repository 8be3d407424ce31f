// **readBody** reads a response body with byte limits on the wire and after gzip/deflate/br decoding (bombs stop early).
import type { Readable, Transform } from 'node:stream';
import { finished } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { RdfscoutError } from '../errors.ts';

/** Limits of one body read. */
export interface ReadBodyOptions {
  /** The Content-Encoding header value (`gzip`, `br`, `gzip, br`, …) or null for identity. */
  contentEncoding: string | null;
  /** Largest number of bytes read from the wire → RDFSCOUT_BODY_TOO_LARGE. */
  maxBodyBytes: number;
  /** Largest number of bytes after decoding → RDFSCOUT_DECOMPRESSED_TOO_LARGE (or the cut-off point if `truncate`). */
  maxDecompressedBytes: number;
  /** Stop quietly at `maxDecompressedBytes` and return what was read (robots.txt). Default: false. */
  truncate?: boolean;
  /** The URL, for error messages. */
  url: string;
  /** Sees every raw chunk off the wire, before decoding (`--warc` keeps them). Default: none. */
  onChunk?: (chunk: Buffer) => void;
  /** Told when a limit stops the read early (before the source is destroyed). Default: none. */
  onLimit?: () => void;
}

/** Thrown inside the pipeline to stop reading once a truncating read has enough. */
class EnoughRead extends Error {}

/** Decoders for a Content-Encoding value, in the order they must be applied; throws on an unknown coding. */
function createDecoders(contentEncoding: string | null, url: string): Transform[] {
  if (contentEncoding === null) return [];
  const codings = contentEncoding
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  // The last coding applied by the server is the first one to undo (RFC 9110 §8.4).
  return codings.reverse().map((coding) => {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return zlib.createGunzip();
      case 'deflate':
        return zlib.createInflate(); // zlib-wrapped, as RFC 9110 says; raw deflate fails to decode
      case 'br':
        return zlib.createBrotliDecompress();
      case 'zstd':
        return zlib.createZstdDecompress();
      default:
        throw new RdfscoutError('RDFSCOUT_DECODE_FAILED', `Unsupported Content-Encoding "${coding}" at ${url}`, { url });
    }
  });
}

/** Whether an error came from a zlib/brotli/zstd decoder (corrupt or truncated data). */
function isDecoderError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__') || /BROTLI|ZSTD/.test(code));
}

/**
 * Reads a body stream into one Buffer, never holding more than the limits allow: the wire bytes are
 * counted before decoding, the decoded bytes after, and the first limit crossed destroys the whole
 * pipeline (the source too, which closes the socket). Decoding errors (truncated gzip) become
 * RDFSCOUT_DECODE_FAILED; errors of the source (timeouts, aborts, resets) are rethrown as they are.
 */
export async function readBody(source: Readable, options: ReadBodyOptions): Promise<Buffer> {
  const { url } = options;
  let decoders: Transform[];
  try {
    decoders = createDecoders(options.contentEncoding, url);
  } catch (err) {
    source.on('error', () => {}); // destroying an undici body emits an abort error nobody else listens to
    source.destroy();
    throw err;
  }
  const count = new BodyCount(options, decoders.length > 0);
  const countWire = async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      count.wire(chunk);
      yield chunk;
    }
  };
  const collect = async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) if (count.keep(chunk)) throw new EnoughRead();
  };
  try {
    if (decoders.length === 0) {
      // Identity: no pipeline (each pipeline() builds an AbortController and, when it ends, a DOMException: 2% of
      // a crawl's CPU when profiled) and no async iterators (two nested generators cost a promise per chunk
      // and per step): 'data' events into the same counts.
      return await readIdentity(source, count);
    }
    await (pipeline as (...streams: unknown[]) => Promise<void>)(source, countWire, ...decoders, collect);
  } catch (err) {
    if (err instanceof EnoughRead) return count.body();
    if (err instanceof RdfscoutError) throw err;
    if (isDecoderError(err)) {
      throw new RdfscoutError('RDFSCOUT_DECODE_FAILED', `Cannot decode ${options.contentEncoding} body of ${url}: ${(err as Error).message}`, { url, cause: err });
    }
    throw err;
  }
  return count.body();
}

/** The counts of one body read (wire bytes before decoding, bytes kept after) against its limits, and the bytes kept. */
class BodyCount {
  readonly #options: ReadBodyOptions;
  readonly #decoding: boolean;
  readonly #parts: Buffer[] = [];
  #wire = 0;
  #kept = 0;

  constructor(options: ReadBodyOptions, decoding: boolean) {
    this.#options = options;
    this.#decoding = decoding;
  }

  /** A chunk off the wire: shown to `onChunk`, counted; throws RDFSCOUT_BODY_TOO_LARGE past `maxBodyBytes`. */
  wire(chunk: Buffer): void {
    const { url, maxBodyBytes, onChunk, onLimit } = this.#options;
    this.#wire += chunk.length;
    onChunk?.(chunk);
    if (this.#wire > maxBodyBytes) {
      onLimit?.();
      throw new RdfscoutError('RDFSCOUT_BODY_TOO_LARGE', `Body of ${url} exceeds ${maxBodyBytes} bytes`, { url });
    }
  }

  /**
   * A chunk to keep (decoded). Past `maxDecompressedBytes`: with `truncate`, keeps what fits and returns true (enough
   * read); otherwise throws (RDFSCOUT_DECOMPRESSED_TOO_LARGE when decoding, RDFSCOUT_BODY_TOO_LARGE when not).
   */
  keep(chunk: Buffer): boolean {
    const { url, maxDecompressedBytes, onLimit } = this.#options;
    if (this.#kept + chunk.length > maxDecompressedBytes) {
      onLimit?.();
      if (this.#options.truncate === true) {
        this.#parts.push(chunk.subarray(0, maxDecompressedBytes - this.#kept));
        this.#kept = maxDecompressedBytes;
        return true;
      }
      const what = this.#decoding ? 'Decompressed body' : 'Body';
      const code = this.#decoding ? 'RDFSCOUT_DECOMPRESSED_TOO_LARGE' : 'RDFSCOUT_BODY_TOO_LARGE';
      throw new RdfscoutError(code, `${what} of ${url} exceeds ${maxDecompressedBytes} bytes`, { url });
    }
    this.#kept += chunk.length;
    this.#parts.push(chunk);
    return false;
  }

  /** The bytes kept, as one Buffer. */
  body(): Buffer {
    return Buffer.concat(this.#parts, this.#kept);
  }
}

/**
 * The identity read of {@link readBody} on the stream's events, through the same {@link BodyCount}: the same limits in
 * the same order, the same errors (a throwing `onChunk` included), and the source destroyed when the read stops early
 * (which closes the socket). Errors of the source, and a close before its end (ERR_STREAM_PREMATURE_CLOSE), reject as
 * they are.
 */
function readIdentity(source: Readable, count: BodyCount): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let settled = false;
    const settle = (err: unknown, result?: Buffer): void => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      stopWatching();
      if (result === undefined || !source.readableEnded) {
        source.on('error', () => {}); // destroying an undici body emits an abort error nobody else listens to
        source.destroy();
      }
      if (result !== undefined) resolve(result);
      else reject(err);
    };
    const onData = (chunk: Buffer): void => {
      if (settled) return;
      try {
        count.wire(chunk);
        if (count.keep(chunk)) settle(null, count.body()); // truncated: enough read
      } catch (err) {
        settle(err);
      }
    };
    const stopWatching = finished(source, (err) => {
      if (err) settle(err);
      else settle(null, count.body());
    });
    source.on('data', onData);
  });
}
