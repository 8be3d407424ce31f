// **FetchArchive** writes each fetch's exchanges (every redirect hop) together with its metadata record (`--warc`).
import type { HttpExchange } from '../fetch/types.ts';
import { exchangeRecords, fetchMetadataRecord } from './warc-records.ts';
import type { WarcWriter } from './warc-writer.ts';

/**
 * Groups the fetcher's exchanges by fetch (`archiveId`) and writes a fetch's request/response pairs, then its metadata
 * record, in one go when the crawl says the fetch is done; robots.txt exchanges are written as they come. The
 * metadata (JSON, opaque here) gets `responses`: the record IDs of the fetch's responses, in hop order.
 */
export class FetchArchive {
  readonly #writer: WarcWriter;
  readonly #open = new Map<string, HttpExchange[]>();

  constructor(writer: WarcWriter) {
    this.#writer = writer;
    this.onExchange = this.onExchange.bind(this);
  }

  /** The writer's first error, or null (the crawl stops on one). */
  get error(): Error | null {
    return this.#writer.error;
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
   * The fetch `fetchId` of `url` is done; `meta` says what the crawl made of it. Written after the bodies still
   * closing have reported (their close events come before the next turn of the event loop); resolves once written
   * (the crawl commits a fetch after its records, so the archive holds every committed fetch after a kill).
   */
  finish(fetchId: string, url: string, meta: Record<string, unknown>): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve)).then(() => {
      const exchanges = this.#open.get(fetchId) ?? [];
      this.#open.delete(fetchId);
      const records = exchanges.flatMap((x) => exchangeRecords(x));
      const responses = records.filter((r) => r.type === 'response').map((r) => r.id);
      const date = exchanges.at(-1)?.date ?? new Date().toISOString();
      records.push(fetchMetadataRecord(url, date, { ...meta, responses }, responses.at(-1) ?? null));
      return this.#writer.write(records);
    });
  }

  /** Waits for everything finished so far to be written, then closes the writer. */
  async close(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await this.#writer.close();
  }
}
