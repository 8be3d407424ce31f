// **pullIterator**: an asynciterator AsyncIterator over an async iterable, pulled only when its reader asks.
import { ArrayIterator, BufferedIterator } from 'asynciterator';

/**
 * Comunica and quadstore read `AsyncIterator`s by `read()` and the `readable` event. asynciterator's `wrap()` of a
 * Node stream is a `WrappingIterator`, which can keep its `readable` flag set after a `read()` that found nothing and
 * so swallow the next `readable` (see CoveringQuadstore.match). Here the iterator's own `_read` pulls the generator:
 * no second readiness protocol. Destroying the iterator returns the generator (its `finally` blocks run).
 *
 * It starts on its first `read()` (no autoStart), so it cannot end before anyone reads it. That matters: an
 * asynciterator emits `end` once, to the listeners it has then, and Comunica's GROUP BY, hash join and MINUS attach
 * their `end` listener to an input only when their own output is first read; an input that ended before waits
 * them forever. Every iterator a query source hands out must be lazy like this.
 */
export function pullIterator<T>(source: AsyncIterable<T>, maxBufferSize = 64): BufferedIterator<T> {
  return new PullIterator(source[Symbol.asyncIterator](), maxBufferSize);
}

class PullIterator<T> extends BufferedIterator<T> {
  readonly #source: AsyncIterator<T>;

  constructor(source: AsyncIterator<T>, maxBufferSize: number) {
    super({ maxBufferSize, autoStart: false });
    this.#source = source;
  }

  protected override _read(count: number, done: () => void): void {
    const pull = async (): Promise<void> => {
      for (let i = 0; i < count; i++) {
        const next = await this.#source.next();
        if (this.done) return;
        if (next.done) {
          this.close();
          break;
        }
        this._push(next.value);
      }
    };
    pull().then(done, (err: unknown) => {
      this.destroy(err instanceof Error ? err : new Error(String(err)));
      done();
    });
  }

  protected override _destroy(cause: Error | undefined, callback: (error?: Error) => void): void {
    void this.#source.return?.()?.catch(() => {});
    super._destroy(cause, callback);
  }
}

/**
 * An iterator with nothing in it that ends only once read. asynciterator's `wrap([])` (an `ArrayIterator` that
 * starts at once) ends on the next tick, before its reader may be listening: see {@link pullIterator}.
 */
export function emptyIterator<T>(): ArrayIterator<T> {
  return new ArrayIterator<T>([], { autoStart: false });
}
