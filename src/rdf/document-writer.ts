// **DocumentWriter** stores a document's quads as they are parsed, in bounded chunks, committed with its record.
import type { Quad } from '@rdfjs/types';
import { Writer } from 'n3';
import { RdfscoutError } from '../errors.ts';
import { docKey } from '../state/document-keys.ts';
import type { CrawlState } from '../state/open-state.ts';
import { levelTxn, type Txn } from '../state/txn.ts';
import { FingerprintSet } from './fingerprint-set.ts';
import type { QuadTarget } from './run-parser.ts';

/** Characters of N-Triples per stored value: a big document is several values, read back one at a time. */
export const DOC_CHUNK_CHARS = 256 * 1024;

/** Options of a {@link DocumentWriter}. */
export interface DocumentWriterOptions {
  /**
   * Write full chunks to the store before the fetch's transaction commits, marked as pending until it does, so that
   * a large document is never held whole. False: every chunk waits for the transaction (a
   * document given as an array of quads). Default: true.
   */
  spill?: boolean;
}

/**
 * Receives one document's quads (graph = `graphIri`, the document's final URL; graphs named inside a TriG/N-Quads
 * document are folded into it), serialises each as an N-Triples line, drops duplicates within the document, and
 * groups the lines into values of about {@link DOC_CHUNK_CHARS} characters (state.docs, key = graph + chunk number).
 *
 * Crash safety. A full chunk is written at once (spill), in its own LevelDB batch; the first one goes together with
 * a pending mark for the graph (`docs-pending`). The last chunk, the `unindexed` mark for the indexer and the deletion
 * of the pending mark are staged in the fetch's transaction ({@link stage}), with the crawl record: the document
 * becomes visible with its record, or not at all. A crash before that commit leaves chunks under a pending mark,
 * which readers ignore ({@link isPending}) and the next open deletes (`cleanOrphanDocuments`). A document that is not
 * to be stored after all (it failed to parse) has its spilled chunks deleted in the transaction ({@link discard}).
 *
 * Back-pressure: `drained()` resolves once the spilled chunks are written; the parser waits for it after each chunk
 * of text, so memory stays bounded by a few chunks whatever the document's size.
 */
export class DocumentWriter implements QuadTarget {
  readonly graph: string;
  readonly #state: CrawlState;
  readonly #spill: boolean;
  readonly #writer = new Writer({ format: 'N-Triples' });
  /** Fingerprints of the lines stored: duplicates are dropped without keeping the lines themselves. */
  readonly #seen = new FingerprintSet();
  /** Distinct lines received already serialised and deduplicated (`addSerialised`: a parse worker's chunks). */
  #serialised = 0;
  #lines: string[] = [];
  /** Full chunks waiting for the transaction (when not spilling). */
  #held: string[] = [];
  #chars = 0;
  /** Chunks written (spilled) so far; the next chunk's number. */
  #spilled = 0;
  #writing: Promise<void> = Promise.resolve();
  #pendingWrites = 0;
  #failure: Error | null = null;
  #closed = false;

  constructor(state: CrawlState, graphIri: string, opts: DocumentWriterOptions = {}) {
    this.#state = state;
    this.graph = graphIri;
    this.#spill = opts.spill ?? true;
  }

  /** Distinct triples received so far. */
  get count(): number {
    return this.#seen.size + this.#serialised;
  }

  /** Chunks numbered so far: with `spill`, the ones written to the store ahead of the transaction. */
  get spilledChunks(): number {
    return this.#spilled;
  }

  add(q: Quad): void {
    if (this.#closed) throw new RdfscoutError('RDFSCOUT_INTERNAL', `The document ${this.graph} was staged already; no quad may be added.`);
    const line = this.#writer.quadToString(q.subject, q.predicate, q.object);
    if (!this.#seen.add(line)) return;
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars < DOC_CHUNK_CHARS) return;
    if (this.#spill) this.#spillChunk();
    else this.#held.push(this.#takeChunk());
  }

  /**
   * Takes `lines` distinct N-Triples lines already serialised and deduplicated elsewhere (a parse worker's
   * writer, crawl/parse-pool-chunks.ts), as one string: kept, spilled and staged as {@link add} keeps its lines, so
   * the stored chunks are the same values. Not to be mixed with `add` for one document (duplicates across the two
   * would not be dropped).
   */
  addSerialised(value: string, lines: number): void {
    if (this.#closed) throw new RdfscoutError('RDFSCOUT_INTERNAL', `The document ${this.graph} was staged already; no quad may be added.`);
    if (value === '') return;
    this.#serialised += lines;
    this.#lines.push(value);
    this.#chars += value.length;
    if (this.#chars < DOC_CHUNK_CHARS) return;
    if (this.#spill) this.#spillChunk();
    else this.#held.push(this.#takeChunk());
  }

  /** Resolves when every spilled chunk is written; rejects (RDFSCOUT_STORE_FAILED) if one could not be. */
  async drained(): Promise<void> {
    await this.#writing;
    if (this.#failure !== null) throw this.#failure;
  }

  /**
   * Stages the rest of the document in `txn` (last chunk, `unindexed` mark, pending mark removed) and returns the
   * number of distinct triples. Call after `drained()` resolved. Nothing more may be added afterwards.
   */
  stage(txn: Txn): number {
    this.#close();
    const t = levelTxn(txn);
    // A document none of whose chunks was written ahead has all its values here: the indexer gets them once they are
    // committed instead of reading them back.
    const spilledAhead = this.#spilled > 0; // only then was a pending mark written (with the first spilled chunk)
    const staged: string[] | null = spilledAhead ? null : [];
    const put = (value: string): void => {
      t.put(this.#state.docs, docKey(this.graph, this.#spilled++), value);
      staged?.push(value);
    };
    for (const value of this.#held) put(value);
    this.#held = [];
    if (this.#chars > 0) put(this.#takeChunk());
    if (this.count > 0) {
      t.put(this.#state.sub.unindexed, this.graph, this.#spilled);
      const indexer = this.#state.indexer;
      const chars = this.#spilled * DOC_CHUNK_CHARS; // about: a spilled document's values are not kept
      txn.onCommit(() => (staged !== null ? indexer.offer(this.graph, staged) : indexer.notify(chars)));
    }
    // No deletion of a mark that was never written: a LevelDB delete writes a tombstone (half the stored documents'
    // transactions deleted a pending mark they never had).
    if (spilledAhead) t.del(this.#state.sub['docs-pending'], this.graph);
    return this.count;
  }

  /**
   * Forgets every quad received: the chunks written so far and their pending mark are deleted (one batch), and the
   * writer starts over as if new (the document is parsed again from its start; nothing of the first pass is stored).
   * Rejects (RDFSCOUT_STORE_FAILED) if a chunk could not be written or deleted.
   */
  async restart(): Promise<void> {
    if (this.#closed) throw new RdfscoutError('RDFSCOUT_INTERNAL', `The document ${this.graph} was staged already; it cannot restart.`);
    await this.drained();
    const state = this.#state;
    const ops: Array<{ type: 'del'; key: string; sublevel: CrawlState['docs'] }> = [];
    for (let n = 0; n < this.#spilled; n++) ops.push({ type: 'del', key: docKey(this.graph, n), sublevel: state.docs });
    if (this.#spilled > 0) ops.push({ type: 'del', key: this.graph, sublevel: state.sub['docs-pending'] });
    this.#seen.clear();
    this.#serialised = 0;
    this.#lines = [];
    this.#held = [];
    this.#chars = 0;
    this.#spilled = 0;
    if (ops.length === 0) return;
    try {
      await state.db.batch(ops as never);
    } catch (err) {
      this.#failure = new RdfscoutError('RDFSCOUT_STORE_FAILED', `Could not delete the chunks of ${this.graph} from the crawl store: ${(err as Error).message}`, { cause: err });
      throw this.#failure;
    }
  }

  /** Stages the deletion of whatever was spilled (the document is not stored after all). Call after `drained()` settled. */
  discard(txn: Txn): void {
    this.#close();
    this.#lines = [];
    this.#held = [];
    this.#chars = 0;
    if (this.#spilled === 0) return;
    const t = levelTxn(txn);
    for (let n = 0; n < this.#spilled; n++) t.del(this.#state.docs, docKey(this.graph, n));
    t.del(this.#state.sub['docs-pending'], this.graph);
  }

  #close(): void {
    if (this.#failure !== null) throw this.#failure;
    if (this.#pendingWrites > 0) throw new RdfscoutError('RDFSCOUT_INTERNAL', `The document ${this.graph} is staged before its chunks are written: await drained() first.`);
    this.#closed = true;
  }

  #takeChunk(): string {
    const value = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    return value;
  }

  #spillChunk(): void {
    const state = this.#state;
    const ops: Array<{ type: 'put'; key: string; value: unknown; sublevel: CrawlState['docs'] }> = [];
    if (this.#spilled === 0) ops.push({ type: 'put', key: this.graph, value: true, sublevel: state.sub['docs-pending'] });
    ops.push({ type: 'put', key: docKey(this.graph, this.#spilled++), value: this.#takeChunk(), sublevel: state.docs });
    this.#pendingWrites++;
    this.#writing = this.#writing.then(async () => {
      try {
        if (this.#failure === null) await state.db.batch(ops as never);
      } catch (err) {
        this.#failure = new RdfscoutError('RDFSCOUT_STORE_FAILED', `Could not write a chunk of ${this.graph} to the crawl store: ${(err as Error).message}`, { cause: err });
      } finally {
        this.#pendingWrites--;
      }
    });
  }
}

/** Whether the document `graphIri` is being written by a fetch that has not committed (or a crash left it so). */
export async function isPending(state: CrawlState, graphIri: string): Promise<boolean> {
  return (await state.sub['docs-pending'].get(graphIri)) !== undefined;
}

/** The documents being written (or left by a crash) whose chunks readers must ignore; a handful at any time. */
export async function pendingGraphs(state: CrawlState): Promise<Set<string>> {
  return new Set((await state.sub['docs-pending'].keys().all()) as string[]);
}
