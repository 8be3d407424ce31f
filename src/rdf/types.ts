// Types of the RDF side: detected document kinds and parse results.
import type { Quad } from '@rdfjs/types';
import type { ErrorCode } from '../errors.ts';

/** What the bytes are, whatever the header said (thesis §7 step 3). */
export type Detected =
  | { kind: 'rdf'; mediaType: string }
  | { kind: 'html' }
  | { kind: 'other'; mediaType: string | null };

export interface ParseProblem {
  code: ErrorCode;
  message: string;
  line?: number;
  /** Where in the document, when it has parts: e.g. `jsonld#2` (the second JSON-LD script of an HTML page), `rdfa`. */
  source?: string;
}

/** What a lenient parse left out of a document or mended in it (strict parsing fails the document instead). */
export interface ParseRecovery {
  /** Statements dropped (a syntax error, an undefined prefix) and quads dropped for a term that is not valid RDF. */
  dropped: number;
  /** Terms repaired: IRIs with illegal characters percent-encoded, language tags mended, relative IRIs resolved. */
  repaired: number;
  /** The first few problems, each with its line in the document when known. */
  errors: ParseProblem[];
}

/**
 * A parsed document. All or nothing: when `error` is set, `quads` is empty and `partial` holds what the parser
 * produced before the error (kept apart, never stored with the good data).
 */
export interface ParsedDocument {
  quads: Quad[];
  error: ParseProblem | null;
  partial: Quad[];
  /** For HTML: which embedded formats yielded triples, e.g. `['jsonld', 'rdfa']`. */
  embedded?: string[];
  /**
   * For HTML: the embedded blocks that failed (each block is all or nothing; the page keeps its good blocks and
   * `error` stays null). Empty or absent when every block parsed.
   */
  problems?: ParseProblem[];
  /** What the lenient parse dropped or repaired; absent when nothing was (or the parse was strict). */
  recovery?: ParseRecovery;
}
