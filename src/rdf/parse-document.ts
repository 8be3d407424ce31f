// **parseDocument** parses one fetched document into quads ready for the store: leniently, or all or nothing.
import type { PageScan } from '../links/page-scan.ts';
import { parseEmbeddedWith } from './parse-embedded.ts';
import { parseRdfInto, parseRdfText } from './parse-formats.ts';
import { type ParseOptions, resolveParseOptions } from './parse-options.ts';
import { BlankNodeRelabeller, blankNodePrefix, createBudget, type QuadTarget, type TextSource } from './run-parser.ts';
import type { Detected, ParsedDocument, ParseProblem, ParseRecovery } from './types.ts';

/**
 * Parses a document of the detected type (see `detectType`) against `baseIRI` (the document's final URL).
 *
 * - `rdf`: Turtle, N-Triples, N-Quads, TriG, N3 (n3), RDF/XML (rdfxml-streaming-parser, after refusing dangerous
 *   DTD entities), JSON-LD (jsonld-streaming-parser with shipped contexts only; an unknown remote context is
 *   RDFSCOUT_REMOTE_CONTEXT and is never fetched). Lenient by default: a Turtle-family statement that fails is
 *   dropped, IRIs with illegal characters are percent-encoded, terms that are not valid RDF are repaired or their
 *   triple dropped; `recovery` counts it (see `parseN3Lenient`, `TermGuard`). Any other error (and with
 *   `opts.strict`, any error at all) is **all or nothing**: `quads` is empty, `error` has the code, message and
 *   line when known, and `partial` holds what the parser produced before the error.
 * - `html`: the embedded RDF (see `parseEmbedded` for its per-block policy); `embedded` names the formats found.
 * - `other`: nothing to parse: no quads, no error.
 *
 * Limits (`opts.maxQuads`, `opts.timeBudgetMs`) make a hostile document end with an error, not exhaust memory.
 * Blank nodes are relabelled with a prefix derived from `baseIRI`, so two documents' `_:b0` never merge.
 * Never rejects for bad content; rejects only for invalid options (ArgumentError).
 * `scan` (HTML only, optional): the page's scan made while its links were read (`pageScanFor`).
 */
export async function parseDocument(text: string, detected: Detected, baseIRI: string, opts?: ParseOptions, scan?: PageScan): Promise<ParsedDocument> {
  const config = resolveParseOptions(opts);
  const budget = createBudget(config.maxQuads, config.timeBudgetMs);
  if (detected.kind === 'other') return { quads: [], error: null, partial: [] };
  if (detected.kind === 'html') return parseEmbeddedWith(text, baseIRI, config, budget, scan);
  const relabeller = new BlankNodeRelabeller(() => blankNodePrefix(baseIRI));
  const result = await parseRdfText(text, detected.mediaType, baseIRI, config, budget, relabeller);
  const recovery = result.recovery.summary();
  const doc: ParsedDocument = result.problem === null ? { quads: result.quads, error: null, partial: [] } : { quads: [], error: result.problem, partial: result.quads };
  if (recovery !== null) doc.recovery = recovery;
  return doc;
}

/**
 * Parses an RDF document of `mediaType` as a stream: `input` is its text, its chunks as they are
 * decoded, or a function returning a fresh reading of them (a JSON-LD document may be read twice: see
 * `parseRdfInto`), and each quad goes to `target` as it is parsed (blank nodes relabelled as {@link parseDocument}
 * does). After `target.restart()` the quads received before it are not part of the document.
 * `recovery`: what a lenient parse dropped or repaired (null when nothing). All or nothing is the caller's part: when `error` is set, `target` has received the `count` quads parsed before
 * the error, which must not be stored as the document. Never rejects for bad content (ArgumentError for options).
 */
export async function parseRdfDocumentInto(
  input: TextSource,
  mediaType: string,
  baseIRI: string,
  target: QuadTarget,
  opts?: ParseOptions,
): Promise<{ count: number; error: ParseProblem | null; recovery: ParseRecovery | null }> {
  const config = resolveParseOptions(opts);
  const budget = createBudget(config.maxQuads, config.timeBudgetMs);
  const relabeller = new BlankNodeRelabeller(() => blankNodePrefix(baseIRI));
  const { count, problem, recovery } = await parseRdfInto(input, mediaType, baseIRI, config, budget, relabeller, target);
  return { count, error: problem, recovery: recovery.summary() };
}
