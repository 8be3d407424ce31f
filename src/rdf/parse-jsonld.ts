// **parseJsonLd** parses a JSON-LD text: the fast converter for small common documents, else the streaming parser.
import { JsonLdParser } from 'jsonld-streaming-parser';
import { LocalContextLoader, waitingOn } from './context-loader.ts';
import { convertJsonLd, FAST_JSONLD_MAX_CHARS } from './jsonld-fast.ts';
import { nameRootGraph, releaseReadNodes, RootGraphTarget } from './jsonld-streaming.ts';
import type { ParseConfig } from './parse-options.ts';
import { type BlankNodeRelabeller, type Budget, BudgetExceededError, type QuadTarget, runParserInto, type StreamingParser, type TextInput, type TextSource } from './run-parser.ts';
import type { TextWindow } from './text-window.ts';

/**
 * Characters of JSON-LD written to the parser at once. jsonld-streaming-parser queues a job for every value of a
 * chunk before it runs any, so a large chunk keeps thousands of them alive long enough to reach V8's old generation:
 * 64k-character chunks added 13.8 MB of RSS parsing a 1 MB document alone, 4k ones 7.5 MB, 1k ones 5.2 MB; in a crawl
 * (bench:memory, 3 runs each) 4k gave 21x the document's size, 1k 17x, at the same CPU time within noise (the
 * CLI's V8 flags, the loaded machine).
 */
const JSONLD_CHUNK_CHARS = 1024;

/** jsonld-context-parser's codes of the errors a streamed parse may hit where a buffered one would not. */
const STREAMING_KEY_ORDER = 'invalid streaming key order';
const COLLIDING_KEYWORDS = 'colliding keywords';

/**
 * JSON-LD, streamed when it can be. Without the streaming profile jsonld-streaming-parser holds
 * every value of the top-level object until it ends (an `@context` may come last), and even with it the quads of a
 * top-level `@graph` (which an `@id` further on would name): 30x the document's size. So the document is first
 * parsed with the profile (a plain `@type` may come anywhere) and its top-level `@graph` named ({@link nameRootGraph}),
 * which makes quads come out as the text is read. A document that this does not fit (keys out of the profile's
 * order: `@context` after other keys, a type-scoped `@type` after properties; the top-level object with an `@id` or
 * properties besides its `@graph`) fails or shows it; the target then forgets what it received (`restart`: nothing
 * of the first pass is kept), blank-node labels and the quad budget start over (the CPU time budget does not), and
 * the document is parsed again as it was before, buffered. A source that can be read once only, or a target that
 * cannot restart, is parsed buffered at once. Before all this, a small document (≤ 64 kB) of the common subset is
 * converted at once by {@link convertJsonLd} (~2 ms of CPU less per schema.org block); it
 * declines anything else, which then goes the way described here.
 */
export async function parseJsonLd(
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
 * The fast path of small JSON-LD: {@link convertJsonLd} on the whole text when `source` is a
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

/** A fresh reading of `source`. */
export function read(source: TextSource): TextInput {
  return typeof source === 'function' ? source() : source;
}

/** The input as chunks, a leading byte-order mark dropped. */
export async function* withoutBom(input: TextInput): AsyncGenerator<string> {
  let first = true;
  for await (const chunk of typeof input === 'string' ? [input] : input) {
    if (first && chunk === '') continue;
    yield first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
    first = false;
  }
}
