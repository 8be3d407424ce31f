// **runParser** feeds text to a streaming RDF parser in chunks, under a quad limit and a time budget, with blank nodes made unique.
import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { BlankNode, Quad, Term } from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';
import { RdfscoutError } from '../errors.ts';

const factory = new DataFactory();

/** Characters written to a parser at once; between chunks the parser yields to the event loop and checks the clock. */
const CHUNK_CHARS = 64 * 1024;

/** The limits shared by every parser run of one document (so an HTML page's blocks share one budget). */
export interface Budget {
  /** `performance.now()` value after which parsing stops with an error. */
  readonly deadline: number;
  /** Quads the document may still produce. */
  quadsLeft: number;
  readonly maxQuads: number;
  readonly timeBudgetMs: number;
}

/** The document exceeded its quad limit or time budget: the whole document fails, not just one block. */
export class BudgetExceededError extends RdfscoutError {
  constructor(message: string) {
    super('RDFSCOUT_PARSE_FAILED', message);
    this.name = 'BudgetExceededError';
  }
}

export function createBudget(maxQuads: number, timeBudgetMs: number): Budget {
  return { deadline: performance.now() + timeBudgetMs, quadsLeft: maxQuads, maxQuads, timeBudgetMs };
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

export interface RunResult {
  /** Quads produced (blank nodes relabelled); on error, what came before it. */
  quads: Quad[];
  error: Error | null;
}

/**
 * Renames blank nodes so that labels from different documents (and different blocks of one HTML page) never meet
 * in the store: every distinct label of one parser run becomes `<prefix>b<n>`. The prefix is derived from the
 * document IRI (deterministic: re-parsing a document after a crash yields the same quads).
 */
export class BlankNodeRelabeller {
  readonly #prefix: string;
  readonly #labels = new Map<string, BlankNode>();

  constructor(prefix: string) {
    this.#prefix = prefix;
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
  return `d${createHash('sha1').update(documentIri).digest('hex').slice(0, 12)}_${block}_`;
}

/**
 * Writes `text` to `parser` in chunks (never splitting a surrogate pair), collects its quads through `relabeller`,
 * and stops at the first error, when the budget's quad count is exhausted, or when its deadline passes. Never
 * rejects: the outcome is in the result. The parser is destroyed on error.
 */
export async function runParser(parser: StreamingParser, text: string, relabeller: BlankNodeRelabeller, budget: Budget): Promise<RunResult> {
  const quads: Quad[] = [];
  let settled = false;
  let resolveDone!: (r: RunResult) => void;
  const done = new Promise<RunResult>((resolve) => {
    resolveDone = resolve;
  });
  const timeout = (): Error =>
    new BudgetExceededError(`Parsing took longer than ${budget.timeBudgetMs} ms (the per-document budget); none is kept.`);
  // Also catches a parser that stops making progress between chunks (e.g. after end()).
  const timer = setTimeout(() => finish(timeout()), Math.max(0, budget.deadline - performance.now()));
  const finish = (error: Error | null): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (error !== null) parser.destroy();
    resolveDone({ quads, error });
  };
  parser.on('data', (q: Quad) => {
    if (settled) return;
    if (budget.quadsLeft <= 0) {
      finish(new BudgetExceededError(`The document has more than ${budget.maxQuads} quads (the per-document limit); none is kept.`));
      return;
    }
    budget.quadsLeft--;
    quads.push(relabeller.relabel(q));
  });
  parser.on('error', (e: Error) => finish(e));
  parser.on('end', () => finish(null));

  const feed = async (): Promise<void> => {
    for (let i = 0; i < text.length && !settled; ) {
      let j = Math.min(text.length, i + CHUNK_CHARS);
      if (j < text.length && isHighSurrogate(text.charCodeAt(j - 1))) j--;
      const chunk = text.slice(i, j);
      await Promise.race([new Promise<void>((res) => parser.write(chunk, () => res())), done]);
      i = j;
      if (!settled && performance.now() > budget.deadline) {
        finish(timeout());
        return;
      }
      await yieldToLoop();
    }
    if (!settled) parser.end();
  };
  feed().catch((err: unknown) => finish(err instanceof Error ? err : new Error(String(err))));
  return done;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
