// **parseN3Lenient** reads Turtle, TriG, N-Triples, N-Quads and N3 losing a statement, not the document.
//
// The text is cut at statement boundaries into chunks of about `CHUNK_CHARS` (StatementScanner, which also
// percent-encodes characters illegal in an IRI, as rdflib and Jena's lenient mode read them). Each chunk goes to n3's
// synchronous parser at once, after a one-line preamble that declares the prefixes and base in force. When a chunk
// fails, the statements before the error's line are parsed again as one piece, those on its line one by one (a
// failing one is dropped and logged with its line), and the rest of the chunk as before: each character is parsed at
// most about three times, so a document with many bad statements stays linear.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Quad } from '@rdfjs/types';
import { Parser } from 'n3';
import type { RecoveryLog } from './recovery-log.ts';
import {
  type BlankNodeRelabeller,
  type Budget,
  CHUNK_CHARS,
  cpuBudgetExceeded,
  pieces,
  type QuadTarget,
  quadLimitExceeded,
  type TextInput,
} from './run-parser.ts';
import { type Chunk, type ScanMode, StatementScanner } from './statement-scanner.ts';

/** The grammar's boundaries for a media type n3 parses. */
function scanModeOf(format: string): ScanMode {
  if (format === 'application/trig') return 'trig';
  if (format === 'text/n3') return 'n3';
  if (format === 'application/n-triples' || format === 'application/n-quads') return 'line';
  return 'turtle';
}

/** The prefixes and base in force after the statements parsed so far. */
interface Context {
  readonly format: string;
  base: string;
  prefixes: Record<string, string>;
  /** `@prefix` directives for them, on one line. */
  preamble: string;
}

/** n3's parser state read after a parse: the prefixes declared and the base (not part of its typed API). */
interface ParserState {
  _prefixes: Record<string, string>;
  _base: string;
}

type Outcome = { ok: true; quads: Quad[]; prefixes: Record<string, string>; base: string } | { ok: false; error: Error; line: number | undefined };

/**
 * Parses `input` (text of `format`) leniently and hands each quad, relabelled, to `target` under `budget` (the quad
 * limit and the CPU time, as `runParserInto`; both still fail the whole document). Statements that fail are logged
 * in `log` and left out; IRIs repaired are counted there. `chunkChars`: the size chunks are cut at (tests make it
 * small). Never rejects: a budget or target error is returned.
 */
export async function parseN3Lenient(
  input: TextInput,
  format: string,
  baseIRI: string,
  relabeller: BlankNodeRelabeller,
  budget: Budget,
  target: QuadTarget,
  log: RecoveryLog,
  chunkChars = CHUNK_CHARS,
): Promise<{ count: number; error: Error | null }> {
  const scanner = new StatementScanner(scanModeOf(format));
  const ctx: Context = { format, base: baseIRI, prefixes: {}, preamble: '' };
  let count = 0;
  const commit = (quads: readonly Quad[]): Error | null => {
    for (const q of quads) {
      if (budget.quadsLeft <= 0) return quadLimitExceeded(budget);
      budget.quadsLeft--;
      count++;
      target.add(relabeller.relabel(q));
    }
    return null;
  };
  const handle = async (chunk: Chunk): Promise<Error | null> => {
    log.repair(chunk.repairedIris);
    const t0 = budget.clock();
    const error = parseChunk(chunk, ctx, commit, log);
    budget.cpuMs += budget.clock() - t0;
    if (error !== null) return error;
    if (budget.cpuMs > budget.timeBudgetMs) return cpuBudgetExceeded(budget);
    await target.drained?.();
    return null;
  };
  try {
    let first = true;
    for await (const piece of pieces(input, chunkChars)) {
      const t0 = budget.clock();
      scanner.push(wellFormed(first && piece.charCodeAt(0) === 0xfeff ? piece.slice(1) : piece));
      budget.cpuMs += budget.clock() - t0;
      first = false;
      for (let c = scanner.take(chunkChars); c !== null; c = scanner.take(chunkChars)) {
        const error = await handle(c);
        if (error !== null) return { count, error };
        await yieldToLoop();
      }
    }
    scanner.end();
    for (let c = scanner.take(0); c !== null; c = scanner.take(0)) {
      const error = await handle(c);
      if (error !== null) return { count, error };
    }
  } catch (err) {
    return { count, error: err instanceof Error ? err : new Error(String(err)) };
  }
  return { count, error: null };
}

/** Parses one chunk, recovering statement by statement around each error; returns a budget error, else null. */
function parseChunk(chunk: Chunk, ctx: Context, commit: (quads: readonly Quad[]) => Error | null, log: RecoveryLog): Error | null {
  const stmts = chunk.statements;
  let lineStarts: number[] | null = null;
  const lineOf = (offset: number): number => {
    lineStarts ??= newlineOffsets(chunk.text);
    let lo = 0;
    let hi = lineStarts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lineStarts[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo; // newlines before `offset`: the 0-based line within the chunk
  };
  const accept = (r: Outcome & { ok: true }): Error | null => {
    adopt(ctx, r);
    return commit(r.quads);
  };
  /** Each statement of [a, b) alone: kept, or dropped and logged. */
  const oneByOne = (a: number, b: number): Error | null => {
    for (let j = a; j < b; j++) {
      const r = parseRange(chunk, j, j + 1, ctx);
      if (r.ok) {
        const e = accept(r);
        if (e !== null) return e;
      } else {
        const at = r.line === undefined ? lineOf(stmts[j]!.start) : lineOf(stmts[j]!.start) + r.line - 1;
        log.drop({ code: 'RDFSCOUT_PARSE_FAILED', message: withoutLine(r.error.message), line: chunk.line + at });
      }
    }
    return null;
  };
  let from = 0;
  while (from < stmts.length) {
    const r = parseRange(chunk, from, stmts.length, ctx);
    if (r.ok) return accept(r);
    // The statements that reach the error's line: [i, m]. Unknown line: the first one.
    const errLine = lineOf(stmts[from]!.start) + (r.line ?? 1) - 1;
    let i = from;
    while (i < stmts.length - 1 && lineOf(stmts[i]!.end - 1) < errLine) i++;
    let m = i;
    while (m < stmts.length - 1 && lineOf(stmts[m + 1]!.start) <= errLine) m++;
    if (i > from) {
      const before = parseRange(chunk, from, i, ctx);
      const e = before.ok ? accept(before) : oneByOne(from, i);
      if (e !== null) return e;
    }
    const e = oneByOne(i, m + 1);
    if (e !== null) return e;
    from = m + 1;
  }
  return null;
}

/** Parses statements [a, b) of `chunk` with the prefixes and base in force (a TriG block opened and closed around them). */
function parseRange(chunk: Chunk, a: number, b: number, ctx: Context): Outcome {
  const first = chunk.statements[a]!;
  const last = chunk.statements[b - 1]!;
  const open = first.graphBefore === null ? '' : `${first.graphBefore} `;
  const close = last.graphAfter === null ? '' : ' }';
  const text = `${ctx.preamble}${open}${chunk.text.slice(first.start, last.end)}${close}`;
  // Labelled blank nodes keep their label (prefixed `L`) across chunks; n3's own are `n3-<n>` and never meet them.
  const parser = new Parser({ format: ctx.format, baseIRI: ctx.base, blankNodePrefix: 'L' });
  try {
    const quads = parser.parse(text);
    const state = parser as unknown as ParserState;
    return { ok: true, quads, prefixes: state._prefixes, base: state._base };
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    const line = (error as { context?: { line?: unknown } }).context?.line;
    return { ok: false, error, line: typeof line === 'number' ? line : undefined };
  }
}

/** Takes the prefixes and base a successful parse ended with as the context of the next one. */
function adopt(ctx: Context, r: { prefixes: Record<string, string>; base: string }): void {
  ctx.base = r.base === '' ? ctx.base : r.base;
  let changed = false;
  for (const [p, iri] of Object.entries(r.prefixes)) {
    if (p === '_' || ctx.prefixes[p] === iri) continue;
    ctx.prefixes[p] = iri;
    changed = true;
  }
  if (changed && ctx.format !== 'application/n-triples' && ctx.format !== 'application/n-quads') {
    ctx.preamble = Object.entries(ctx.prefixes)
      .map(([p, iri]) => `@prefix ${p}: <${iri}>. `)
      .join('');
  }
}

function newlineOffsets(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i);
  return out;
}

/** n3's message without its ` on line N.` (the log gives the line in the document). */
function withoutLine(message: string): string {
  return message.replace(/ on line \d+\.?$/, '');
}

/** The text with lone surrogates as U+FFFD (as the stream's UTF-8 encoding would give them). */
function wellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}
