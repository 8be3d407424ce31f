// **QuadKeyWriter** builds quadstore's index keys of one quad straight from its terms, each IRI's form computed once.
import type { Quad } from '@rdfjs/types';

/** The part of quadstore the keys are built with (private in its types): its indexes, its `prefixes` hooks, and its own key writer. */
export interface KeyWriter {
  readonly indexes: ReadonlyArray<{ readonly prefix: string; readonly terms: readonly string[] }>;
  readonly prefixes: { compactIri(iri: string): string };
  _batchPut(quad: Quad, batch: unknown): unknown;
}

/** What the keys are put into: a LevelDB chained batch (value: empty, as quadstore writes it). */
export interface KeyBatch {
  put(key: string, value: string): unknown;
}

/** A term as quadstore's key writer reads it (termType, value, language, datatype.value). */
export interface KeyTerm {
  termType: string;
  value: string;
  language: string;
  datatype: { value: string };
}

/** A quad of {@link KeyTerm}s (a scanner's reused one, or an RDF/JS quad). */
export interface KeyQuad {
  subject: KeyTerm;
  predicate: KeyTerm;
  object: KeyTerm;
  graph: KeyTerm;
}

// quadstore's serialization (dist/serialization/terms.js, quads.js): a key is the index's prefix, each term's value
// followed by the separator, then each term's type and lengths, then the length of those. Literals of the datatypes
// below are written with an fpstring-encoded number ('5', '7'); their quads go through quadstore's own writer.
const SEP = '\u0000\u0000';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const XSD_STRING = `${XSD}string`;
const ENCODED = new Set(
  ['integer', 'float', 'double', 'decimal', 'nonPositiveInteger', 'negativeInteger', 'long', 'int', 'short', 'byte', 'nonNegativeInteger', 'unsignedLong', 'unsignedInt', 'unsignedShort', 'unsignedByte', 'positiveInteger', 'dateTime'].map((n) => XSD + n),
);
/** quadstore's largest term length (4 base-36 digits); a longer term goes to its writer, which refuses it. */
const MAX_TERM = 1_679_616;
/** IRIs whose key form is remembered (then forgotten all at once). */
const CACHE_IRIS = 50_000;

const TERMS = ['subject', 'predicate', 'object', 'graph'] as const;

/**
 * Writes the keys of a quad in every index of a quadstore, exactly as its `_batchPut` does (the differential test
 * compares them on generated quads), at a fraction of its cost: an IRI's compacted form and lengths are computed once
 * and remembered ({@link KeyWriter.prefixes}: namespace ids, whose answer for an IRI never changes while one handle
 * writes the keys: namespace-prefixes.ts), the type-and-lengths tail once per quad for the three keys, and each key
 * is one string put with no encoding options. A writer lives for one indexing pass: the handle that gives
 * namespace ids can change between passes (indexer-handover.ts).
 */
export class QuadKeyWriter {
  readonly #writer: KeyWriter;
  /** Per index: its prefix and the positions (0 subject … 3 graph) in its order. */
  readonly #orders: ReadonlyArray<{ prefix: string; at: readonly number[] }>;
  readonly #iris = new Map<string, { v: string; t: string }>();
  /** Per position of the quad being written: its value with the separator, and its type and lengths. */
  readonly #v = ['', '', '', ''];
  readonly #t = ['', '', '', ''];

  constructor(writer: KeyWriter) {
    this.#writer = writer;
    this.#orders = writer.indexes.map((ix) => ({ prefix: ix.prefix, at: ix.terms.map((n) => TERMS.indexOf(n as (typeof TERMS)[number])) }));
  }

  /** Puts the keys of `quad` into `batch`. */
  put(quad: KeyQuad, batch: KeyBatch): void {
    if (!this.#term(quad.subject, 0) || !this.#term(quad.predicate, 1) || !this.#term(quad.object, 2) || !this.#term(quad.graph, 3)) {
      this.#writer._batchPut(quad as unknown as Quad, batch);
      return;
    }
    const v = this.#v;
    const t = this.#t;
    const tails = (t[0] as string).length + (t[1] as string).length + (t[2] as string).length + (t[3] as string).length;
    const quadLength = encodeQuadLength(tails);
    for (const { prefix, at } of this.#orders) {
      const [a, b, c, d] = at as [number, number, number, number];
      batch.put(prefix + v[a] + v[b] + v[c] + v[d] + t[a] + t[b] + t[c] + t[d] + quadLength, '');
    }
  }

  /** Serialises `term` at position `i`; false for a term quadstore's writer must serialise (an encoded number, a default graph, a term too long). */
  #term(term: KeyTerm, i: number): boolean {
    const value = term.value;
    if (value.length >= MAX_TERM) return false;
    switch (term.termType) {
      case 'NamedNode': {
        let s = this.#iris.get(value);
        if (s === undefined) {
          const compact = this.#writer.prefixes.compactIri(value);
          if (compact.length >= MAX_TERM) return false;
          s = { v: compact + SEP, t: `0${encodeTermLength(compact.length)}` };
          if (this.#iris.size >= CACHE_IRIS) this.#iris.clear();
          this.#iris.set(value, s);
        }
        this.#v[i] = s.v;
        this.#t[i] = s.t;
        return true;
      }
      case 'BlankNode':
        this.#v[i] = value + SEP;
        this.#t[i] = `1${encodeTermLength(value.length)}`;
        return true;
      case 'Literal': {
        const language = term.language;
        if (language) {
          this.#v[i] = language + SEP + value + SEP;
          this.#t[i] = `4${encodeTermLength(value.length)}${encodeTermLength(language.length)}`;
          return true;
        }
        const datatype = term.datatype.value;
        if (datatype === XSD_STRING) {
          this.#v[i] = value + SEP;
          this.#t[i] = `3${encodeTermLength(value.length)}`;
          return true;
        }
        if (ENCODED.has(datatype) || datatype.length >= MAX_TERM) return false;
        this.#v[i] = datatype + SEP + value + SEP;
        this.#t[i] = `2${encodeTermLength(value.length)}${encodeTermLength(datatype.length)}`;
        return true;
      }
      default:
        return false;
    }
  }
}

/** The encoded lengths under {@link LENGTHS}, made once each (a radix conversion per term was a tenth of the key building's CPU). */
const LENGTHS = 4_096;
const lengths: string[] = [];

/** quadstore's `encodeTermLength`: 4 base-36 digits (the caller checked the limit). */
function encodeTermLength(n: number): string {
  if (n < LENGTHS) {
    const known = lengths[n];
    if (known !== undefined) return known;
  }
  let s: string;
  if (n < 36) s = `000${n.toString(36)}`;
  else if (n < 1_296) s = `00${n.toString(36)}`;
  else if (n < 46_656) s = `0${n.toString(36)}`;
  else s = n.toString(36);
  if (n < LENGTHS) lengths[n] = s;
  return s;
}

/** quadstore's `encodeQuadLength`: 5 base-36 digits (a quad's tail is at most 4 × 13 characters). */
function encodeQuadLength(n: number): string {
  return n < 36 ? `0000${n.toString(36)}` : `000${n.toString(36)}`;
}
