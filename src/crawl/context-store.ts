// **ContextStore** keeps the JSON-LD remote contexts a crawl fetched, in the `contexts` sublevel (key: the context URL).
import type { CrawlState } from '../state/open-state.ts';
import type { AnySublevel } from '../state/txn.ts';

/** What the store keeps for one context URL: its document, or why it could not be had. */
export type StoredContext =
  | { ok: true; finalUrl: string; fetchedAt: string; document: string }
  | { ok: false; fetchedAt: string; reason: string; retryable: boolean };

/**
 * The contexts of one crawl. Written as soon as a context is fetched, outside any fetch's transaction: a context is
 * true whatever becomes of the document that asked for it, and a resume or a re-parse reads it instead of fetching.
 */
export class ContextStore {
  readonly #sub: AnySublevel;

  constructor(state: CrawlState) {
    this.#sub = state.sub.contexts;
  }

  async get(url: string): Promise<StoredContext | undefined> {
    return (await this.#sub.get(url)) as StoredContext | undefined;
  }

  async put(url: string, value: StoredContext): Promise<void> {
    await this.#sub.put(url, value);
  }

  /** Contexts the store holds: fetched, and failed (what `stats` and the crawl summary print, apart from documents). */
  async counts(): Promise<{ fetched: number; failed: number }> {
    let fetched = 0;
    let failed = 0;
    for await (const value of this.#sub.values()) {
      if ((value as StoredContext).ok) fetched += 1;
      else failed += 1;
    }
    return { fetched, failed };
  }
}
