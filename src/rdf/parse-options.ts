// **resolveParseOptions** turns the user's ParseOptions into one frozen, validated config.
import type { IJsonLdContext } from 'jsonld-context-parser';
import { ArgumentError } from '../errors.ts';
import type { RemoteContexts } from './context-loader.ts';
import { WHOLE_TEXT_CHARS } from './whole-text.ts';
import { DEFAULT_MAX_ENTITY_EXPANSION } from './xml-entity-guard.ts';

export interface ParseOptions {
  /** Most quads one document may yield; past it the document fails (all or nothing). Default: 1,000,000. */
  maxQuads?: number;
  /**
   * CPU-time budget for parsing one document, in ms (this thread's CPU while the parser works on the document's
   * chunks; a busy machine or a slow body does not count); past it the document fails. A parser that makes no
   * progress for this long in wall time fails too. Default: 30,000.
   */
  timeBudgetMs?: number;
  /** RDF/XML: most characters internal entity references may add to a document. Default: 1,048,576. */
  maxEntityExpansion?: number;
  /** JSON-LD contexts by URL served besides the shipped ones in `data/contexts/` (never fetched). Default: none. */
  contexts?: ReadonlyMap<string, IJsonLdContext>;
  /**
   * Where JSON-LD contexts that are neither given nor shipped come from (a crawl's fetcher and store). null: nowhere,
   * such a document fails with RDFSCOUT_REMOTE_CONTEXT and nothing is fetched. Default: null.
   */
  remoteContexts?: RemoteContexts | null;
  /**
   * The context URL a JSON document names in its `Link: <…>; rel="http://www.w3.org/ns/json-ld#context"` header
   * (JSON-LD 1.1 API §9.4 LoadDocumentCallback: `contextUrl`), applied before the document's own. Default: none.
   */
  jsonLdContext?: string | null;
  /**
   * Whether small JSON-LD documents of the common subset are converted at once (jsonld-fast.ts) before
   * jsonld-streaming-parser: the same quads for less CPU. Default: true (RDFSCOUT_JSONLD_FAST=0 in the environment: false).
   */
  jsonLdFastPath?: boolean;
  /**
   * A text of at most this many characters that is at hand whole is parsed in one call rather than streamed in
   * chunks (Turtle family with n3's synchronous parser; RDF/XML, RDFa and Microdata written to their parser at once):
   * the same result for less CPU. 0 streams every text; at most 65,536 (one streamed chunk, so that a
   * text parsed whole holds no more memory than a streamed one). Default: 65,536.
   */
  wholeTextChars?: number;
  /**
   * All or nothing: a document with any syntax error, undefined prefix or term that is not valid RDF keeps no
   * triple. Otherwise (the default) a Turtle-family document loses only its failing statements, IRIs with illegal
   * characters are percent-encoded, and what was dropped or repaired is counted in the document's record.
   * Default: false.
   */
  strict?: boolean;
}

export interface ParseConfig {
  readonly maxQuads: number;
  readonly timeBudgetMs: number;
  readonly maxEntityExpansion: number;
  readonly contexts: ReadonlyMap<string, IJsonLdContext>;
  readonly remoteContexts: RemoteContexts | null;
  readonly jsonLdContext: string | null;
  readonly jsonLdFastPath: boolean;
  readonly wholeTextChars: number;
  readonly strict: boolean;
}

const DEFAULTS: ParseConfig = Object.freeze({
  maxQuads: 1_000_000,
  timeBudgetMs: 30_000,
  maxEntityExpansion: DEFAULT_MAX_ENTITY_EXPANSION,
  contexts: new Map<string, IJsonLdContext>(),
  remoteContexts: null,
  jsonLdContext: null,
  jsonLdFastPath: process.env.RDFSCOUT_JSONLD_FAST !== '0',
  wholeTextChars: WHOLE_TEXT_CHARS,
  strict: false,
});

/** Options resolved before, by the object given: a crawl passes the same object for every document. */
const resolved = new WeakMap<ParseOptions, ParseConfig>();

const KNOWN = new Set(Object.keys(DEFAULTS));

/** Validates `opts` once (unknown keys and non-positive limits are refused) and fills in the defaults. */
export function resolveParseOptions(opts?: ParseOptions): ParseConfig {
  if (opts === undefined) return DEFAULTS;
  const known = resolved.get(opts);
  if (known !== undefined) return known; // every crawled document: no copy, nothing to check
  for (const key of Object.keys(opts)) {
    if (!KNOWN.has(key)) throw new ArgumentError(`Unknown parse option "${key}" (known: ${[...KNOWN].join(', ')}).`);
  }
  const config = { ...DEFAULTS, ...stripUndefined(opts) };
  for (const key of ['maxQuads', 'timeBudgetMs', 'maxEntityExpansion'] as const) {
    const v = config[key];
    if (!Number.isFinite(v) || v <= 0) throw new ArgumentError(`Parse option ${key} must be a positive number, got ${String(v)}.`);
  }
  const whole = config.wholeTextChars;
  if (!Number.isSafeInteger(whole) || whole < 0 || whole > WHOLE_TEXT_CHARS) {
    throw new ArgumentError(`Parse option wholeTextChars must be a whole number from 0 to ${WHOLE_TEXT_CHARS}, got ${String(whole)}.`);
  }
  if (typeof config.jsonLdFastPath !== 'boolean') throw new ArgumentError(`Parse option jsonLdFastPath must be true or false, got ${String(config.jsonLdFastPath)}.`);
  const frozen = Object.freeze(config);
  resolved.set(opts, frozen);
  return frozen;
}

function stripUndefined(opts: ParseOptions): Partial<ParseConfig> {
  return Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) as Partial<ParseConfig>;
}
