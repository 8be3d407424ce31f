// **ExchangeTape** records one HTTP exchange as it happened (request, response head, raw body bytes) for `--warc`.
import type { Readable } from 'node:stream';
import type { HttpExchange } from './types.ts';

/**
 * One exchange on tape. The fetcher opens it before sending, gives it the response head, and hands `chunk` to the
 * body reader (the raw bytes, before any Content-Encoding is undone); the tape reports the exchange once the body
 * stream closes: read to its end, cut short (WARC 1.1 §5.13 `WARC-Truncated`: `length` at a limit, `time` at a
 * timeout, `disconnect` otherwise), or not read at all (`unspecified`). A request that got no response is not
 * reported: nothing was received, and the fetch's own result says what failed.
 */
export class ExchangeTape {
  readonly #x: HttpExchange;
  readonly #report: (x: HttpExchange) => void;
  #ended = false;
  #cut: HttpExchange['truncated'] = null;
  #reported = false;
  #dropped = false;

  constructor(fetchId: string | null, url: string, requestHeaders: Record<string, string>, report: (x: HttpExchange) => void) {
    this.#report = report;
    this.#x = { fetchId, url, requestHeaders, date: new Date().toISOString(), status: 0, statusText: '', headers: {}, body: [], truncated: null };
    this.chunk = this.chunk.bind(this);
    this.limit = this.limit.bind(this);
  }

  /** The response head arrived; the exchange is reported when `body` closes. */
  respond(status: number, statusText: string, headers: Record<string, string>, body: Readable): void {
    Object.assign(this.#x, { status, statusText, headers });
    // One listener: at close, the stream itself says whether it ended and what error (if any) stopped it.
    body.once('close', () => {
      this.#ended = body.readableEnded;
      const err = body.errored as { code?: unknown; name?: unknown } | null;
      if (err !== null && this.#cut === null) this.#cut = /TIMEOUT/i.test(String(err.code)) || err.name === 'TimeoutError' ? 'time' : 'disconnect';
      this.#finish();
    });
  }

  /** A raw body chunk, as it came off the wire. */
  chunk(bytes: Buffer): void {
    this.#x.body.push(bytes);
  }

  /**
   * The fetch drops the body unread: it may still be read off the wire to keep the connection, but none of it is on
   * tape, so the record says `unspecified` as for a body never read.
   */
  dropped(): void {
    this.#dropped = true;
  }

  /** A size limit stopped the read (the body reader says so before it lets go of the stream). */
  limit(): void {
    this.#cut = 'length';
  }

  #finish(): void {
    if (this.#reported) return;
    this.#reported = true;
    const x = this.#x;
    // The raw bytes are whole when the stream ended (a decoded-size limit may still have refused them).
    if ((!this.#ended || this.#dropped) && x.headers['content-length'] !== '0') x.truncated = x.body.length === 0 ? 'unspecified' : (this.#cut ?? 'disconnect');
    this.#report(x);
  }
}
