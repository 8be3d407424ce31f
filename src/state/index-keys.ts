// **stageIndexKeys** puts the index keys of a stored document's N-Triples lines into a LevelDB batch, without parsing them into quads.
import type { Quad } from '@rdfjs/types';
import { Parser } from 'n3';
import type { DataFactory } from 'rdf-data-factory';
import { type KeyBatch, type KeyQuad, type KeyWriter, QuadKeyWriter } from './quad-keys.ts';

/** A term as quadstore's key writer reads it (termType, value, language, datatype.value): one per position, reused. */
interface ScratchTerm {
  termType: 'NamedNode' | 'BlankNode' | 'Literal';
  value: string;
  language: string;
  datatype: { termType: 'NamedNode'; value: string };
  /** The IRI last read into this term (see `#iri`). */
  lastIri: string;
}

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

const scratch = (): ScratchTerm => ({ termType: 'NamedNode', value: '', language: '', datatype: { termType: 'NamedNode', value: XSD_STRING }, lastIri: '' });

/**
 * Reads the lines n3's Writer writes (`<s> <p> <o> .`, blank nodes `_:label`, literals `"…"`, `"…"@lang`,
 * `"…"^^<dt>`) into one reused quad and hands it to the key writer (quad-keys.ts, quadstore's keys): the three index keys of a line cost no
 * parser tokens, no term objects and no quad (n3's parser and the quads it built were ~40% of the indexer's CPU and
 * most of its garbage on a 50,000-triple document). A line outside that shape (an escape, a quoted triple, odd
 * spacing) is parsed by n3 exactly as before, so the keys of every line are the ones `quadstore.multiPut` wrote
 * for n3's quads; a line n3 cannot read is skipped, as before (stored-triples.ts).
 */
export class IndexKeyStager {
  readonly #keys: QuadKeyWriter;
  readonly #factory: DataFactory;
  readonly #s = scratch();
  readonly #p = scratch();
  readonly #o = scratch();
  readonly #quad: { subject: ScratchTerm; predicate: ScratchTerm; object: ScratchTerm; graph: ScratchTerm };
  #pos = 0;
  /** The text of the last call and the next backslash or carriage return found in it (see {@link stage}). */
  #text = '';
  #special = -1;

  /** `writer`: the quadstore the keys are for; `factory`: the store's data factory, for the lines n3 parses. */
  constructor(writer: KeyWriter, factory: DataFactory) {
    this.#keys = new QuadKeyWriter(writer);
    this.#factory = factory;
    const graph = scratch();
    this.#quad = { subject: this.#s, predicate: this.#p, object: this.#o, graph };
  }

  /**
   * Stages into `batch` the index keys of the N-Triples lines of `text` from character `from`, in the graph `graphIri`,
   * until `maxQuads` quads are staged or the text ends. Returns where it stopped (the start of the next line, or
   * `text.length`) and how many quads it staged.
   */
  stage(batch: KeyBatch, graphIri: string, text: string, from: number, maxQuads: number): { next: number; quads: number } {
    const graph = this.#quad.graph;
    graph.value = graphIri;
    let quads = 0;
    let pos = from;
    // The next backslash or carriage return: a line before it has no escape (n3's Writer escapes both). Kept from the
    // last call on the same text: searched afresh at each call, a text with none was read to its end every
    // `maxQuads` lines (a 2 MB text, 250 quads a call: a quarter of the scan's CPU).
    let special = text === this.#text && this.#special >= pos ? this.#special : nextSpecial(text, pos);
    while (pos < text.length && quads < maxQuads) {
      let end = text.indexOf('\n', pos);
      if (end < 0) end = text.length;
      if (special < pos) special = nextSpecial(text, pos);
      if (end > pos) {
        if (special > end && this.#scanLine(text, pos, end)) {
          this.#keys.put(this.#quad, batch);
          quads++;
        } else {
          for (const q of parseLine(text.slice(pos, end), this.#factory, graphIri)) {
            this.#keys.put(q as unknown as KeyQuad, batch); // a quoted triple's term goes to quadstore's writer
            quads++;
          }
        }
      }
      pos = end + 1;
    }
    this.#text = text;
    this.#special = special;
    return { next: Math.min(pos, text.length), quads };
  }

  /** Reads `<s> <p> <o> .` from text[start, end) into the scratch quad; false when the line is not of that shape. */
  #scanLine(text: string, start: number, end: number): boolean {
    this.#pos = start;
    if (!this.#subjectOrObject(text, end, this.#s, false)) return false;
    if (text.charCodeAt(this.#pos++) !== SPACE || text.charCodeAt(this.#pos) !== LT || !this.#iri(text, end, this.#p)) return false;
    if (text.charCodeAt(this.#pos++) !== SPACE || !this.#subjectOrObject(text, end, this.#o, true)) return false;
    return this.#pos + 2 === end && text.charCodeAt(this.#pos) === SPACE && text.charCodeAt(this.#pos + 1) === DOT;
  }

  #subjectOrObject(text: string, end: number, term: ScratchTerm, literal: boolean): boolean {
    const c = text.charCodeAt(this.#pos);
    if (c === LT) return this.#iri(text, end, term);
    if (c === UNDERSCORE) return this.#blank(text, end, term);
    return literal && c === QUOTE && this.#literal(text, end, term);
  }

  /** `<iri>` at #pos: an absolute IRI with none of the characters n3 reads only through its escaping path. */
  #iri(text: string, end: number, term: ScratchTerm): boolean {
    // The IRI this position read last, again (a subject's lines follow each other): the same string, not a new
    // slice, so it is not checked again and the key writer's lookup of it finds its hash computed.
    const last = term.lastIri;
    const at = this.#pos + 1;
    const iri = text.charCodeAt(at + last.length) === GT && text.startsWith(last, at) && last !== '' ? last : readIri(text, this.#pos, end);
    if (iri === null) return false;
    term.lastIri = iri;
    term.termType = 'NamedNode';
    term.value = iri;
    this.#pos += iri.length + 2;
    return true;
  }

  /** `_:label` at #pos, the label of plain name characters (n3 keeps it as written: blankNodePrefix ''). */
  #blank(text: string, end: number, term: ScratchTerm): boolean {
    if (text.charCodeAt(this.#pos + 1) !== COLON) return false;
    const from = this.#pos + 2;
    let i = from;
    while (i < end && isLabelChar(text.charCodeAt(i))) i++;
    // n3 lets a label end before a dot; and a first character '-' is not a label's start
    if (i === from || text.charCodeAt(i - 1) === DOT || text.charCodeAt(from) === DASH || text.charCodeAt(from) === DOT) return false;
    term.termType = 'BlankNode';
    term.value = text.slice(from, i);
    this.#pos = i;
    return true;
  }

  /** `"…"`, `"…"@lang` or `"…"^^<dt>` at #pos (no escape inside: the caller checked). */
  #literal(text: string, end: number, term: ScratchTerm): boolean {
    const close = text.indexOf('"', this.#pos + 1);
    if (close < 0 || close >= end) return false;
    term.termType = 'Literal';
    term.value = text.slice(this.#pos + 1, close);
    term.language = '';
    let i = close + 1;
    const c = text.charCodeAt(i);
    if (c === AT) {
      const tagEnd = text.indexOf(' ', i);
      if (tagEnd < 0 || tagEnd > end) return false;
      const tag = text.slice(i + 1, tagEnd);
      if (!LANGUAGE.test(tag)) return false;
      term.language = tag.toLowerCase();
      if (term.language === 'version') return false; // n3 reads `@version` as a keyword
      term.datatype.value = `${RDF}langString`;
      i = tagEnd;
    } else if (c === CARET) {
      if (text.charCodeAt(i + 1) !== CARET || text.charCodeAt(i + 2) !== LT) return false;
      const dt = readIri(text, i + 2, end);
      // n3 refuses a language string's datatype given without a language
      if (dt === null || dt === `${RDF}langString` || dt === `${RDF}dirLangString`) return false;
      term.datatype.value = dt;
      i += dt.length + 4;
    } else {
      term.datatype.value = XSD_STRING;
    }
    this.#pos = i;
    return true;
  }
}

const SPACE = 0x20;
const LT = 0x3c;
const GT = 0x3e;
const DOT = 0x2e;
const DASH = 0x2d;
const COLON = 0x3a;
const QUOTE = 0x22;
const UNDERSCORE = 0x5f;
const AT = 0x40;
const CARET = 0x5e;

/** A language tag n3 reads as one (subtags of at most 8 characters, no direction). */
const LANGUAGE = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i;

function nextSpecial(text: string, from: number): number {
  const b = text.indexOf('\\', from);
  const r = text.indexOf('\r', from);
  return Math.min(b < 0 ? Number.POSITIVE_INFINITY : b, r < 0 ? Number.POSITIVE_INFINITY : r);
}

/**
 * The IRI of `<…>` at `at`, or null: it must end before `end`, hold none of the characters n3's unescaped-IRI
 * pattern excludes (controls, space, `<>"{}|^\``, backslash) and start with a scheme (n3 refuses relative IRIs in
 * N-Triples).
 */
function readIri(text: string, at: number, end: number): string | null {
  let i = at + 1;
  const c0 = text.charCodeAt(i) | 0x20;
  if (c0 < 0x61 || c0 > 0x7a) return null;
  let scheme = true;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === GT) break;
    if (c <= SPACE || c === LT || c === QUOTE || c === 0x7b || c === 0x7d || c === 0x7c || c === CARET || c === 0x60 || c === 0x5c) return null;
    if (scheme) {
      if (c === COLON) scheme = false;
      else if (!isSchemeChar(c)) return null;
    }
  }
  if (i >= end || scheme) return null;
  return text.slice(at + 1, i);
}

function isSchemeChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === DOT || c === DASH;
}

/** ASCII characters of a blank node label n3 reads in any position ([A-Za-z0-9_-], and '.' inside). */
function isLabelChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === UNDERSCORE || c === DASH || c === DOT;
}

/** One line parsed by n3 into the graph `graphIri` (none when n3 cannot read it: see stored-triples.ts). */
function parseLine(line: string, df: DataFactory, graphIri: string): Quad[] {
  const graph = df.namedNode(graphIri);
  try {
    return new Parser({ format: 'N-Triples', blankNodePrefix: '', factory: df }).parse(line).map((q) => df.quad(q.subject, q.predicate, q.object, graph));
  } catch {
    return [];
  }
}
