// **LocalContextLoader** serves JSON-LD contexts from data/contexts/ and never fetches one (issue 2).
import { readFileSync } from 'node:fs';
import type { IDocumentLoader, IJsonLdContext } from 'jsonld-context-parser';
import { RdfscoutError } from '../errors.ts';

/** The folder of shipped contexts, with `index.json` mapping context URLs to files. */
export const CONTEXTS_DIR = new URL('../../data/contexts/', import.meta.url);

interface ContextIndex {
  contexts: Record<string, string>;
}

let shipped: Map<string, string> | null = null;
const parsedFiles = new Map<string, IJsonLdContext>();
/** Frozen copies of the extra contexts given in the options, by the object given. */
const frozenExtra = new WeakMap<IJsonLdContext, IJsonLdContext>();

/** The context URLs rdfscout ships, mapped to their file names in `data/contexts/`. */
export function listShippedContexts(): ReadonlyMap<string, string> {
  if (shipped === null) {
    const index = JSON.parse(readFileSync(new URL('index.json', CONTEXTS_DIR), 'utf8')) as ContextIndex;
    shipped = new Map(Object.entries(index.contexts));
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
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The parsed document of the shipped context at `url` (fragment dropped), read from disk once per process, or
 * undefined when rdfscout does not ship it. Shared: callers must not change it.
 */
export function shippedContextDocument(url: string): IJsonLdContext | undefined {
  const file = listShippedContexts().get(url.replace(/#.*$/, ''));
  return file === undefined ? undefined : loadFile(file);
}

/**
 * A JSON-LD document loader for one document: shipped contexts are served from disk (parsed once per process),
 * any other URL is refused with RDFSCOUT_REMOTE_CONTEXT and remembered in `refused`, without a network call.
 * Create one per parsed document so that a refusal can be attributed to it.
 */
export class LocalContextLoader implements IDocumentLoader {
  /** Context URLs this loader refused (unknown remote contexts), in order. */
  readonly refused: string[] = [];
  readonly #extra: ReadonlyMap<string, IJsonLdContext>;

  /** @param extra additional contexts by URL (e.g. from a test or a user-provided folder); they win over shipped ones. */
  constructor(extra: ReadonlyMap<string, IJsonLdContext> = new Map()) {
    this.#extra = extra;
  }

  /**
   * The context document at `url`. Served frozen and shared, not copied: jsonld-context-parser copies a context
   * before it changes anything (`Object.assign({}, …)` of the context and of each term definition it rewrites), and
   * as its code is strict, a change to a frozen object would throw, fail the document and show in the tests (the
   * differential ones parse thousands of documents this way). A structuredClone of the shipped schema.org context per
   * document cost ~80 µs of CPU (issue 18, session 9).
   */
  async load(url: string): Promise<IJsonLdContext> {
    const key = url.replace(/#.*$/, '');
    const extra = this.#extra.get(key);
    if (extra !== undefined) {
      let frozen = frozenExtra.get(extra);
      if (frozen === undefined) frozenExtra.set(extra, (frozen = deepFreeze(structuredClone(extra)) as IJsonLdContext));
      return frozen;
    }
    const file = listShippedContexts().get(key);
    if (file !== undefined) return loadFile(file);
    this.refused.push(key);
    throw new RdfscoutError(
      'RDFSCOUT_REMOTE_CONTEXT',
      `The JSON-LD remote context ${key} is not shipped with rdfscout and is never fetched; add a copy to data/contexts/ (and index.json) to use it.`,
      { url: key },
    );
  }
}
