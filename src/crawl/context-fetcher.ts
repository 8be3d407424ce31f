// **CrawlContexts** gets the JSON-LD remote contexts a crawl's documents need: from its store, else fetched once.
import { setTimeout as sleep } from 'node:timers/promises';
import type { IJsonLdContext } from 'jsonld-context-parser';
import { RdfscoutError } from '../errors.ts';
import type { Fetcher } from '../fetch/index.ts';
import type { FetchResult } from '../fetch/types.ts';
import { pldOf } from '../links/normalize-url.ts';
import { deepFreeze, type RemoteContexts } from '../rdf/context-loader.ts';
import type { FetchArchive } from '../warc/index.ts';
import { jsonLdAlternateLink } from './context-link.ts';
import type { ContextStore, StoredContext } from './context-store.ts';

/** Accept header of a context fetch (JSON-LD 1.1 API §9.4: the context profile first). */
const CONTEXT_ACCEPT = 'application/ld+json;profile="http://www.w3.org/ns/json-ld#context", application/ld+json, application/json;q=0.9, */*;q=0.1';

/**
 * Bytes a context may have: the largest in common use (schema.org's full context) has ~150 kB; a document that
 * claims to be a context past this is refused rather than kept in memory for the whole crawl.
 */
const MAX_CONTEXT_BYTES = 1024 * 1024;

/** Distinct context URLs one crawl process asks for; past it a document naming a new one fails (a site minting them). */
const MAX_CONTEXTS = 1000;

export interface CrawlContextsDeps {
  /** The crawl's contexts (a resume and a re-parse read them there). */
  store: ContextStore;
  /**
   * Fetches `url` for the context `forUrl` (itself, or the URL whose JSON-LD alternate it is) with the crawl's fetcher
   * (address guard, robots.txt, politeness, size and time limits, redirects followed); null: nothing is fetched (a
   * re-parse: a context not in the store fails its documents).
   */
  fetch: ((url: string, forUrl: string) => Promise<FetchResult>) | null;
}

/**
 * The crawl's {@link RemoteContexts}: a context URL is looked up in the store (a resume and a re-parse find it
 * there), else fetched once per crawl (concurrent documents that need it wait for the same fetch), parsed, and kept
 * in the store, failure or not, so that it is never asked for again in this crawl. A context that cannot be had
 * rejects with RDFSCOUT_REMOTE_CONTEXT saying why; only the documents that need it fail (parse-formats.ts).
 */
export class CrawlContexts implements RemoteContexts {
  readonly #d: CrawlContextsDeps;
  readonly #pending = new Map<string, Promise<IJsonLdContext>>();
  readonly #loaded = new Map<string, IJsonLdContext>();
  /** Contexts fetched by this process: obtained, and failed. */
  fetched = 0;
  failed = 0;

  constructor(d: CrawlContextsDeps) {
    this.#d = d;
  }

  peek(url: string): IJsonLdContext | undefined {
    return this.#loaded.get(url);
  }

  load(url: string): Promise<IJsonLdContext> {
    let pending = this.#pending.get(url);
    if (pending === undefined) {
      if (this.#pending.size >= MAX_CONTEXTS) return Promise.reject(refusal(url, `the crawl has met ${MAX_CONTEXTS} distinct remote contexts, the most it asks for in one run`));
      pending = this.#obtain(url);
      pending.catch(() => {}); // each document that awaits it sees the rejection; none is left unhandled here
      this.#pending.set(url, pending);
    }
    return pending;
  }

  /**
   * Keeps what a fetch of the context at `url` returned, as {@link load} would have (a re-parse calls it with the
   * context fetches archived by the crawl, before the documents that needed them).
   */
  async remember(url: string, result: FetchResult): Promise<void> {
    if (alternateOf(result) !== null) return; // its alternate was fetched next, and is remembered for `url`
    const stored = contextOfFetch(result, new Date().toISOString());
    await this.#d.store.put(url, stored);
    this.#pending.delete(url);
    this.#loaded.delete(url);
  }

  async #obtain(url: string): Promise<IJsonLdContext> {
    let stored = await this.#d.store.get(url);
    // A failure that may pass (a timeout, a 503) is tried again by a later run of the crawl, once.
    const retry = stored !== undefined && !stored.ok && stored.retryable && this.#d.fetch !== null;
    if (stored === undefined || retry) {
      if (this.#d.fetch === null) throw refusal(url, 'it is not among the contexts the crawl fetched (nothing is fetched here)');
      let result = await this.#d.fetch(url, url);
      const alternate = alternateOf(result);
      if (alternate !== null) result = await this.#d.fetch(alternate, url); // one step, as the LoadDocumentCallback
      stored = contextOfFetch(result, new Date().toISOString());
      if (stored.ok) this.fetched += 1;
      else this.failed += 1;
      await this.#d.store.put(url, stored);
    }
    if (!stored.ok) throw refusal(url, stored.reason);
    const doc = deepFreeze(JSON.parse(stored.document)) as IJsonLdContext;
    this.#loaded.set(url, doc);
    return doc;
  }
}

/** The JSON-LD alternate a fetched context that is not JSON names in its Link header (JSON-LD 1.1 API §9.4 step 2). */
function alternateOf(result: FetchResult): string | null {
  return result.kind === 'ok' ? jsonLdAlternateLink(result.contentType, result.headers.link, result.finalUrl) : null;
}

function refusal(url: string, reason: string): RdfscoutError {
  return new RdfscoutError('RDFSCOUT_REMOTE_CONTEXT', reason, { url });
}

/**
 * What a context fetch gives (JSON-LD 1.1 API §9.4 LoadDocumentCallback, and §4.1.2 step 5.2.5: a remote context
 * is a JSON object with an `@context` entry): the document, or the reason it is not one. Redirects were followed by
 * the fetcher, each hop checked as for any fetch. Any media type is read as JSON (servers often send contexts as
 * text/plain); a body that is not JSON says which type it had.
 */
function contextOfFetch(result: FetchResult, fetchedAt: string): StoredContext {
  if (result.kind !== 'ok') {
    const retryable = (result.kind === 'failed' && result.retryable) || (result.kind === 'http-error' && (result.status === 429 || result.status >= 500));
    const why =
      result.kind === 'denied'
        ? 'robots.txt disallows it'
        : result.kind === 'failed'
          ? `${result.error}: ${result.message}`
          : result.kind === 'http-error'
            ? `HTTP ${result.status}`
            : 'its body was not read';
    return { ok: false, fetchedAt, reason: `the fetch of the context failed: ${why}`, retryable };
  }
  if (result.body.byteLength > MAX_CONTEXT_BYTES) {
    return { ok: false, fetchedAt, reason: `the context at ${result.finalUrl} has ${result.body.byteLength} bytes, over the ${MAX_CONTEXT_BYTES} a context may have`, retryable: false };
  }
  let json: unknown;
  try {
    json = JSON.parse(result.body.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    return { ok: false, fetchedAt, reason: `the context at ${result.finalUrl} is not JSON (${result.contentType ?? 'no Content-Type'}): ${(err as Error).message}`, retryable: false };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('@context' in json)) {
    return { ok: false, fetchedAt, reason: `the document at ${result.finalUrl} is no JSON-LD context (a JSON object with "@context")`, retryable: false };
  }
  return { ok: true, finalUrl: result.finalUrl, fetchedAt, document: JSON.stringify(json) };
}

/** What {@link fetchContextWith} uses of a crawl. */
export interface ContextFetchDeps {
  fetcher: Fetcher;
  /** The politeness gate of a PLD (Scheduler.gatePld): how long to wait before asking again, 0 when the request may go. */
  gatePld: (pld: string) => { waitMs: number };
  /** `--warc`: where the context fetch's exchanges are archived (a re-parse reads them back); null without. */
  archive: FetchArchive | null;
  /** The running crawl's signal (an interrupted crawl does not wait for a context). */
  signal: () => AbortSignal | undefined;
}

/**
 * A context fetch of the crawl: the crawl's fetcher (address guard, robots.txt, redirects each checked, size and
 * time limits) behind the PLD's politeness delay, archived with `--warc` as a fetch whose outcome is `context`.
 */
export function fetchContextWith(d: ContextFetchDeps): (url: string, forUrl: string) => Promise<FetchResult> {
  let contextFetches = 0; // the crawl's context fetches so far: each one's id in the WARC archive
  return async (url, forUrl) => {
    const archiveId = `context-${++contextFetches}`;
    const signal = d.signal();
    const gate = async (next: string): Promise<void> => {
      const pld = pldOf(next);
      for (;;) {
        signal?.throwIfAborted();
        const { waitMs } = d.gatePld(pld);
        if (waitMs <= 0) return;
        await sleep(waitMs, undefined, signal ? { signal } : {});
      }
    };
    const result = await d.fetcher.fetch(url, { accept: CONTEXT_ACCEPT, gate, ...(signal ? { signal } : {}), ...(d.archive ? { archiveId } : {}) });
    void d.archive?.finish(archiveId, url, { outcome: 'context', context: forUrl, result: { ...result, body: undefined } });
    return result;
  };
}
