// **FetchArchive** writes each fetch's exchanges (every redirect hop) together with its metadata record (`--warc`).
import { RdfscoutError } from '../errors.ts';
import type { HttpExchange } from '../fetch/types.ts';
import { exchangeRecords, fetchMetadataRecord, type WarcRecordParts } from './warc-records.ts';
import type { WarcWriter } from './warc-writer.ts';

/**
 * Groups the fetcher's exchanges by fetch (`archiveId`) and writes a fetch's request/response pairs, then its metadata
 * record, in one go when the crawl says the fetch is done (after its commit: off the commit's path; after a kill,
 * the records of at most `maxPending` + concurrency fetches committed last may be missing); robots.txt exchanges
 * are written as they come. The
 * metadata (JSON, opaque here; the object given to `finish`, kept, not copied) gets `responses`: the record IDs of the fetch's responses, in hop order.
 */
export class FetchArchive {
  readonly #writer: WarcWriter;
  readonly #open = new Map<string, HttpExchange[]>();
  readonly #maxPending: number;
  #pending = 0;
  /** A failure to build a fetch's records (the writer's own failures are its `error`). */
  #error: RdfscoutError | null = null;
  /** Fetches finished since the last hand-off to the writer (one `setImmediate` takes them all). */
  #finished: { fetchId: string; url: string; meta: Record<string, unknown>; resolve: () => void }[] = [];

  /** `maxPending`: fetches whose records may wait to be written before `finish` waits for the write. Default: 64. */
  constructor(writer: WarcWriter, opts: { maxPending?: number } = {}) {
    this.#writer = writer;
    this.#maxPending = opts.maxPending ?? 64;
    this.onExchange = this.onExchange.bind(this);
  }

  /** The first error building or writing records, or null (the crawl stops on one). */
  get error(): Error | null {
    return this.#error ?? this.#writer.error;
  }

  /** For the fetcher's `onExchange` option. */
  onExchange(x: HttpExchange): void {
    if (x.fetchId === null) {
      void this.#writer.write(exchangeRecords(x));
      return;
    }
    const list = this.#open.get(x.fetchId);
    if (list === undefined) this.#open.set(x.fetchId, [x]);
    else list.push(x);
  }

  /**
   * The fetch `fetchId` of `url` is done; `meta` says what the crawl made of it. Its records are built and written in
   * the background, after the bodies still closing have reported (their close events come before the next turn of
   * the event loop), together with those of every fetch finished in the same turn: one hand-off to the writer and one
   * system call for them all. Resolves at once while fewer than `maxPending` fetches wait to be written; past that,
   * once this fetch's records are written (a bounded queue: a slow disk slows the crawl down rather than filling
   * memory).
   */
  finish(fetchId: string, url: string, meta: Record<string, unknown>): Promise<void> {
    this.#pending++;
    const written = new Promise<void>((resolve) => this.#finished.push({ fetchId, url, meta, resolve }));
    if (this.#finished.length === 1) setImmediate(this.#writeFinished);
    return this.#pending > this.#maxPending ? written : Promise.resolve();
  }

  /** Builds the records of the fetches finished so far and queues them, one group per fetch, in finishing order. */
  readonly #writeFinished = (): void => {
    const finished = this.#finished;
    this.#finished = [];
    const done = (): void => {
      this.#pending -= finished.length;
      for (const f of finished) f.resolve();
    };
    let groups: WarcRecordParts[][];
    try {
      groups = finished.map(({ fetchId, url, meta }) => {
        const exchanges = this.#open.get(fetchId) ?? [];
        this.#open.delete(fetchId);
        const records: WarcRecordParts[] = [];
        const responses: string[] = [];
        for (const x of exchanges) {
          const [request, response] = exchangeRecords(x);
          records.push(request, response);
          responses.push(response.id);
        }
        const date = exchanges.at(-1)?.date ?? new Date().toISOString();
        meta.responses = responses; // the caller's object, made for this call: not copied
        records.push(fetchMetadataRecord(url, date, meta, responses.at(-1) ?? null));
        return records;
      });
    } catch (err) {
      // Called from setImmediate: a throw here would end the process. The crawl stops on `error` instead, as on a
      // failed write (the store stays the reference; the archive lacks these fetches).
      const urls = finished.map((f) => f.url);
      this.#error ??= new RdfscoutError('RDFSCOUT_WARC_FAILED', `Cannot build the WARC records of ${urls.slice(0, 3).join(', ')}${urls.length > 3 ? ` and ${urls.length - 3} more` : ''}: ${(err as Error).message}`, { cause: err });
      done();
      return;
    }
    void this.#writer.write(...groups).then(done);
  };

  /** Fetches finished and not written yet. */
  get pending(): number {
    return this.#pending;
  }

  /** Waits for everything finished so far to be written, then closes the writer. */
  async close(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await this.#writer.close();
  }
}
