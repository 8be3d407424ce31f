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
  const { url, maxBodyBytes, maxDecompressedBytes, onChunk, onLimit } = options;
  let decoders: Transform[];
  try {
    decoders = createDecoders(options.contentEncoding, url);
  } catch (err) {
    source.on('error', () => {}); // destroying an undici body emits an abort error nobody else listens to
    source.destroy();
    throw err;
  }
  let wire = 0;
  const countWire = async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      wire += chunk.length;
      onChunk?.(chunk);
      if (wire > maxBodyBytes) {
        onLimit?.();
        throw new RdfscoutError('RDFSCOUT_BODY_TOO_LARGE', `Body of ${url} exceeds ${maxBodyBytes} bytes`, { url });
      }
      yield chunk;
    }
  };
  const parts: Buffer[] = [];
  let decoded = 0;
  const collect = async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) {
      if (decoded + chunk.length > maxDecompressedBytes) {
        onLimit?.();
        if (options.truncate === true) {
          parts.push(chunk.subarray(0, maxDecompressedBytes - decoded));
          decoded = maxDecompressedBytes;
          throw new EnoughRead();
        }
        const what = decoders.length > 0 ? 'Decompressed body' : 'Body';
        const code = decoders.length > 0 ? 'RDFSCOUT_DECOMPRESSED_TOO_LARGE' : 'RDFSCOUT_BODY_TOO_LARGE';
        throw new RdfscoutError(code, `${what} of ${url} exceeds ${maxDecompressedBytes} bytes`, { url });
      }
      decoded += chunk.length;
      parts.push(chunk);
    }
  };
  try {
    if (decoders.length === 0) {
      // Identity: no pipeline (each pipeline() builds an AbortController and, when it ends, a DOMException: 2% of
      // a crawl's CPU in issue 8's profile) and no async iterators (two nested generators cost a promise per chunk
      // and per step): 'data' events into the same two counts.
      return await readIdentity(source, options);
    } else {
      await (pipeline as (...streams: unknown[]) => Promise<void>)(source, countWire, ...decoders, collect);
    }
  } catch (err) {
    if (err instanceof EnoughRead) return Buffer.concat(parts, decoded);
    if (err instanceof RdfscoutError) throw err;
    if (isDecoderError(err)) {
      throw new RdfscoutError('RDFSCOUT_DECODE_FAILED', `Cannot decode ${options.contentEncoding} body of ${url}: ${(err as Error).message}`, { url, cause: err });
    }
    throw err;
  }
  return Buffer.concat(parts, decoded);
}

/**
 * The identity read of {@link readBody} on the stream's events: the same limits, in the same order (wire bytes, then
 * bytes kept), the same errors, and the source destroyed when a limit stops the read (which closes the socket).
 * Errors of the source, and a close before its end (ERR_STREAM_PREMATURE_CLOSE), reject as they are.
 */
function readIdentity(source: Readable, options: ReadBodyOptions): Promise<Buffer> {
  const { url, maxBodyBytes, maxDecompressedBytes, onChunk, onLimit } = options;
  return new Promise<Buffer>((resolve, reject) => {
    const parts: Buffer[] = [];
    let wire = 0;
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
      wire += chunk.length;
      try {
        onChunk?.(chunk);
      } catch (err) {
        settle(err); // a throwing observer ends the read with its error, as it did inside the loop
        return;
      }
      if (wire > maxBodyBytes) {
        onLimit?.();
        settle(new RdfscoutError('RDFSCOUT_BODY_TOO_LARGE', `Body of ${url} exceeds ${maxBodyBytes} bytes`, { url }));
        return;
      }
      const kept = wire - chunk.length;
      if (kept + chunk.length > maxDecompressedBytes) {
        onLimit?.();
        if (options.truncate === true) {
          parts.push(chunk.subarray(0, maxDecompressedBytes - kept));
          settle(null, Buffer.concat(parts, maxDecompressedBytes));
          return;
        }
        settle(new RdfscoutError('RDFSCOUT_BODY_TOO_LARGE', `Body of ${url} exceeds ${maxDecompressedBytes} bytes`, { url }));
        return;
      }
      parts.push(chunk);
    };
    const stopWatching = finished(source, (err) => {
      if (err) settle(err);
      else settle(null, Buffer.concat(parts, wire));
    });
    source.on('data', onData);
  });
}
