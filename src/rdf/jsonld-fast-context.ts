// **resolveContext** turns the JSON-LD contexts of the fast path's subset into a term table (shipped ones once per process).
import { Util as ContextUtil, type IJsonLdContext } from 'jsonld-context-parser';
import { contextAtHand, type RemoteContexts } from './context-loader.ts';

/** One term definition: its IRI, its type coercion (`@id`, `@vocab`, a datatype IRI or null), whether it is a prefix. */
interface TermDefinition {
  readonly iri: string;
  readonly coerce: string | null;
  /** A simple term whose IRI ends with a gen-delim: usable as the prefix of a compact IRI (JSON-LD 1.1 §4.4). */
  readonly prefix: boolean;
}

/** An active context of the subset: terms, keyword aliases (`@id` and `@type` only), `@vocab`, `@language`. */
export interface ContextTable {
  readonly terms: ReadonlyMap<string, TermDefinition>;
  readonly aliases: ReadonlyMap<string, '@id' | '@type'>;
  readonly vocab: string | null;
  readonly language: string | null;
}

export const EMPTY_TABLE: ContextTable = Object.freeze({ terms: new Map(), aliases: new Map(), vocab: null, language: null });

/** jsonld-context-parser's gen-delim test for prefixes (`Util.ENDS_WITH_GEN_DELIM`). */
const ENDS_WITH_GEN_DELIM = /[:/?#[\]@]$/;
const LANGUAGE_TAG = /^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/;
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Remote contexts (shipped, given or loaded) as tables on the empty context, by the document object they come from. */
const remoteTables = new WeakMap<object, ContextTable | null>();

/**
 * The active context that `value` (a document's `@context`: a URL, an object, or an array of those) makes on the
 * empty one, or null when it leaves the subset: `@base`, `@import`, `@protected`, `@propagate`, `@direction`,
 * `null` (a reset), scoped contexts, containers, `@reverse`, `@prefix`, `@nest`, `@index`, terms without `@id`,
 * terms that are IRIs, IRIs relative to the base or to `@vocab`, remote contexts not at hand (neither in `extra`,
 * shipped, nor loaded by `remote` already: the library's loader then fetches them). A remote context is read from
 * the same place the library's loader reads it ({@link LocalContextLoader}: `extra` first, then data/contexts, then
 * `remote`) and turned into a table once.
 */
export function resolveContext(value: unknown, extra: ReadonlyMap<string, IJsonLdContext>, remote: RemoteContexts | null = null): ContextTable | null {
  let table: ContextTable | null = EMPTY_TABLE;
  for (const entry of Array.isArray(value) ? value : [value]) {
    if (table === null) return null;
    if (typeof entry === 'string') {
      // A remote context after another one would be processed over it (its compact IRIs could use the other's
      // prefixes); the table made on the empty context would not show that: declined.
      if (table !== EMPTY_TABLE) return null;
      table = remoteTable(entry, extra, remote);
    } else if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      table = applyObject(table, entry as Record<string, unknown>);
    } else {
      return null;
    }
  }
  return table;
}

function remoteTable(url: string, extra: ReadonlyMap<string, IJsonLdContext>, remote: RemoteContexts | null): ContextTable | null {
  const key = url.replace(/#.*$/, '');
  // The library resolves the URL against the base first: only absolute URLs are taken here.
  if (!ContextUtil.isValidIri(key)) return null;
  const doc = contextAtHand(key, extra, remote);
  if (doc === undefined || typeof doc !== 'object' || doc === null) return null;
  let table = remoteTables.get(doc);
  if (table === undefined) {
    const inner = (doc as Record<string, unknown>)['@context'];
    table = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? applyObject(EMPTY_TABLE, inner as Record<string, unknown>) : null;
    remoteTables.set(doc, table);
  }
  return table;
}

/**
 * One context object over `parent` (JSON-LD 1.1 API §4.1 Context Processing, for the subset). Term IRIs are absolute
 * IRIs, or compact IRIs whose prefix is a simple term (of this context or the parent) with an absolute IRI ending in
 * a gen-delim. Returns null for anything else.
 */
function applyObject(parent: ContextTable, context: Record<string, unknown>): ContextTable | null {
  let vocab = parent.vocab;
  let language = parent.language;
  const raw = new Map<string, unknown>();
  for (const key in context) {
    const value = context[key];
    if (key === '@vocab') {
      if (typeof value !== 'string' || !ContextUtil.isValidIri(value)) return null;
      vocab = value;
    } else if (key === '@language') {
      if (typeof value !== 'string' || !LANGUAGE_TAG.test(value)) return null;
      language = value;
    } else if (key === '@version') {
      if (value !== 1.1) return null;
    } else if (key === '' || key.startsWith('@') || key.includes(':') || key.includes('/') || INHERITED.has(key)) {
      return null;
    } else {
      raw.set(key, value);
    }
  }
  // A @vocab that looks like a compact IRI of a defined term would be expanded by the context parser.
  if (vocab !== null && vocab !== parent.vocab && (raw.has(scheme(vocab)) || parent.terms.has(scheme(vocab)) || parent.aliases.has(scheme(vocab)))) return null;
  const terms = new Map(parent.terms);
  const aliases = new Map(parent.aliases);
  for (const key of raw.keys()) {
    terms.delete(key);
    aliases.delete(key);
  }
  // Pass 1: simple terms that are absolute IRIs and keyword aliases; pass 2: the rest, whose prefixes are now known.
  const later: Array<[string, unknown]> = [];
  for (const [key, value] of raw) {
    if (value === '@id' || value === '@type') aliases.set(key, value);
    else if (typeof value === 'string' && isAbsolute(value, raw, parent)) terms.set(key, { iri: value, coerce: null, prefix: ENDS_WITH_GEN_DELIM.test(value) });
    else later.push([key, value]);
  }
  for (const [key, value] of later) {
    const def = termDefinition(value, terms, aliases, raw);
    if (def === null) return null;
    terms.set(key, def);
  }
  return { terms, aliases, vocab, language };
}

function termDefinition(value: unknown, terms: ReadonlyMap<string, TermDefinition>, aliases: ReadonlyMap<string, string>, raw: ReadonlyMap<string, unknown>): TermDefinition | null {
  if (typeof value === 'string') {
    const iri = expandCompact(value, terms, aliases, raw);
    return iri === null ? null : { iri, coerce: null, prefix: ENDS_WITH_GEN_DELIM.test(iri) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const def = value as Record<string, unknown>;
  for (const key in def) if (key !== '@id' && key !== '@type') return null;
  const id = def['@id'];
  if (typeof id !== 'string' || id.startsWith('@')) return null;
  const iri = expandCompact(id, terms, aliases, raw);
  if (iri === null) return null;
  const type = def['@type'];
  let coerce: string | null = null;
  if (type === '@id' || type === '@vocab') coerce = type;
  else if (type !== undefined) {
    if (typeof type !== 'string' || type.startsWith('@')) return null;
    coerce = expandCompact(type, terms, aliases, raw);
    if (coerce === null) return null;
  }
  return { iri, coerce, prefix: false };
}

/** An absolute IRI, or a compact IRI over a known prefix, expanded; null for anything else. */
function expandCompact(value: string, terms: ReadonlyMap<string, TermDefinition>, aliases: ReadonlyMap<string, string>, raw: ReadonlyMap<string, unknown>): string | null {
  const colon = value.indexOf(':');
  if (colon <= 0 || value.startsWith('_:') || value.startsWith('#')) return null;
  const prefix = value.slice(0, colon);
  if (INHERITED.has(prefix) || aliases.has(prefix)) return null;
  const rest = value.slice(colon + 1);
  const def = rest.startsWith('//') ? undefined : terms.get(prefix);
  if (def === undefined) {
    if (!rest.startsWith('//') && raw.has(prefix)) return null; // a prefix of this context not resolved yet
    return ContextUtil.isValidIri(value) ? value : null;
  }
  if (!def.prefix) return null;
  const iri = def.iri + rest;
  return ContextUtil.isValidIri(iri) ? iri : null;
}

function isAbsolute(value: string, raw: ReadonlyMap<string, unknown>, parent: ContextTable): boolean {
  if (!ContextUtil.isValidIri(value) || value.startsWith('_:')) return false;
  const colon = value.indexOf(':');
  const prefix = value.slice(0, colon);
  if (value.startsWith('//', colon + 1)) return true;
  return !raw.has(prefix) && !parent.terms.has(prefix) && !parent.aliases.has(prefix) && !INHERITED.has(prefix);
}

function scheme(iri: string): string {
  return iri.slice(0, Math.max(0, iri.indexOf(':')));
}
