// **runParserInto** feeds text to a streaming RDF parser in chunks, under a quad limit and a time budget, with blank nodes made unique.
import { hash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { BlankNode, Quad, Term } from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';
import { RdfscoutError } from '../errors.ts';

const factory = new DataFactory();

/** Characters written to a parser at once; between chunks the parser yields to the event loop and checks its budget. */
export const CHUNK_CHARS = 64 * 1024;

/** Milliseconds of CPU time the calling thread has used (user + system), or wall time where Node cannot tell. */
function threadCpuMs(): number {
  const usage = process.threadCpuUsage?.();
  return usage === undefined ? performance.now() : (usage.user + usage.system) / 1000;
}

/**
 * The limits shared by every parser run of one document (so an HTML page's blocks share one budget). The time
 * budget is CPU time of this thread spent while the parser works on the document's chunks (a
 * wall-clock limit failed large files when the machine was busy): waiting for the network or for other work of the
 * event loop between chunks is not counted.
 */
export interface Budget {
  /** CPU time spent on this document so far (ms). */
  cpuMs: number;
  /** Quads the document may still produce. */
  quadsLeft: number;
  readonly maxQuads: number;
  readonly timeBudgetMs: number;
  /** The CPU clock (ms); injected by tests. */
  readonly clock: () => number;
  /**
   * Remote JSON-LD contexts the parser is waiting for (context-loader.ts `waitingOn`): the wait is the network's, not
   * the parser's, so it neither counts as a stall nor, once over, as this document's CPU time.
   */
  waiting?: number;
}

/** The document exceeded its quad limit or time budget: the whole document fails, not just one block. */
export class BudgetExceededError extends RdfscoutError {
  constructor(message: string) {
    super('RDFSCOUT_PARSE_FAILED', message);
    this.name = 'BudgetExceededError';
  }
}

export function createBudget(maxQuads: number, timeBudgetMs: number, clock: () => number = threadCpuMs): Budget {
  return { cpuMs: 0, quadsLeft: maxQuads, maxQuads, timeBudgetMs, clock };
}

/** The error of a document that yields more quads than its budget allows. */
export function quadLimitExceeded(budget: Budget): BudgetExceededError {
  return new BudgetExceededError(`The document has more than ${budget.maxQuads} quads (the per-document limit); none is kept.`);
}

/** The error of a document whose parsing used more CPU time than its budget allows. */
export function cpuBudgetExceeded(budget: Budget): BudgetExceededError {
  return new BudgetExceededError(`Parsing took more than ${budget.timeBudgetMs} ms of CPU time (the per-document budget); none is kept.`);
}

/** The stream shape the rdfjs parsers share (n3 StreamParser, rdfxml, jsonld, rdfa, microdata parsers). */
export interface StreamingParser {
  write(chunk: string, cb: (err?: Error | null) => void): boolean;
  end(): unknown;
  destroy(err?: Error): unknown;
  on(event: 'data', fn: (q: Quad) => void): unknown;
  on(event: 'error', fn: (e: Error) => void): unknown;
  on(event: 'end', fn: () => void): unknown;
}

/** Text to feed a parser: one string, or its chunks as they come (e.g. a body decoded as it arrives). */
export type TextInput = string | Iterable<string> | AsyncIterable<string>;

/**
 * Text a parser may read more than once: a string, or a function that returns a fresh reading of the same text each
 * time it is called (e.g. a body decoded again from its bytes). A one-shot iterable can be read once only.
 */
export type TextSource = TextInput | (() => TextInput);

/** Where a parser run puts its quads, one at a time (the document store, the link and VoID collectors). */
export interface QuadTarget {
  add(q: Quad): void;
  /** Resolves when the target has written what it buffered (back-pressure: the next chunk waits for it). */
  drained?(): Promise<void>;
  /**
   * Forgets every quad received so far, as if none had come: the document is about to be parsed again from its
   * start (a JSON-LD document that left the streaming profile). A target without it is never parsed twice.
   */
  restart?(): Promise<void>;
}

/**
 * Renames blank nodes so that labels from different documents (and different blocks of one HTML page) never meet
 * in the store: every distinct label of one parser run becomes `<prefix>b<n>`. The prefix is derived from the
 * document IRI (deterministic: re-parsing a document after a crash yields the same quads). It may be given as a
 * function, called once when the first blank node comes (most small documents have none, and hashing the
 * IRI cost ~4 µs a document).
 */
export class BlankNodeRelabeller {
  #prefix: string | (() => string);
  readonly #labels = new Map<string, BlankNode>();

  constructor(prefix: string | (() => string)) {
    this.#prefix = prefix;
  }

  /** Forgets the labels seen: the next run numbers them from 0 again (a document parsed again yields the same quads). */
  reset(): void {
    this.#labels.clear();
  }

  /** The blank node a parser's label `label` becomes (for a term read as a blank node after the parser, see TermGuard). */
  blankNode(label: string): BlankNode {
    return this.#term(factory.blankNode(label)) as BlankNode;
  }

  relabel(q: Quad): Quad {
    if (!hasBlank(q)) return q;
    return factory.quad(
      this.#term(q.subject) as Quad['subject'],
      q.predicate,
      this.#term(q.object) as Quad['object'],
      this.#term(q.graph) as Quad['graph'],
    );
  }

  #term(t: Term): Term {
    if (t.termType === 'BlankNode') {
      let b = this.#labels.get(t.value);
      if (b === undefined) {
        if (typeof this.#prefix === 'function') this.#prefix = this.#prefix();
        b = factory.blankNode(`${this.#prefix}b${this.#labels.size}`);
        this.#labels.set(t.value, b);
      }
      return b;
    }
    if (t.termType === 'Quad') return this.relabel(t as Quad);
    return t;
  }
}

function hasBlank(q: Quad): boolean {
  for (const t of [q.subject, q.object, q.graph] as Term[]) {
    if (t.termType === 'BlankNode') return true;
    if (t.termType === 'Quad' && hasBlank(t as Quad)) return true;
  }
  return false;
}

/** A blank-node prefix for a document: `d` + 12 hex digits of SHA-1(IRI) + `_` + block number + `_`. */
export function blankNodePrefix(documentIri: string, block = 0): string {
  if (documentIri !== digestCache.iri) {
    digestCache.iri = documentIri;
    digestCache.digest = hash('sha1', documentIri, 'hex').slice(0, 12);
  }
  return `d${digestCache.digest}_${block}_`;
}

/** A cache of one entry, the last IRI hashed and its digest: the blocks of one HTML page share it. */
const digestCache: { iri: string | null; digest: string } = { iri: null, digest: '' };

/**
 * Feeds `input` to `parser` chunk by chunk (at most `chunkChars` characters each, default {@link CHUNK_CHARS}, never splitting a surrogate
 * pair) and hands each quad, relabelled, to `target`; after each chunk it waits for `target.drained()`, so a large
 * document is never held whole. Stops at the first error, when the budget's quad count is exhausted, or when the
 * document's CPU time passes its budget. A parser that stops answering (no progress for `timeBudgetMs` of wall time
 * while it holds a chunk, or after `end()`) fails too. Never rejects: the outcome is in the result (the number of
 * quads handed over, and the error). The parser is destroyed on error.
 *
 * A string of at most `wholeChars` characters (default 0: none; at most `chunkChars`, so one chunk either way) is
 * written as {@link runParserOnChunks} writes it.
 */
export async function runParserInto(
  parser: StreamingParser,
  input: TextInput,
  relabeller: BlankNodeRelabeller,
  budget: Budget,
  target: QuadTarget,
  chunkChars = CHUNK_CHARS,
  wholeChars = 0,
): Promise<{ count: number; error: Error | null }> {
  if (typeof input === 'string' && input.length <= Math.min(wholeChars, chunkChars)) return drive(parser, [input], relabeller, budget, target);
  return drive(parser, pieces(input, chunkChars), relabeller, budget, target);
}

/**
 * {@link runParserInto} for a text at hand as the chunks the streaming path would write (each at most
 * {@link CHUNK_CHARS}; empty ones are skipped as `runParserInto` skips them): written one after the other with the
 * same budget checks, stall guard and waits for the target, but without the chunking iterators or a turn of the event
 * loop between chunks and before `end()` (~35 µs of a small document's driving).
 */
export async function runParserOnChunks(
  parser: StreamingParser,
  chunks: readonly string[],
  relabeller: BlankNodeRelabeller,
  budget: Budget,
  target: QuadTarget,
): Promise<{ count: number; error: Error | null }> {
  return drive(parser, chunks, relabeller, budget, target);
}

/** The driving shared by {@link runParserInto} (chunks from an iterator) and {@link runParserOnChunks} (an array). */
async function drive(
  parser: StreamingParser,
  chunks: readonly string[] | AsyncIterable<string>,
  relabeller: BlankNodeRelabeller,
  budget: Budget,
  target: QuadTarget,
): Promise<{ count: number; error: Error | null }> {
  let count = 0;
  let settled = false;
  let resolveDone!: (r: { count: number; error: Error | null }) => void;
  const done = new Promise<{ count: number; error: Error | null }>((resolve) => {
    resolveDone = resolve;
  });
  const stalled = (): Error => new BudgetExceededError(`The parser made no progress for ${budget.timeBudgetMs} ms (the per-document budget); none is kept.`);
  let stallTimer: NodeJS.Timeout | null = null;
  const arm = (): void => {
    stallTimer = setTimeout(() => ((budget.waiting ?? 0) > 0 ? arm() : finish(stalled())), budget.timeBudgetMs);
  };
  const disarm = (): void => {
    if (stallTimer !== null) clearTimeout(stallTimer);
    stallTimer = null;
  };
  const finish = (error: Error | null): void => {
    if (settled) return;
    settled = true;
    disarm();
    if (error !== null) parser.destroy();
    resolveDone({ count, error });
  };
  parser.on('data', (q: Quad) => {
    if (settled) return;
    if (budget.quadsLeft <= 0) {
      finish(quadLimitExceeded(budget));
      return;
    }
    budget.quadsLeft--;
    count++;
    target.add(relabeller.relabel(q));
  });
  parser.on('error', (e: Error) => finish(e));
  parser.on('end', () => finish(null));

  /** Writes one chunk under the budget and waits for the target; false when the run is over. */
  const write = async (chunk: string): Promise<boolean> => {
    const t0 = budget.clock();
    arm();
    await Promise.race([new Promise<void>((res) => parser.write(chunk, () => res())), done]);
    disarm();
    budget.cpuMs += budget.clock() - t0;
    if (settled) return false;
    if (budget.cpuMs > budget.timeBudgetMs) {
      finish(cpuBudgetExceeded(budget));
      return false;
    }
    if (target.drained !== undefined) await Promise.race([target.drained(), done]);
    return true;
  };
  const feed = async (): Promise<void> => {
    if (Array.isArray(chunks)) {
      for (const chunk of chunks) if (chunk !== '' && (settled || !(await write(chunk)))) return;
    } else {
      for await (const chunk of chunks) {
        if (settled || !(await write(chunk))) return;
        await yieldToLoop();
      }
    }
    if (settled) return;
    arm();
    parser.end();
  };
  feed().catch((err: unknown) => finish(err instanceof Error ? err : new Error(String(err))));
  return done;
}

/** The input cut into pieces of at most `size` characters, never between the halves of a surrogate pair. */
export async function* pieces(input: TextInput, size: number): AsyncGenerator<string> {
  if (typeof input === 'string') {
    yield* split(input, size);
    return;
  }
  let carry = '';
  for await (const part of input) {
    const text = carry + part;
    carry = text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1)) ? text.slice(-1) : '';
    yield* split(carry === '' ? text : text.slice(0, -1), size);
  }
  if (carry !== '') yield carry;
}

function* split(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; ) {
    let j = Math.min(text.length, i + size);
    if (j < text.length && isHighSurrogate(text.charCodeAt(j - 1))) j--;
    yield text.slice(i, j);
    i = j;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
