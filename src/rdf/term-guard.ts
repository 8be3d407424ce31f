// **TermGuard** lets only valid RDF terms reach the store: it repairs what can be read one way, and drops the rest.
//
// What a parser hands over is not always RDF 1.1 (RDF 1.1 Concepts §3.2 IRIs, §3.3 literals): RDFa's `lang=""`
// comes out as a langString without a language and `resource="_:b1"` as the IRI `_:b1`, where RDFa 1.1 (§7.4.4, §8)
// reads a plain literal and a blank node; other parsers pass relative IRIs, IRIs with spaces or `|`, or language tags
// such as `en_US`. Stored as they are, such terms make N-Quads that no strict reader takes (SPARQL then misses them).
import type { Literal, NamedNode, Quad, Term } from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';
import { RdfscoutError } from '../errors.ts';
import type { RecoveryLog } from './recovery-log.ts';
import type { BlankNodeRelabeller, QuadTarget } from './run-parser.ts';
import { percentEncode } from './iri-repair.ts';

const factory = new DataFactory();
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
/** An absolute IRI with no character N-Triples' IRIREF forbids (RDF 1.1 N-Triples §2.4, grammar rule 8). */
const VALID_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\x00-\x20<>"{}|^`\\]*$/;
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const ILLEGAL_IRI_CHAR = /[\x00-\x20<>"{}|^`\\]/g;
/** N-Triples' LANGTAG (BCP 47's shape, not its registry). */
const VALID_LANG = /^[a-zA-Z]+(?:-[a-zA-Z0-9]+)*$/;
/** Most predicate and datatype IRIs a guard remembers as valid. */
const KNOWN_IRIS_MAX = 256;

/** A term repaired, or null when the quad that holds it must be dropped (with why). */
type Checked<T> = { term: T; repaired: boolean } | { term: null; why: string };

/**
 * A {@link QuadTarget} in front of another that checks every term of every quad (subject, predicate, object; the
 * graph is the document's): valid terms pass untouched; RDFa's readings are applied; an IRI with illegal characters
 * is percent-encoded; a relative IRI is resolved against the document's base; a bad language tag is mended (`_` to
 * `-`) or removed; a quad whose term cannot be made valid (a literal subject, a predicate that is not an IRI, an IRI
 * that cannot be resolved) is dropped. Repairs and drops go to `log`. `strict`: anything beyond RDFa's readings fails
 * the document instead (`failure`), as the strict parse of a text with such a term would.
 */
export class TermGuard implements QuadTarget {
  readonly #inner: QuadTarget;
  readonly #base: string;
  readonly #relabeller: BlankNodeRelabeller;
  readonly #log: RecoveryLog;
  readonly #strict: boolean;
  /** In strict mode: the first term that was not valid RDF (the document fails with it). */
  failure: RdfscoutError | null = null;

  constructor(inner: QuadTarget, base: string, relabeller: BlankNodeRelabeller, log: RecoveryLog, strict: boolean) {
    this.#inner = inner;
    this.#base = base;
    this.#relabeller = relabeller;
    this.#log = log;
    this.#strict = strict;
    if (inner.drained !== undefined) this.drained = () => inner.drained!();
    if (inner.restart !== undefined) {
      this.restart = async () => {
        log.reset(); // the document is read again: what the first pass counted is counted again
        this.failure = null;
        await inner.restart!();
      };
    }
  }

  drained?: () => Promise<void>;
  restart?: () => Promise<void>;

  /**
   * A cache of predicate and datatype IRIs found valid (a document repeats a few of them on every triple); cleared
   * when it reaches {@link KNOWN_IRIS_MAX}, so it stays small.
   */
  readonly #known = new Set<string>();

  #knownValid(iri: string): boolean {
    if (this.#known.has(iri)) return true;
    if (!VALID_IRI.test(iri)) return false;
    if (this.#known.size >= KNOWN_IRIS_MAX) this.#known.clear();
    this.#known.add(iri);
    return true;
  }

  /** An object that needs no look: a valid IRI, a blank node, or a literal with a valid tag or datatype and no lone surrogate. */
  #isPlainObject(t: Term): boolean {
    if (t.termType !== 'Literal') return isPlain(t);
    const l = t as Literal;
    if (!wellFormedCheck(l.value)) return false;
    if (l.language !== '') return VALID_LANG.test(l.language);
    return l.datatype.value !== RDF_LANG_STRING && this.#knownValid(l.datatype.value);
  }

  add(q: Quad): void {
    if (isPlain(q.subject) && q.predicate.termType === 'NamedNode' && this.#knownValid(q.predicate.value) && this.#isPlainObject(q.object)) {
      this.#inner.add(q);
      return;
    }
    const s = this.#subject(q.subject);
    const p = q.predicate.termType === 'NamedNode' ? this.#iri(q.predicate, false) : { term: null, why: `a predicate that is a ${q.predicate.termType}` };
    const o = this.#object(q.object);
    for (const c of [s, p, o]) {
      if (c.term === null) {
        this.#reject(`A triple was dropped: ${c.why} is not valid RDF.`);
        return;
      }
    }
    const repaired = [s, p, o].filter((c) => c.term !== null && c.repaired).length;
    if (repaired > 0) {
      if (this.#strict && !this.#readingOnly(q)) {
        this.#reject(`A term is not valid RDF: ${describe(q)}.`);
        return;
      }
      this.#log.repair(repaired);
    }
    this.#inner.add(factory.quad(s.term as Quad['subject'], p.term as Quad['predicate'], o.term as Quad['object'], q.graph));
  }

  #reject(message: string): void {
    if (this.#strict) this.failure ??= new RdfscoutError('RDFSCOUT_PARSE_FAILED', message);
    else this.#log.drop({ code: 'RDFSCOUT_PARSE_FAILED', message });
  }

  /** Whether every repair of `q` is one of RDFa's readings (applied in strict mode too: they are not repairs). */
  #readingOnly(q: Quad): boolean {
    const ok = (t: Term): boolean =>
      isPlain(t) || (t.termType === 'NamedNode' && t.value.startsWith('_:')) || (t.termType === 'Literal' && t.language === '' && t.datatype.value === RDF_LANG_STRING);
    return ok(q.subject) && ok(q.predicate) && ok(q.object);
  }

  #subject(t: Term): Checked<Term> {
    if (t.termType === 'NamedNode') return this.#iri(t as NamedNode, true);
    if (t.termType === 'BlankNode' || t.termType === 'Quad') return { term: t, repaired: false };
    return { term: null, why: `a subject that is a ${t.termType}` };
  }

  #object(t: Term): Checked<Term> {
    if (t.termType === 'NamedNode') return this.#iri(t as NamedNode, true);
    if (t.termType === 'Literal') return this.#literal(t as Literal);
    if (t.termType === 'BlankNode' || t.termType === 'Quad') return { term: t, repaired: false };
    return { term: null, why: `an object that is a ${t.termType}` };
  }

  /** An IRI made valid: `_:x` as a blank node (when `blank`), relative ones resolved, illegal characters encoded. */
  #iri(t: NamedNode, blank: boolean): Checked<Term> {
    const value = t.value;
    if (VALID_IRI.test(value)) return { term: t, repaired: false };
    if (value.startsWith('_:') && blank) return { term: this.#relabeller.blankNode(value.slice(2) || 'b_identity'), repaired: true };
    let iri = wellFormed(value);
    if (!ABSOLUTE.test(iri)) {
      try {
        iri = new URL(iri, this.#base).href;
      } catch {
        return { term: null, why: `the relative IRI <${value.slice(0, 100)}>` };
      }
    }
    iri = iri.replace(ILLEGAL_IRI_CHAR, percentEncode);
    return VALID_IRI.test(iri) ? { term: factory.namedNode(iri), repaired: true } : { term: null, why: `the IRI <${value.slice(0, 100)}>` };
  }

  #literal(t: Literal): Checked<Term> {
    if (this.#isPlainObject(t)) return { term: t, repaired: false };
    const value = wellFormed(t.value);
    if (t.language !== '' || t.datatype.value === RDF_LANG_STRING) {
      const lang = t.language.trim().replace(/_/g, '-');
      const literal = lang !== '' && VALID_LANG.test(lang) ? factory.literal(value, lang) : factory.literal(value);
      return { term: literal, repaired: true };
    }
    const datatype = this.#iri(t.datatype, false);
    if (datatype.term === null) return { term: null, why: `the datatype <${t.datatype.value.slice(0, 100)}>` };
    return { term: factory.literal(value, datatype.term as NamedNode), repaired: true };
  }
}

/** A subject that needs no look: a valid IRI or a blank node. */
function isPlain(t: Term): boolean {
  return t.termType === 'BlankNode' || (t.termType === 'NamedNode' && VALID_IRI.test(t.value));
}

function describe(q: Quad): string {
  return `${q.subject.value.slice(0, 100)} ${q.predicate.value.slice(0, 100)} ${q.object.value.slice(0, 100)}`;
}

function wellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}

function wellFormedCheck(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
