// **parseRdfText** parses one RDF text (Turtle family, RDF/XML, JSON-LD) with the right streaming parser.
import type { Quad } from '@rdfjs/types';
import { JsonLdParser } from 'jsonld-streaming-parser';
import { StreamParser } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { RdfscoutError } from '../errors.ts';
import { LocalContextLoader, waitingOn } from './context-loader.ts';
import { convertJsonLd, FAST_JSONLD_MAX_CHARS } from './jsonld-fast.ts';
import { nameRootGraph, releaseReadNodes, RootGraphTarget } from './jsonld-streaming.ts';
import type { ParseConfig } from './parse-options.ts';
import { type BlankNodeRelabeller, type Budget, BudgetExceededError, CHUNK_CHARS, type QuadTarget, runParserInto, runParserOnChunks, type StreamingParser, type TextInput, type TextSource } from './run-parser.ts';
import type { ParseProblem } from './types.ts';
import { RDF_NS } from './sniff.ts';
import { parseN3Whole, takeWholeText } from './whole-text.ts';
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
  const { problem, budgetExceeded } = await parseRdfInto(text, mediaType, baseIRI, config, budget, relabeller, collect);
  return { quads, problem, budgetExceeded };
}

/**
 * Parses `source` (the text, or its chunks as they are decoded) as `mediaType` and hands each quad to `target` as it
 * is parsed: no array of the document's quads and, for Turtle, N-Triples, N-Quads, TriG, N3, JSON-LD and RDF/XML
 * without DTD entities, no string of the whole text (issue 16 item 14). RDF/XML whose prolog declares entities is
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
): Promise<{ count: number; problem: ParseProblem | null; budgetExceeded: boolean }> {
  const window = new TextWindow();
  let run: { count: number; error: Error | null; refused?: string | null };
  if (N3_TYPES.has(mediaType)) {
    // A small text at hand whole: n3's synchronous parser (issue 18), or the stream when it declines (see parseN3Whole).
    const taken = takeWholeText(read(source), config.wholeTextChars);
    const whole = taken.text === null ? null : await parseN3Whole(taken.text, mediaType, baseIRI, relabeller, budget, target);
    if (whole !== null) run = whole;
    else {
      const parser = new StreamParser({ format: mediaType, baseIRI }) as unknown as StreamingParser;
      run = await runParserInto(parser, window.track(withoutBom(taken.input)), relabeller, budget, target);
    }
  } else if (mediaType === 'application/rdf+xml') {
    // A small text at hand in one piece is checked and written at once (issue 18), in the chunks it would have streamed in.
    const taken = takeWholeText(read(source), config.wholeTextChars);
    const whole = taken.text !== null && taken.pieces === 1 ? prepareWholeRdfXml(taken.text, config) : null;
    if (whole !== null && 'problem' in whole) return { count: 0, problem: whole.problem, budgetExceeded: false };
    const parser = new RdfXmlParser({ baseIRI, trackPosition: true }) as unknown as StreamingParser;
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

/** A fresh reading of `source`. */
function read(source: TextSource): TextInput {
  return typeof source === 'function' ? source() : source;
}

/**
 * Characters of JSON-LD written to the parser at once. jsonld-streaming-parser queues a job for every value of a
 * chunk before it runs any, so a large chunk keeps thousands of them alive long enough to reach V8's old generation:
 * 64k-character chunks added 13.8 MB of RSS parsing a 1 MB document alone, 4k ones 7.5 MB, 1k ones 5.2 MB; in a crawl
 * (bench:memory, 3 runs each) 4k gave 21x the document's size, 1k 17x, at the same CPU time within noise (issue 16
 * item 14; the CLI's V8 flags, the loaded machine).
 */
const JSONLD_CHUNK_CHARS = 1024;

/** jsonld-context-parser's codes of the errors a streamed parse may hit where a buffered one would not. */
const STREAMING_KEY_ORDER = 'invalid streaming key order';
const COLLIDING_KEYWORDS = 'colliding keywords';

/**
 * JSON-LD, streamed when it can be (issue 16 item 14). Without the streaming profile jsonld-streaming-parser holds
 * every value of the top-level object until it ends (an `@context` may come last), and even with it the quads of a
 * top-level `@graph` (which an `@id` further on would name): 30x the document's size. So the document is first
 * parsed with the profile (a plain `@type` may come anywhere) and its top-level `@graph` named ({@link nameRootGraph}),
 * which makes quads come out as the text is read. A document that this does not fit (keys out of the profile's
 * order: `@context` after other keys, a type-scoped `@type` after properties; the top-level object with an `@id` or
 * properties besides its `@graph`) fails or shows it; the target then forgets what it received (`restart`: nothing
 * of the first pass is kept), blank-node labels and the quad budget start over (the CPU time budget does not), and
 * the document is parsed again as it was before, buffered. A source that can be read once only, or a target that
 * cannot restart, is parsed buffered at once. Before all this, a small document (≤ 64 kB) of the common subset is
 * converted at once by {@link convertJsonLd} (issue 18, session 9: ~2 ms of CPU less per schema.org block); it
 * declines anything else, which then goes the way described here.
 */
async function parseJsonLd(
  source: TextSource,
  baseIRI: string,
  config: ParseConfig,
  budget: Budget,
  relabeller: BlankNodeRelabeller,
  target: QuadTarget,
  window: TextWindow,
): Promise<{ count: number; error: Error | null; refused: string | null }> {
  if (config.jsonLdFastPath) {
    const fast = await parseJsonLdFast(source, baseIRI, config, budget, relabeller, target);
    if (fast !== null) return fast;
  }
  const attempt = async (streamingProfile: boolean) => {
    window.reset();
    const loader = new LocalContextLoader(config.contexts, config.remoteContexts && waitingOn(config.remoteContexts, budget));
    const context = config.jsonLdContext ?? undefined; // JSON-LD 1.1 API §9.4: the Link header's context comes first
    const parser = new JsonLdParser({ baseIRI, documentLoader: loader, streamingProfile, streamingProfileAllowOutOfOrderPlainType: true, ...(context ? { context } : {}) });
    if (streamingProfile) releaseReadNodes(parser);
    const text = withoutBom(read(source));
    const into = streamingProfile ? new RootGraphTarget(target) : target;
    const run = await runParserInto(parser as unknown as StreamingParser, window.track(streamingProfile ? nameRootGraph(text) : text), relabeller, budget, into, JSONLD_CHUNK_CHARS);
    return { ...run, refused: loader.problemMessage(), diverged: into instanceof RootGraphTarget && into.diverged };
  };
  const rereadable = typeof source === 'string' || typeof source === 'function';
  if (!rereadable || target.restart === undefined) return attempt(false);
  const streamed = await attempt(true);
  const code = (streamed.error as { code?: unknown } | null)?.code;
  if (!streamed.diverged && code !== STREAMING_KEY_ORDER && code !== COLLIDING_KEYWORDS) return streamed;
  await target.restart();
  relabeller.reset();
  budget.quadsLeft += streamed.count;
  return attempt(false);
}

/**
 * The fast path of small JSON-LD (issue 18, session 9): {@link convertJsonLd} on the whole text when `source` is a
 * string or a reading of at most {@link FAST_JSONLD_MAX_CHARS} characters (a one-shot iterable is left to the
 * streaming parser, which must read it). Null when it declines (the caller parses the document as before); else
 * the quads are handed over under the same budget as a parser run's (run-parser.ts `runParserInto`: the quad limit,
 * then the CPU time, with its messages).
 */
async function parseJsonLdFast(
  source: TextSource,
  baseIRI: string,
  config: ParseConfig,
  budget: Budget,
  relabeller: BlankNodeRelabeller,
  target: QuadTarget,
): Promise<{ count: number; error: Error | null; refused: string | null } | null> {
  let text: string | null;
  try {
    text = await readSmall(source);
  } catch {
    return null; // a reading that fails (a body that cannot be decoded) fails the streaming parser's reading too, with its error
  }
  if (text === null) return null;
  const t0 = budget.clock();
  const quads = convertJsonLd(text, baseIRI, config);
  budget.cpuMs += budget.clock() - t0;
  if (quads === null) return null;
  let count = 0;
  let error: Error | null = null;
  for (const q of quads) {
    if (budget.quadsLeft <= 0) {
      error = new BudgetExceededError(`The document has more than ${budget.maxQuads} quads (the per-document limit); none is kept.`);
      break;
    }
    budget.quadsLeft--;
    count++;
    target.add(relabeller.relabel(q));
  }
  if (error === null && budget.cpuMs > budget.timeBudgetMs) {
    error = new BudgetExceededError(`Parsing took more than ${budget.timeBudgetMs} ms of CPU time (the per-document budget); none is kept.`);
  }
  if (error === null && target.drained !== undefined) await target.drained();
  return { count, error, refused: null };
}

/** The whole text of `source` if it is a string, or a re-readable source of at most {@link FAST_JSONLD_MAX_CHARS} characters. */
async function readSmall(source: TextSource): Promise<string | null> {
  if (typeof source === 'string') return source.length <= FAST_JSONLD_MAX_CHARS ? source : null;
  if (typeof source !== 'function') return null;
  const input = source();
  if (typeof input === 'string') return input.length <= FAST_JSONLD_MAX_CHARS ? input : null;
  let text = '';
  for await (const chunk of input) {
    text += chunk;
    if (text.length > FAST_JSONLD_MAX_CHARS) return null;
  }
  return text;
}

/** The input as chunks, a leading byte-order mark dropped. */
async function* withoutBom(input: TextInput): AsyncGenerator<string> {
  let first = true;
  for await (const chunk of typeof input === 'string' ? [input] : input) {
    if (first && chunk === '') continue;
    yield first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
    first = false;
  }
}

/** Characters of an RDF/XML document read before deciding how to feed it: its prolog and the root's start. */
const XML_HEAD_CHARS = 16 * 1024;

/**
 * RDF/XML, checked and fed as a stream: the prolog is read first; a DTD that declares entities is checked by the
 * entity guard on the whole text (refused, or fed whole); a root that is a single node element is wrapped.
 */
async function prepareRdfXml(input: AsyncIterable<string>, config: ParseConfig): Promise<{ chunks: AsyncIterable<string> } | { problem: ParseProblem }> {
  const it = input[Symbol.asyncIterator]();
  let head = '';
  let ended = false;
  for (;;) {
    const root = findRootElement(head);
    if (root >= 0 && head.length >= root + XML_HEAD_CHARS) break;
    const next = await it.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    head += next.value;
  }
  const rest = async function* (): AsyncGenerator<string> {
    if (ended) return;
    for (let next = await it.next(); next.done !== true; next = await it.next()) yield next.value;
  };
  if (declaresEntities(head)) {
    let text = head;
    for await (const chunk of rest()) text += chunk;
    const refused = checkXmlEntities(text, config.maxEntityExpansion);
    if (refused !== null) return { problem: refused };
    return { chunks: (async function* () { yield wrapNodeElementRoot(text); })() };
  }
  const refused = checkXmlEntities(head, config.maxEntityExpansion); // parameter and external entities, if cut off
  if (refused !== null) return { problem: refused };
  const wrapped = wrapNodeElementRoot(head);
  const closing = wrapped === head ? '' : ROOT_WRAPPER_END;
  return {
    chunks: (async function* () {
      yield wrapped.slice(0, wrapped.length - closing.length);
      yield* rest();
      if (closing !== '') yield closing;
    })(),
  };
}

/** Whether the prolog of `head` declares entities (then the whole document is checked and fed as one piece). */
function declaresEntities(head: string): boolean {
  return /<!ENTITY/i.test(head.slice(0, Math.max(0, findRootElement(head)) || head.length));
}

/**
 * {@link prepareRdfXml} for a whole text that came in one piece, a leading byte-order mark dropped: refused by the
 * entity guard, or the chunks that {@link prepareRdfXml} would give (its head is then the whole text). Null when
 * a chunk would be longer than one streamed chunk (it would be split; the caller streams the text instead).
 */
function prepareWholeRdfXml(whole: string, config: ParseConfig): { chunks: string[] } | { problem: ParseProblem } | null {
  const text = whole.charCodeAt(0) === 0xfeff ? whole.slice(1) : whole;
  const refused = checkXmlEntities(text, config.maxEntityExpansion);
  if (refused !== null) return { problem: refused };
  const wrapped = wrapNodeElementRoot(text);
  const closing = wrapped === text || declaresEntities(text) ? '' : ROOT_WRAPPER_END;
  const chunks = closing === '' ? [wrapped] : [wrapped.slice(0, wrapped.length - closing.length), closing];
  return chunks[0]!.length <= CHUNK_CHARS ? { chunks } : null;
}

const ROOT_WRAPPER_END = '</rdf:RDF>';

/**
 * RDF/XML may have a single node element as root instead of `rdf:RDF` (RDF 1.1 XML Syntax §2.7), but
 * rdfxml-streaming-parser ignores the rdf:about of a root node element. Such a root gets an `rdf:RDF` wrapper,
 * inserted on the root's own line so that error lines stay right.
 */
function wrapNodeElementRoot(text: string): string {
  const root = findRootElement(text);
  if (root < 0 || /^<(?:[\w.-]+:)?RDF[\s>/]/.test(text.slice(root, root + 64))) return text;
  if (!text.slice(root, root + 8192).includes(RDF_NS)) return text;
  return `${text.slice(0, root)}<rdf:RDF xmlns:rdf="${RDF_NS}">${text.slice(root)}${ROOT_WRAPPER_END}`;
}

/** Chunks kept by a {@link TextWindow} to place an error's character position on a line. */
const WINDOW_CHUNKS = 4;

/** Remembers where the last chunks fed to a parser start (character offset and line), to turn a position into a line. */
class TextWindow {
  readonly #recent: Array<{ start: number; line: number; text: string }> = [];
  #offset = 0;
  #line = 1;

  /** Forgets the chunks: the text is read again from its start. */
  reset(): void {
    this.#recent.length = 0;
    this.#offset = 0;
    this.#line = 1;
  }

  async *track(input: AsyncIterable<string>): AsyncGenerator<string> {
    for await (const text of input) yield this.record(text);
  }

  /** Remembers `text` as the next chunk fed to the parser; returns it. */
  record(text: string): string {
    this.#recent.push({ start: this.#offset, line: this.#line, text });
    if (this.#recent.length > WINDOW_CHUNKS) this.#recent.shift();
    this.#offset += text.length;
    this.#line += countNewlines(text, text.length);
    return text;
  }

  /** The line of character `position`, if it lies in a chunk still remembered (else the earliest remembered line). */
  lineAt(position: number): number | undefined {
    const chunk = this.#recent.findLast((c) => c.start <= position) ?? this.#recent[0];
    if (chunk === undefined) return undefined;
    return chunk.line + countNewlines(chunk.text, Math.max(0, position - chunk.start));
  }
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The line of a parser error: n3 gives it in `context.line`, saxes as `L:C:` or `Line L`, JSON as `position N`. */
function errorLine(error: Error, window: TextWindow): number | undefined {
  const context = (error as { context?: { line?: unknown } }).context;
  if (typeof context?.line === 'number') return context.line;
  const m = /^(\d+):\d+:|\bline:? (\d+)/i.exec(error.message);
  if (m !== null) return Number(m[1] ?? m[2]);
  const pos = /\bposition (\d+)/i.exec(error.message);
  if (pos !== null) return window.lineAt(Number(pos[1]));
  return undefined;
}
