// **Whole small texts** are parsed in one synchronous call instead of through the streaming driver.
//
// Most RDF documents a focused crawl fetches are small (a FOAF profile, a DBTune track: a few kB), and driving a
// streaming parser over one of them cost more than parsing it: a Turtle file of 8 triples took 0.38 ms of CPU through
// the chunked driver against 0.11 ms in n3's synchronous `Parser`. A text that is at hand whole and small is
// therefore parsed at once; everything observable stays as the streaming path gives it (the quads in the same order,
// blank nodes through the same relabeller, the quad limit cutting at the same quad, the CPU budget counted), and any
// text the synchronous parse cannot take exactly is handed back to the streaming path (see `parseN3Whole`).
import type { Quad } from '@rdfjs/types';
import { Parser } from 'n3';
import { type BlankNodeRelabeller, type Budget, CHUNK_CHARS, type QuadTarget, quadLimitExceeded, type TextInput } from './run-parser.ts';

/**
 * Characters of the largest text parsed whole by default, and at most: one chunk of the streaming path
 * (`CHUNK_CHARS`), so a text parsed whole (and its quads, for the Turtle family) is never larger than a chunk and
 * holds no more memory than streaming it would.
 */
export const WHOLE_TEXT_CHARS = CHUNK_CHARS;

/** A text read ahead by {@link takeWholeText}. */
export interface TakenText {
  /** The whole text, when it was at hand and short enough; else null. */
  text: string | null;
  /** How many pieces the text came in (1 for a string). */
  pieces: number;
  /** What reads exactly what the original input would have (the pieces looked at, then the others). */
  input: TextInput;
}

/**
 * Reads `input` ahead when it is at hand (a string, or a synchronous iterable such as a body decoded slice by slice)
 * and, if it is at most `limit` characters long, gives its whole text. An asynchronous iterable is never read here.
 * A `limit` of 0 never takes a text whole.
 */
export function takeWholeText(input: TextInput, limit: number): TakenText {
  if (typeof input === 'string') return { text: input.length <= limit && limit > 0 ? input : null, pieces: 1, input };
  if (limit <= 0 || !(Symbol.iterator in input)) return { text: null, pieces: 0, input };
  const it = input[Symbol.iterator]();
  const seen: string[] = [];
  let length = 0;
  for (;;) {
    const next = it.next();
    if (next.done === true) return { text: seen.length === 1 ? (seen[0] as string) : seen.join(''), pieces: seen.length, input: seen };
    seen.push(next.value);
    length += next.value.length;
    if (length > limit) break;
  }
  const rest = function* (): Generator<string> {
    yield* seen;
    for (let next = it.next(); next.done !== true; next = it.next()) yield next.value;
  };
  return { text: null, pieces: seen.length, input: rest() };
}

/**
 * Parses a whole Turtle, N-Triples, N-Quads, TriG or N3 text (`format`: its media type) with n3's synchronous
 * `Parser` and hands the quads to `target` as `runParserInto` hands those of n3's `StreamParser` (the same parser
 * under a stream): in order, relabelled, one budget quad each, failing with the quad-limit error on the first quad
 * past the limit; then it waits for `target.drained()`. The parse is timed by the budget's clock (the hand-over too,
 * as a chunk's write includes it).
 *
 * Returns null, having handed nothing to `target` and touched neither the relabeller nor the quad budget, when the
 * text is to be streamed instead, which then gives exactly what it always gave:
 * - the text is not valid: n3's `parse` throws on the first error and drops the quads before it, which the stream
 *   hands over as the partial output, and the stream reports the error as before;
 * - it holds a lone surrogate (written to the stream, it is encoded as UTF-8 and comes back as U+FFFD);
 * - the parse passed the CPU budget: the stream fails too (the budget only grows), after the quads it emits before
 *   its first check, which may be fewer than all (n3 emits the last statement of a chunk only at the end).
 * The CPU time of an attempt that returns null still counts in the budget. A leading byte-order mark is dropped, as
 * the streaming path drops it.
 */
export async function parseN3Whole(
  text: string,
  format: string,
  baseIRI: string,
  relabeller: BlankNodeRelabeller,
  budget: Budget,
  target: QuadTarget,
): Promise<{ count: number; error: Error | null } | null> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body === '') return { count: 0, error: null }; // the stream is never written to and ends with nothing
  if (!isWellFormed(body)) return null;
  const t0 = budget.clock();
  let quads: Quad[] | null;
  try {
    quads = new Parser({ format, baseIRI }).parse(body);
  } catch {
    quads = null; // the stream reports it, after the quads before it
  }
  const t1 = budget.clock();
  budget.cpuMs += t1 - t0;
  if (quads === null || budget.cpuMs > budget.timeBudgetMs) return null;
  let count = 0;
  let error: Error | null = null;
  for (const q of quads) {
    if (budget.quadsLeft <= 0) {
      error = quadLimitExceeded(budget);
      break;
    }
    budget.quadsLeft--;
    count++;
    target.add(relabeller.relabel(q));
  }
  budget.cpuMs += budget.clock() - t1;
  if (error !== null) return { count, error };
  try {
    await target.drained?.();
  } catch (err) {
    return { count, error: err instanceof Error ? err : new Error(String(err)) };
  }
  return { count, error: null };
}
/** No lone surrogate in `text` (`String.prototype.isWellFormed`, ES2024, which the ES2023 lib does not declare). */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
