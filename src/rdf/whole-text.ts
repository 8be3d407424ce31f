// **Whole small texts** are parsed in one synchronous call instead of through the streaming driver (issue 18).
//
// Most RDF documents a focused crawl fetches are small (a FOAF profile, a DBTune track: a few kB), and driving a
// streaming parser over one of them cost more than parsing it: a Turtle file of 8 triples took 0.38 ms of CPU through
// the chunked driver against 0.11 ms in n3's synchronous `Parser`. A text that is at hand whole and small is
// therefore parsed at once; everything observable stays as the streaming path gives it (the quads in the same order,
// blank nodes through the same relabeller, the quad limit cutting at the same quad, the CPU budget counted), and any
// text the synchronous parse cannot take exactly is handed back to the streaming path (see `parseN3Whole`).
import type { Quad } from '@rdfjs/types';
import { Parser } from 'n3';
import { type BlankNodeRelabeller, type Budget, cpuBudgetExceeded, type QuadTarget, quadLimitExceeded, type TextInput } from './run-parser.ts';

/**
 * Characters of the largest text parsed whole by default: one chunk of the streaming path (`CHUNK_CHARS`), so a text
 * that is parsed whole would have been written to its parser in one piece anyway.
 */
export const WHOLE_TEXT_CHARS = 64 * 1024;

/**
 * The whole of `input` as one string when it is at hand (a string, or a synchronous iterable such as a body decoded
 * slice by slice) and at most `limit` characters long; else `{ rest }`, which reads exactly what `input` would have
 * (the slices looked at first, then the others). An asynchronous iterable is never read here. A `limit` of 0 never
 * takes a text whole.
 */
export function takeWholeText(input: TextInput, limit: number): string | { rest: TextInput } {
  if (typeof input === 'string') return input.length <= limit && limit > 0 ? input : { rest: input };
  if (limit <= 0 || !(Symbol.iterator in input)) return { rest: input };
  const it = input[Symbol.iterator]();
  const seen: string[] = [];
  let length = 0;
  for (;;) {
    const next = it.next();
    if (next.done === true) return seen.length === 1 ? (seen[0] as string) : seen.join('');
    seen.push(next.value);
    length += next.value.length;
    if (length > limit) break;
  }
  const rest = function* (): Generator<string> {
    yield* seen;
    for (let next = it.next(); next.done !== true; next = it.next()) yield next.value;
  };
  return { rest: rest() };
}

/**
 * Parses a whole Turtle, N-Triples, N-Quads, TriG or N3 text (`format`: its media type) with n3's synchronous
 * `Parser` and hands the quads to `target` as `runParserInto` would hand those of n3's `StreamParser` (the same
 * parser under a stream): in order, relabelled, one budget quad each, failing with the quad-limit error on the
 * first quad past the limit and with the CPU-budget error when the parse (timed by the budget's clock, as one chunk
 * is) passed the budget; then it waits for `target.drained()`.
 *
 * Returns null, having handed nothing to `target` and touched neither the relabeller nor the quad budget, when the
 * text is better streamed: when it is not valid (n3 throws on the first error and drops the quads before it, which
 * the streaming path hands over as the partial output, and reports the error exactly as before) or holds a lone
 * surrogate (written to the stream, it is encoded as UTF-8 and comes back as U+FFFD). A leading byte-order mark is
 * dropped, as the streaming path drops it. The CPU time of an attempt that returns null still counts in the budget.
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
  let quads: Quad[];
  try {
    quads = new Parser({ format, baseIRI }).parse(body);
  } catch {
    budget.cpuMs += budget.clock() - t0;
    return null;
  }
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
  budget.cpuMs += budget.clock() - t0;
  if (error === null && budget.cpuMs > budget.timeBudgetMs) error = cpuBudgetExceeded(budget);
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
