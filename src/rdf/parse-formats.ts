// **parseRdfText** parses one RDF text (Turtle family, RDF/XML, JSON-LD) with the right parser, strict or lenient.
import type { Quad } from '@rdfjs/types';
import { StreamParser } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { RdfscoutError } from '../errors.ts';
import { parseN3Lenient } from './lenient-n3.ts';
import { parseJsonLd, read, withoutBom } from './parse-jsonld.ts';
import type { ParseConfig } from './parse-options.ts';
import { prepareRdfXml, prepareWholeRdfXml } from './rdfxml-prepare.ts';
import { RecoveryLog } from './recovery-log.ts';
import { type BlankNodeRelabeller, type Budget, BudgetExceededError, type QuadTarget, runParserInto, runParserOnChunks, type StreamingParser, type TextInput, type TextSource } from './run-parser.ts';
import { TermGuard } from './term-guard.ts';
import { errorLine, TextWindow } from './text-window.ts';
import type { ParseProblem } from './types.ts';
import { parseN3Whole, takeWholeText } from './whole-text.ts';

/** Media types n3 parses (its format detection matches on these names). */
const N3_TYPES: ReadonlySet<string> = new Set(['text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig', 'text/n3']);

export interface TextParseResult {
  /** On error: what came before it. */
  quads: Quad[];
  problem: ParseProblem | null;
  /** The problem is the document's quad limit or time budget (fails a whole HTML page, not just a block). */
  budgetExceeded: boolean;
  /** What a lenient parse dropped or repaired (counts and first errors). */
  recovery: RecoveryLog;
}

/** The media types {@link parseRdfText} accepts. */
export function isParsableRdfType(mediaType: string): boolean {
  return N3_TYPES.has(mediaType) || mediaType === 'application/rdf+xml' || mediaType === 'application/ld+json';
}

/**
 * Parses `text` as `mediaType` against `baseIRI`, collecting the quads. Never rejects: failures come back as a
 * problem with a code (RDFSCOUT_PARSE_FAILED, or RDFSCOUT_REMOTE_CONTEXT when a JSON-LD context could not be had:
 * not shipped and no `config.remoteContexts`, or its fetch failed), a message saying why and, when known, the line.
 */
export async function parseRdfText(
  text: TextInput,
  mediaType: string,
  baseIRI: string,
  config: ParseConfig,
  budget: Budget,
  relabeller: BlankNodeRelabeller,
): Promise<TextParseResult> {
  const quads: Quad[] = [];
  const collect: QuadTarget = {
    add: (q) => quads.push(q),
    restart: async () => {
      quads.length = 0;
    },
  };
  const { problem, budgetExceeded, recovery } = await parseRdfInto(text, mediaType, baseIRI, config, budget, relabeller, collect);
  return { quads, problem, budgetExceeded, recovery };
}

/**
 * Parses `source` (the text, or its chunks as they are decoded) as `mediaType` and hands each quad to `target` as it
 * is parsed: no array of the document's quads and, for Turtle, N-Triples, N-Quads, TriG, N3, JSON-LD and RDF/XML
 * without DTD entities, no string of the whole text. RDF/XML whose prolog declares entities is
 * read whole first, as the entity guard counts references over the whole document before any parser sees it.
 * JSON-LD is parsed with the streaming profile when `source` can be read again and `target` can restart (see
 * {@link parseJsonLd}). `count` is the number of quads handed over (on error: before it). Never rejects.
 */
export async function parseRdfInto(
  source: TextSource,
  mediaType: string,
  baseIRI: string,
  config: ParseConfig,
  budget: Budget,
  relabeller: BlankNodeRelabeller,
  target: QuadTarget,
): Promise<{ count: number; problem: ParseProblem | null; budgetExceeded: boolean; recovery: RecoveryLog }> {
  const recovery = new RecoveryLog();
  const guard = new TermGuard(target, baseIRI, relabeller, recovery, config.strict);
  const result = await parseWith(source, mediaType, baseIRI, config, budget, relabeller, guard, recovery);
  if (result.problem === null && guard.failure !== null) {
    const problem: ParseProblem = { code: guard.failure.code, message: `Invalid ${mediaType}: ${guard.failure.message}` };
    return { count: result.count, problem, budgetExceeded: false, recovery };
  }
  return { ...result, recovery };
}

/** {@link parseRdfInto} without the term guard: the parser for `mediaType`, its outcome as a problem. */
async function parseWith(
  source: TextSource,
  mediaType: string,
  baseIRI: string,
  config: ParseConfig,
  budget: Budget,
  relabeller: BlankNodeRelabeller,
  target: QuadTarget,
  recovery: RecoveryLog,
): Promise<{ count: number; problem: ParseProblem | null; budgetExceeded: boolean }> {
  const window = new TextWindow();
  let run: { count: number; error: Error | null; refused?: string | null };
  if (N3_TYPES.has(mediaType) && !config.strict) {
    run = await parseN3Lenient(read(source), mediaType, baseIRI, relabeller, budget, target, recovery);
  } else if (N3_TYPES.has(mediaType)) {
    // A small text at hand whole: n3's synchronous parser, or the stream when it declines (see parseN3Whole).
    const taken = takeWholeText(read(source), config.wholeTextChars);
    const whole = taken.text === null ? null : await parseN3Whole(taken.text, mediaType, baseIRI, relabeller, budget, target);
    if (whole !== null) run = whole;
    else {
      const parser = new StreamParser({ format: mediaType, baseIRI }) as unknown as StreamingParser;
      run = await runParserInto(parser, window.track(withoutBom(taken.input)), relabeller, budget, target);
    }
  } else if (mediaType === 'application/rdf+xml') {
    // A small text at hand in one piece is checked and written at once, in the chunks it would have streamed in.
    const taken = takeWholeText(read(source), config.wholeTextChars);
    const whole = taken.text !== null && taken.pieces === 1 ? prepareWholeRdfXml(taken.text, config) : null;
    if (whole !== null && 'problem' in whole) return { count: 0, problem: whole.problem, budgetExceeded: false };
    // Lenient: IRIs the parser would refuse reach the term guard, which percent-encodes them (or drops the triple).
    const parser = new RdfXmlParser({ baseIRI, trackPosition: true, validateUri: config.strict }) as unknown as StreamingParser;
    if (whole !== null && 'chunks' in whole) {
      run = await runParserOnChunks(parser, whole.chunks.map((c) => window.record(c)), relabeller, budget, target);
    } else {
      const prepared = await prepareRdfXml(withoutBom(taken.input), config);
      if ('problem' in prepared) return { count: 0, problem: prepared.problem, budgetExceeded: false };
      run = await runParserInto(parser, window.track(prepared.chunks), relabeller, budget, target);
    }
  } else if (mediaType === 'application/ld+json') {
    run = await parseJsonLd(source, baseIRI, config, budget, relabeller, target, window);
  } else {
    const problem: ParseProblem = { code: 'RDFSCOUT_PARSE_FAILED', message: `rdfscout cannot parse RDF as ${mediaType}.` };
    return { count: 0, problem, budgetExceeded: false };
  }
  const { count, error } = run;
  if (error === null) return { count, problem: null, budgetExceeded: false };
  if (run.refused !== undefined && run.refused !== null) {
    return { count, problem: { code: 'RDFSCOUT_REMOTE_CONTEXT', message: run.refused }, budgetExceeded: false };
  }
  const problem: ParseProblem = {
    code: error instanceof RdfscoutError ? error.code : 'RDFSCOUT_PARSE_FAILED',
    message: `Invalid ${mediaType}: ${error.message}`,
  };
  const line = errorLine(error, window);
  if (line !== undefined) problem.line = line;
  return { count, problem, budgetExceeded: error instanceof BudgetExceededError };
}

