// **convertJsonLd** turns a small JSON-LD document of the common subset (schema.org blocks) into quads at once, or declines.
import type { Quad, Quad_Object, Quad_Subject } from '@rdfjs/types';
import { JsonLdContextNormalized } from 'jsonld-context-parser';
import { DataFactory } from 'rdf-data-factory';
import { type ContextTable, EMPTY_TABLE, resolveContext } from './jsonld-fast-context.ts';
import { countKeysInText, inspectValue, isValidIri, isWellFormed } from './jsonld-fast-text.ts';
import type { ParseConfig } from './parse-options.ts';

const factory = new DataFactory();

/** Characters of JSON-LD the fast path takes at most; larger documents are streamed by jsonld-streaming-parser. */
export const FAST_JSONLD_MAX_CHARS = 64 * 1024;

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const XSD_INTEGER = factory.namedNode(`${XSD}integer`);
const XSD_DOUBLE = factory.namedNode(`${XSD}double`);
const XSD_BOOLEAN = factory.namedNode(`${XSD}boolean`);
const RDF_TYPE = factory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');

/** jsonld-context-parser's language tag check (`ContextParser.validateLanguage` with strict values off drops others). */
const LANGUAGE_TAG = /^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/;

/** Names a plain object inherits: jsonld-streaming-parser looks terms up in plain objects, where these are defined. */
const INHERITED_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Thrown (never outside this module) when the document leaves the subset. */
const DECLINE: unique symbol = Symbol('decline');

function decline(): never {
  throw DECLINE;
}

/**
 * Why: jsonld-streaming-parser costs ~2.5 ms of CPU for an 18-quad schema.org block (per-value async jobs,
 * microtasks, GC), more than the rest of a page's crawl path; most pages with RDF carry just
 * such a block. This converts the common subset of JSON-LD 1.1 ("Deserialize JSON-LD to RDF", JSON-LD 1.1 API §8)
 * synchronously and returns `null` (declines) for anything it is not sure to convert exactly as jsonld-streaming-parser
 * does (the reference: the differential tests compare both on every case), so that the caller falls back to it.
 *
 * The subset: a top-level node object or array of node objects (a top-level `{"@context", "@graph"}` is the default
 * graph); contexts inline, shipped, given in `config.contexts` or loaded already (see jsonld-fast-context.ts); keys that are terms,
 * compact IRIs, absolute IRIs, `@id`, `@type` (or their aliases); strings, numbers, booleans, `null`, arrays (sets),
 * nested node objects and value objects (`@value` with `@type` or `@language`). Blank nodes get labels unique within
 * the document (`g<n>` made here, `e<label>` for `_:label`); the caller relabels them per page as for any parser.
 */
export function convertJsonLd(text: string, baseIRI: string, config: ParseConfig): Quad[] | null {
  if (text.length > FAST_JSONLD_MAX_CHARS || text.length === 0) return null;
  if (config.jsonLdContext !== null) return null; // a context from the Link header comes first: the library's way
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Lone surrogates become U+FFFD in the library's UTF-8 tokenizer (escaped ones too: checked on the parsed strings).
  if (!isWellFormed(body)) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return null; // the library reports the error with its own message and line
  }
  // A repeated key is kept once by JSON.parse but given twice by the library's streaming tokenizer.
  const keys = inspectValue(doc);
  if (keys < 0 || keys !== countKeysInText(body)) return null;
  try {
    return new Converter(baseIRI, config, /\d{16}/.test(body)).document(doc);
  } catch (e) {
    if (e === DECLINE) return null;
    throw e;
  }
}

class Converter {
  readonly quads: Quad[] = [];
  readonly #base: string;
  readonly #config: ParseConfig;
  #baseContext: JsonLdContextNormalized | null = null;
  readonly #longDigits: boolean;
  #blank = 0;

  /** @param longDigits the text has a run of 16 or more digits (see {@link numberLiteral}). */
  constructor(base: string, config: ParseConfig, longDigits: boolean) {
    this.#base = base;
    this.#config = config;
    this.#longDigits = longDigits;
  }

  document(doc: unknown): Quad[] {
    if (Array.isArray(doc)) {
      for (const element of doc) this.#topNode(element, false);
    } else {
      this.#topNode(doc, true);
    }
    return this.quads;
  }

  /** A top-level node object (`root`: the document itself, where `{"@context", "@graph"}` is the default graph). */
  #topNode(node: unknown, root: boolean): void {
    if (!isObject(node)) decline();
    const table = '@context' in node ? resolveContext(node['@context'], this.#config.contexts, this.#config.remoteContexts) : EMPTY_TABLE;
    if (table === null) decline();
    if (!('@graph' in node)) {
      this.#node(node, table, true);
      return;
    }
    // JSON-LD 1.1 API §4.1.2 (Expansion) last step: only a top-level object with nothing but @graph (and @context)
    // is the default graph; an array element with @graph, or @graph beside @id or properties, names a graph.
    for (const key in node) if (key !== '@context' && key !== '@graph') decline();
    if (!root) decline();
    const graph = node['@graph'];
    for (const element of Array.isArray(graph) ? graph : [graph]) {
      if (!isObject(element) || '@context' in element) decline();
      this.#node(element, table, true);
    }
  }

  /** Emits a node object's triples; returns its subject and whether it stated anything. */
  #node(node: Record<string, unknown>, table: ContextTable, top: boolean): { subject: Quad_Subject; stated: boolean } {
    let id: unknown;
    let types: unknown;
    let idSeen = false;
    let typeSeen = false;
    const properties: string[] = [];
    for (const key in node) {
      if (key === '@context' && top) continue;
      const keyword = key.charCodeAt(0) === 64 ? key : table.aliases.get(key);
      if (keyword === '@id') {
        if (idSeen) decline();
        idSeen = true;
        id = node[key];
      } else if (keyword === '@type') {
        if (typeSeen) decline();
        typeSeen = true;
        types = node[key];
      } else if (keyword !== undefined) {
        decline(); // @reverse, @nest, @included, @index, @graph (nested), @value in a node, unknown keywords
      } else {
        properties.push(key);
      }
    }
    let subject: Quad_Subject;
    if (idSeen) {
      if (typeof id !== 'string') decline();
      subject = this.#resource(id, table);
    } else {
      subject = factory.blankNode(`g${this.#blank++}`);
    }
    let stated = false;
    if (typeSeen) {
      for (const type of Array.isArray(types) ? types : [types]) {
        if (typeof type !== 'string') decline();
        this.quads.push(factory.quad(subject, RDF_TYPE, factory.namedNode(this.#vocabOrBase(type, table))));
        stated = true;
      }
    }
    for (const key of properties) {
      const predicate = factory.namedNode(this.#predicate(key, table));
      const value = node[key];
      for (const element of Array.isArray(value) ? value : [value]) {
        const object = this.#object(element, key, table);
        if (object === null) continue;
        this.quads.push(factory.quad(subject, predicate, object));
        stated = true;
      }
    }
    return { subject, stated };
  }

  /** The object term of one value of property `key` (JSON-LD 1.1 API §8.2 Object to RDF), or null when dropped. */
  #object(value: unknown, key: string, table: ContextTable): Quad_Object | null {
    if (value === null) return null;
    const def = table.terms.get(key);
    const coerce = def?.coerce ?? null;
    switch (typeof value) {
      case 'string':
        // A coerced string that is no valid IRI is dropped by the library (strict values off), e.g. Yoast's
        // `"urlTemplate": "https://…/?s={search_term_string}"`; so it is here.
        if (coerce === '@id') return this.#resource(value, table, true);
        if (coerce === '@vocab') {
          const iri = this.#vocabOrBase(value, table, true);
          return iri === null ? null : factory.namedNode(iri);
        }
        if (coerce !== null) return factory.literal(value, factory.namedNode(coerce));
        return factory.literal(value, table.language ?? undefined);
      case 'number':
        return numberLiteral(value, coerce === null || coerce === '@id' || coerce === '@vocab' ? null : coerce, this.#longDigits);
      case 'boolean':
        return factory.literal(String(value), coerce === null || coerce === '@id' || coerce === '@vocab' ? XSD_BOOLEAN : factory.namedNode(coerce));
      case 'object':
        break;
      default:
        decline();
    }
    if (Array.isArray(value)) decline(); // an array in an array
    const object = value as Record<string, unknown>;
    if ('@value' in object) return this.#valueObject(object, table);
    // The library mixes up an empty object's blank node with a neighbour's node ("Found duplicate @ids"): declined.
    if (Object.keys(object).length === 0) decline();
    const { subject, stated } = this.#node(object, table, false);
    // The library gives a nested node without @id a blank node only when it stated something or is `{}`.
    if (subject.termType === 'BlankNode' && !stated && !('@id' in object)) decline();
    return subject;
  }

  /** A value object: `@value` with at most one of `@type` and `@language` (JSON-LD 1.1 §4.2 Describing Values). */
  #valueObject(object: Record<string, unknown>, table: ContextTable): Quad_Object | null {
    for (const key in object) if (key !== '@value' && key !== '@type' && key !== '@language') decline();
    const value = object['@value'];
    const type = object['@type'];
    const language = object['@language'];
    if (value === null) return null;
    if (type !== undefined && language !== undefined) decline();
    if (language !== undefined) {
      if (typeof value !== 'string' || typeof language !== 'string' || !LANGUAGE_TAG.test(language)) decline();
      return factory.literal(value, language);
    }
    if (type !== undefined) {
      if (typeof value !== 'string' || typeof type !== 'string') decline();
      return factory.literal(value, factory.namedNode(this.#vocabOrBase(type, table)));
    }
    // Without @type and @language the context's default language does not apply (the library passes an empty context).
    if (typeof value === 'string') return factory.literal(value);
    if (typeof value === 'number') return numberLiteral(value, null, this.#longDigits);
    if (typeof value === 'boolean') return factory.literal(String(value), XSD_BOOLEAN);
    return decline();
  }

  /** A property key as an IRI: jsonld-context-parser's `expandTerm(key, true)`, which must give an absolute IRI. */
  #predicate(key: string, table: ContextTable): string {
    if (key === '' || INHERITED_NAMES.has(key)) decline();
    const iri = expandTerm(key, true, table);
    if (iri === null || !isValidIri(iri) || iri.startsWith('_:')) decline();
    return iri;
  }

  /** An `@id` (or an `@type: @id` string): a blank node for `_:label`, else `expandTerm(value, false)` against the base. */
  #resource(value: string, table: ContextTable): Quad_Subject;
  #resource(value: string, table: ContextTable, dropInvalid: true): Quad_Subject | null;
  #resource(value: string, table: ContextTable, dropInvalid = false): Quad_Subject | null {
    if (value.startsWith('_:')) {
      if (value.length === 2) decline();
      return factory.blankNode(`e${value.slice(2)}`);
    }
    if (value.charCodeAt(0) === 64 || INHERITED_NAMES.has(value)) decline();
    let iri = expandTerm(value, false, table);
    if (iri === null) {
      // Document-relative: resolved by the same function the library uses (relative-to-absolute-iri, reached through
      // jsonld-context-parser, as rdfscout does not depend on it directly).
      this.#baseContext ??= new JsonLdContextNormalized({ '@base': this.#base });
      iri = this.#baseContext.expandTerm(value, false);
    }
    if (iri === null || !isValidIri(iri)) return dropInvalid && iri !== null ? null : decline();
    return factory.namedNode(iri);
  }

  /** A type (or an `@type: @vocab` value): the library's `createVocabOrBaseTerm`, vocab-relative first, then base-relative. */
  #vocabOrBase(value: string, table: ContextTable): string;
  #vocabOrBase(value: string, table: ContextTable, dropInvalid: true): string | null;
  #vocabOrBase(value: string, table: ContextTable, dropInvalid = false): string | null {
    if (value === '' || value.startsWith('_:') || value.charCodeAt(0) === 64 || INHERITED_NAMES.has(value)) decline();
    if (table.aliases.has(value)) decline();
    const iri = expandTerm(value, true, table);
    if (iri !== null && iri !== value) {
      if (!isValidIri(iri)) return dropInvalid ? null : decline();
      return iri;
    }
    const resource = dropInvalid ? this.#resource(value, table, true) : this.#resource(value, table);
    if (resource === null) return null;
    if (resource.termType !== 'NamedNode') decline();
    return resource.value;
  }
}

/**
 * jsonld-context-parser's `JsonLdContextNormalized.expandTerm` (default options) over a {@link ContextTable}, for the
 * terms that table can hold: a term's IRI (vocab mode), a compact IRI whose prefix is a simple term ending in a
 * gen-delim, the term itself when its prefix is another kind of term or unknown, `@vocab` + term (vocab mode, not
 * compact). Returns null where the library would resolve against the base (the caller does that).
 */
function expandTerm(term: string, vocab: boolean, table: ContextTable): string | null {
  if (vocab) {
    const def = table.terms.get(term);
    if (def !== undefined) return def.iri;
  }
  const colon = term.charCodeAt(0) === 35 ? -1 : term.indexOf(':');
  if (colon >= 0) {
    const prefix = term.slice(0, colon);
    if (INHERITED_NAMES.has(prefix)) decline();
    const slashes = term.charCodeAt(colon + 1) === 47 && term.charCodeAt(colon + 2) === 47;
    if (!slashes && prefix !== '_') {
      if (table.aliases.has(prefix)) return term; // a keyword alias is not a prefix
      const def = table.terms.get(prefix);
      if (def !== undefined) return def.prefix ? def.iri + term.slice(colon + 1) : term;
    }
  }
  const compact = colon > 0;
  if (vocab) return table.vocab !== null && !compact ? table.vocab + term : term;
  return compact ? term : null;
}

/**
 * A native number as the library writes it (`Util.intToString`): integers below 1e21 as such, others in xsd:double's
 * canonical form. Declined: non-finite values (`1e400`), and integers past 2^53 when the text has a run of 16 or
 * more digits: the library's tokenizer (@bergos/jsonparse) turns a number written with digits only that does not
 * survive a round trip through a double into a string (`12345678901234567890` becomes a plain literal); written
 * with 15 digits or fewer every integer survives, and JSON.parse gives the same double for any other spelling.
 */
function numberLiteral(value: number, datatype: string | null, longDigits: boolean): Quad_Object {
  if (!Number.isFinite(value) || (longDigits && Number.isInteger(value) && !Number.isSafeInteger(value))) decline();
  const integer = value % 1 === 0;
  const type = datatype === null ? (integer && value < 1e21 ? XSD_INTEGER : XSD_DOUBLE) : factory.namedNode(datatype);
  const lexical = integer && type.value !== XSD_DOUBLE.value ? String(value) : value.toExponential(15).replace(/(\d)0*e\+?/, '$1E');
  return factory.literal(lexical, type);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
