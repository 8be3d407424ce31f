// **parseRdfText** parses one RDF text (Turtle family, RDF/XML, JSON-LD) with the right streaming parser.
import type { Quad } from '@rdfjs/types';
import { JsonLdParser } from 'jsonld-streaming-parser';
import { StreamParser } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { RdfscoutError } from '../errors.ts';
import { LocalContextLoader } from './context-loader.ts';
import type { ParseConfig } from './parse-options.ts';
import { type BlankNodeRelabeller, type Budget, BudgetExceededError, runParser, type StreamingParser } from './run-parser.ts';
import type { ParseProblem } from './types.ts';
import { RDF_NS } from './sniff.ts';
import { checkXmlEntities, findRootElement } from './xml-entity-guard.ts';

/** Media types n3 parses (its format detection matches on these names). */
const N3_TYPES = new Set(['text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig', 'text/n3']);

export interface TextParseResult {
  /** On error: what came before it. */
  quads: Quad[];
  problem: ParseProblem | null;
  /** The problem is the document's quad limit or time budget (fails a whole HTML page, not just a block). */
  budgetExceeded: boolean;
}

/** The media types {@link parseRdfText} accepts. */
export function isParsableRdfType(mediaType: string): boolean {
  return N3_TYPES.has(mediaType) || mediaType === 'application/rdf+xml' || mediaType === 'application/ld+json';
}

/**
 * Parses `text` as `mediaType` against `baseIRI`. Never rejects: failures come back as a problem with a code
 * (RDFSCOUT_PARSE_FAILED, or RDFSCOUT_REMOTE_CONTEXT when a JSON-LD context would have had to be fetched), a
 * message and, when known, the line.
 */
export async function parseRdfText(
  text: string,
  mediaType: string,
  baseIRI: string,
  config: ParseConfig,
  budget: Budget,
  relabeller: BlankNodeRelabeller,
): Promise<TextParseResult> {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let parser: StreamingParser;
  let loader: LocalContextLoader | null = null;
  if (N3_TYPES.has(mediaType)) {
    parser = new StreamParser({ format: mediaType, baseIRI }) as unknown as StreamingParser;
  } else if (mediaType === 'application/rdf+xml') {
    const refused = checkXmlEntities(input, config.maxEntityExpansion);
    if (refused !== null) return { quads: [], problem: refused, budgetExceeded: false };
    parser = new RdfXmlParser({ baseIRI, trackPosition: true }) as unknown as StreamingParser;
    return finishRun(parser, wrapNodeElementRoot(input), input, mediaType, relabeller, budget, null);
  } else if (mediaType === 'application/ld+json') {
    loader = new LocalContextLoader(config.contexts);
    parser = new JsonLdParser({ baseIRI, documentLoader: loader }) as unknown as StreamingParser;
  } else {
    const problem: ParseProblem = { code: 'RDFSCOUT_PARSE_FAILED', message: `rdfscout cannot parse RDF as ${mediaType}.` };
    return { quads: [], problem, budgetExceeded: false };
  }
  return finishRun(parser, input, input, mediaType, relabeller, budget, loader);
}

async function finishRun(
  parser: StreamingParser,
  fed: string,
  input: string,
  mediaType: string,
  relabeller: BlankNodeRelabeller,
  budget: Budget,
  loader: LocalContextLoader | null,
): Promise<TextParseResult> {
  const { quads, error } = await runParser(parser, fed, relabeller, budget);
  if (error === null) return { quads, problem: null, budgetExceeded: false };
  if (loader !== null && loader.refused.length > 0) {
    const problem: ParseProblem = {
      code: 'RDFSCOUT_REMOTE_CONTEXT',
      message: `The JSON-LD document uses the remote context ${loader.refused[0]}, which rdfscout does not ship and never fetches.`,
    };
    return { quads, problem, budgetExceeded: false };
  }
  const problem: ParseProblem = {
    code: error instanceof RdfscoutError ? error.code : 'RDFSCOUT_PARSE_FAILED',
    message: `Invalid ${mediaType}: ${error.message}`,
  };
  const line = errorLine(error, input);
  if (line !== undefined) problem.line = line;
  return { quads, problem, budgetExceeded: error instanceof BudgetExceededError };
}

/**
 * RDF/XML may have a single node element as root instead of `rdf:RDF` (RDF 1.1 XML Syntax §2.7), but
 * rdfxml-streaming-parser ignores the rdf:about of a root node element. Such a root gets an `rdf:RDF` wrapper,
 * inserted on the root's own line so that error lines stay right.
 */
function wrapNodeElementRoot(text: string): string {
  const root = findRootElement(text);
  if (root < 0 || /^<(?:[\w.-]+:)?RDF[\s>/]/.test(text.slice(root, root + 64))) return text;
  if (!text.slice(root, root + 8192).includes(RDF_NS)) return text;
  return `${text.slice(0, root)}<rdf:RDF xmlns:rdf="${RDF_NS}">${text.slice(root)}</rdf:RDF>`;
}

/** The line of a parser error: n3 gives it in `context.line`, saxes as `L:C:` or `Line L`, JSON as `position N`. */
export function errorLine(error: Error, text: string): number | undefined {
  const context = (error as { context?: { line?: unknown } }).context;
  if (typeof context?.line === 'number') return context.line;
  const m = /^(\d+):\d+:|\bline:? (\d+)/i.exec(error.message);
  if (m !== null) return Number(m[1] ?? m[2]);
  const pos = /\bposition (\d+)/i.exec(error.message);
  if (pos !== null) {
    const end = Math.min(text.length, Number(pos[1]));
    let line = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) line++;
    return line;
  }
  return undefined;
}
