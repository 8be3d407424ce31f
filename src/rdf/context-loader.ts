// **ContextLoader** serves JSON-LD contexts: given ones, shipped ones (data/contexts/), then remote ones if allowed.
import { readFileSync } from 'node:fs';
import type { IDocumentLoader, IJsonLdContext } from 'jsonld-context-parser';
import { RdfscoutError } from '../errors.ts';

/** The folder of shipped contexts, with `index.json` listing each file, the URLs it answers for and its origin. */
export const CONTEXTS_DIR = new URL('../../data/contexts/', import.meta.url);

/** One shipped context in `data/contexts/index.json`. */
export interface ShippedContext {
  file: string;
  /** Every spelling of its URL that maps to it (http and https, with and without `.jsonld`). */
  urls: string[];
  /** Where the file came from (repository and commit, or npm package and version). */
  source: string;
  /** When it was taken (ISO date). */
  retrieved: string;
  licence: string;
}

/**
 * Where the contexts rdfscout does not ship come from (a crawl's fetcher and store, crawl/context-fetcher.ts).
 * `load` resolves with the context document, or rejects with an RdfscoutError RDFSCOUT_REMOTE_CONTEXT whose message
 * says why it cannot be had; `peek` answers at once with a document already loaded (the fast path is synchronous).
 */
export interface RemoteContexts {
  load(url: string): Promise<IJsonLdContext>;
  peek(url: string): IJsonLdContext | undefined;
}

/**
 * `remote` for one document parsed under `budget`: while a context is awaited the parser is not stalled, and the CPU
 * the thread spends meanwhile (other documents) is not charged to this document (run-parser.ts `Budget.waiting`).
 */
export function waitingOn(remote: RemoteContexts, budget: { cpuMs: number; waiting?: number; readonly clock: () => number }): RemoteContexts {
  return {
    peek: (url) => remote.peek(url),
    async load(url) {
      const t0 = budget.clock();
      budget.waiting = (budget.waiting ?? 0) + 1;
      try {
        return await remote.load(url);
      } finally {
        budget.waiting -= 1;
        budget.cpuMs -= budget.clock() - t0; // the parser's write that awaited this adds the whole span back
      }
    },
  };
}

/** Caches of the shipped context files (read once per process; the files do not change while it runs). */
let shipped: Map<string, string> | null = null;
const parsedFiles = new Map<string, IJsonLdContext>();
/** Frozen copies of the extra contexts given in the options, by the object given. */
const frozenExtra = new WeakMap<IJsonLdContext, IJsonLdContext>();

/** The shipped contexts as `index.json` lists them. */
export function readShippedIndex(): ShippedContext[] {
  const index = JSON.parse(readFileSync(new URL('index.json', CONTEXTS_DIR), 'utf8')) as { contexts: ShippedContext[] };
  return index.contexts;
}

/** The context URLs rdfscout ships, mapped to their file names in `data/contexts/`. */
export function listShippedContexts(): ReadonlyMap<string, string> {
  if (shipped === null) {
    shipped = new Map();
    for (const c of readShippedIndex()) for (const url of c.urls) shipped.set(url, c.file);
  }
  return shipped;
}

function loadFile(file: string): IJsonLdContext {
  let doc = parsedFiles.get(file);
  if (doc === undefined) {
    doc = deepFreeze(JSON.parse(readFileSync(new URL(file, CONTEXTS_DIR), 'utf8'))) as IJsonLdContext;
    parsedFiles.set(file, doc);
  }
  return doc;
}

/** `value` with every object and array in it frozen. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A context URL as looked up: its fragment dropped. */
function contextKey(url: string): string {
  return url.replace(/#.*$/, '');
}

/**
 * The parsed document of the shipped context at `url` (fragment dropped), read from disk once per process, or
 * undefined when rdfscout does not ship it. Shared: callers must not change it.
 */
export function shippedContextDocument(url: string): IJsonLdContext | undefined {
  const file = listShippedContexts().get(contextKey(url));
  return file === undefined ? undefined : loadFile(file);
}

/** The context document at `url` that needs no I/O: given in `extra`, shipped, or loaded already by `remote`. */
export function contextAtHand(url: string, extra: ReadonlyMap<string, IJsonLdContext>, remote: RemoteContexts | null): IJsonLdContext | undefined {
  const key = contextKey(url);
  return extra.get(key) ?? shippedContextDocument(key) ?? remote?.peek(key);
}

/**
 * A JSON-LD document loader for one document: contexts given in the options first, then shipped ones (parsed once
 * per process), then `remote` (the crawl's fetcher) when there is one; without it, any other URL is refused with
 * RDFSCOUT_REMOTE_CONTEXT and no network call. What could not be had is remembered in `refused`, with the reason.
 * Create one per parsed document so that a refusal can be attributed to it.
 */
export class LocalContextLoader implements IDocumentLoader {
  /** Context URLs this loader could not serve, in order. */
  readonly refused: string[] = [];
  /** Why each refused URL could not be had. */
  readonly reasons = new Map<string, string>();
  readonly #extra: ReadonlyMap<string, IJsonLdContext>;
  readonly #remote: RemoteContexts | null;

  /**
   * @param extra additional contexts by URL (e.g. from a test or a user-provided folder); they win over shipped ones.
   * @param remote where other contexts come from; null: nowhere (refused, never fetched).
   */
  constructor(extra: ReadonlyMap<string, IJsonLdContext> = new Map(), remote: RemoteContexts | null = null) {
    this.#extra = extra;
    this.#remote = remote;
  }

  /**
   * The context document at `url`. Served frozen and shared, not copied: jsonld-context-parser copies a context
   * before it changes anything (`Object.assign({}, …)` of the context and of each term definition it rewrites), and
   * as its code is strict, a change to a frozen object would throw, fail the document and show in the tests (the
   * differential ones parse thousands of documents this way). A structuredClone of the shipped schema.org context per
   * document cost ~80 µs of CPU.
   */
  async load(url: string): Promise<IJsonLdContext> {
    const key = contextKey(url);
    const extra = this.#extra.get(key);
    if (extra !== undefined) {
      let frozen = frozenExtra.get(extra);
      if (frozen === undefined) frozenExtra.set(extra, (frozen = deepFreeze(structuredClone(extra)) as IJsonLdContext));
      return frozen;
    }
    const file = listShippedContexts().get(key);
    if (file !== undefined) return loadFile(file);
    if (this.#remote !== null) {
      try {
        return await this.#remote.load(key);
      } catch (err) {
        this.#refuse(key, (err as Error).message);
        throw err;
      }
    }
    const message = `The JSON-LD remote context ${key} is not shipped with rdfscout and nothing is fetched here (a crawl with --no-remote-contexts, or a parse without remoteContexts); add a copy to data/contexts/ (and index.json) to use it.`;
    this.#refuse(key, message);
    throw new RdfscoutError('RDFSCOUT_REMOTE_CONTEXT', message, { url: key });
  }

  /** The document's problem when a context could not be had: the first one, and why. */
  problemMessage(): string | null {
    const first = this.refused[0];
    if (first === undefined) return null;
    return `The JSON-LD document needs the remote context ${first}, which could not be had: ${this.reasons.get(first) ?? 'unknown reason'}`;
  }

  #refuse(key: string, reason: string): void {
    if (!this.reasons.has(key)) this.refused.push(key);
    this.reasons.set(key, reason);
  }
}
