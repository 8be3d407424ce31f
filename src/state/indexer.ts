// **Indexer** loads stored documents (compact N-Triples values) into quadstore's SPARQL indexes in large batches, in the background.
import type { AbstractChainedBatch } from 'abstract-level';
import type { Quadstore } from 'quadstore';
import type { DataFactory } from 'rdf-data-factory';
import { RdfscoutError } from '../errors.ts';
import { IndexKeyStager } from './index-keys.ts';
import type { KeyWriter } from './quad-keys.ts';
import { storedValues } from './stored-triples.ts';
import type { AnySublevel } from './txn.ts';

/** Options of an {@link Indexer}. */
export interface IndexerOptions {
  /** How long after a document is committed the indexer starts a pass (documents committed meanwhile join it). Default: 500 ms. */
  delayMs?: number;
  /**
   * Quads per quadstore batch (3 index keys each: covering-quadstore.ts). Bounds the indexer's memory: LevelDB keeps a batch's copy while
   * it writes it (a 30,000-key batch left RSS ~60 MB higher, a 6,000-key one ~15 MB; scratch measurement on
   * classic-level 3), and larger batches were no faster. Default: 1,000.
   */
  batchQuads?: number;
  /**
   * Characters of recently committed documents the indexer keeps to index them without reading them back
   * ({@link Indexer.offer}); past this, a document is read from the store as after a restart. Default: 2,000,000.
   */
  recentChars?: number;
}

/** A committed document's values, kept until its pass; `seq` orders offers against passes. */
interface Recent {
  values: readonly string[];
  chars: number;
  seq: number;
}

/** What the indexer reads and writes: the crawl state's parts it needs (a subset of CrawlState). */
export interface IndexerStore {
  readonly quadstore: Quadstore;
  readonly dataFactory: DataFactory;
  /** Document values: key `graph\u0000nnnnnn` → N-Triples text (see document-keys.ts). */
  readonly docs: AnySublevel;
  /** Documents stored but not indexed yet: key = graph IRI, value = its number of chunks. Written in the document's own transaction. */
  readonly unindexed: AnySublevel;
}

/**
 * What the crawl state's `indexer` does, on this thread ({@link Indexer}) or in a worker thread (indexer-thread.ts):
 * takes committed documents ({@link offer}, {@link notify}) and indexes them in the background; {@link flush} waits.
 */
export interface DocumentIndexer {
  /** Hands over the values of a document just committed with its `unindexed` mark (see {@link Indexer.offer}). */
  offer(graph: string, values: readonly string[]): void;
  /** Says that documents were committed (`chars`: of stored values, when known): a pass starts soon. */
  notify(chars?: number): void;
  /** Resolves once every document committed before the call is in the indexes; rejects with RDFSCOUT_STORE_FAILED. */
  flush(): Promise<void>;
  /** Indexes what is pending, then stops. */
  close(): Promise<void>;
  /** Quads written to the indexes so far (as of the last flush, for a worker thread's). */
  readonly indexedQuads: number;
  /** Documents indexed from offered values rather than read back (as of the last flush, for a worker thread's). */
  readonly indexedFromMemory: number;
  /** Offered documents whose values are kept for their pass (as of the last flush, for a worker thread's). */
  readonly recentDocuments: number;
}

/** Unindexed graphs read per page (keys only; the page's iterator is closed before indexing starts). */
const PAGE = 256;

/**
 * Keeps quadstore's indexes up to date with the document store ("fetch, parse, append"; index in bulk).
 *
 * A crawl's transaction stores a document once, as N-Triples values in `docs`, and marks it in `unindexed`. The
 * indexer reads marked documents, parses their values and writes their quads to quadstore's indexes in batches of
 * `batchQuads`, deleting the marks of the documents it completed **in the same LevelDB batch** as their last quads.
 * After a crash (SIGKILL at any point) a mark is still there for every document whose quads may be missing, and the
 * next pass writes them again (quadstore puts are idempotent): the index catches up on the next open.
 *
 * Lag: a committed document is visible to SPARQL at most `delayMs` plus one pass later (a pass indexes what was
 * marked when it started). {@link flush} waits until everything committed before the call is indexed.
 */
export class Indexer implements DocumentIndexer {
  readonly #store: IndexerStore;
  readonly #delayMs: number;
  readonly #batchQuads: number;
  #timer: NodeJS.Timeout | null = null;
  #pass: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #indexed = 0;
  readonly #maxRecentChars: number;
  readonly #recent = new Map<string, Recent>();
  #recentChars = 0;
  #offers = 0;
  #fromMemory = 0;

  constructor(store: IndexerStore, opts: IndexerOptions = {}) {
    this.#store = store;
    this.#delayMs = opts.delayMs ?? 500;
    this.#batchQuads = opts.batchQuads ?? 1_000;
    this.#maxRecentChars = opts.recentChars ?? 2_000_000;
  }

  /** Documents whose values are kept for their pass (see {@link offer}). */
  get recentDocuments(): number {
    return this.#recent.size;
  }

  /** Documents indexed from the values handed to {@link offer} (not read back from the store). */
  get indexedFromMemory(): number {
    return this.#fromMemory;
  }

  /**
   * Hands over the values (all chunks, in order) of a document **just committed** with its `unindexed` mark, so that
   * the pass indexes them without reading them back from the store (measured: 0.75–0.84× of
   * the indexing CPU on modern-like's small documents). Only an optimisation: the mark in the store stays what the pass
   * follows (a value is used only for a marked document whose chunk count it matches), and after a crash the next
   * open reads the store as before. Values past `recentChars` are not kept. Also starts a pass (as {@link notify}).
   */
  offer(graph: string, values: readonly string[]): void {
    if (this.#closed) return;
    this.#forget(graph);
    let chars = 0;
    for (const v of values) chars += v.length;
    if (this.#recentChars + chars <= this.#maxRecentChars) {
      this.#recent.set(graph, { values, chars, seq: this.#offers++ });
      this.#recentChars += chars;
    }
    this.notify();
  }

  #forget(graph: string): Recent | undefined {
    const r = this.#recent.get(graph);
    if (r === undefined) return undefined;
    this.#recent.delete(graph);
    this.#recentChars -= r.chars;
    return r;
  }

  /** Quads written to the indexes by this indexer since it was created. */
  get indexedQuads(): number {
    return this.#indexed;
  }

  /** Says that documents were committed: a pass starts within `delayMs` (unless one is scheduled already). */
  notify(): void {
    if (this.#closed || this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#start().catch(() => {}); // retried by the next notify, flush or open
    }, this.#delayMs);
    this.#timer.unref();
  }

  /** Resolves once every document committed before the call is in the indexes. Rejects (RDFSCOUT_STORE_FAILED) if indexing failed. */
  async flush(): Promise<void> {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#pass !== null) await this.#pass.catch(() => {}); // it may have started before our documents were committed
    await this.#start();
  }

  /**
   * Stops without indexing what is pending (its marks stay for whoever indexes next: a worker thread, the next open);
   * waits for a running pass to end. No pass starts afterwards.
   */
  async stop(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#pass !== null) await this.#pass.catch(() => {});
    this.#recent.clear();
    this.#recentChars = 0;
  }

  /** Indexes what is pending, then stops (no pass starts afterwards). */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
  }

  /** Starts a pass, or asks the running one to go round again (it may have read its marks before the newest commit). */
  #start(): Promise<void> {
    if (this.#pass !== null) {
      this.#again = true;
      return this.#pass;
    }
    this.#pass = (async () => {
      try {
        do {
          this.#again = false;
          await this.#runPass();
        } while (this.#again);
      } catch (err) {
        // Nothing is lost: the marks of what was not indexed stay, and the next pass (or open) tries again.
        throw new RdfscoutError('RDFSCOUT_STORE_FAILED', `Could not index the stored documents: ${(err as Error).message}`, { cause: err });
      } finally {
        this.#pass = null;
      }
    })();
    return this.#pass;
  }

  /** One pass: every graph marked in `unindexed` when each page is read. */
  async #runPass(): Promise<void> {
    // Offers made before this pass began are of documents committed (and marked) before it read any mark: whatever of
    // them it does not take is stale (its mark is gone), and is dropped when it ends.
    const firstFresh = this.#offers;
    try {
      await this.#indexMarked();
    } finally {
      for (const [graph, r] of this.#recent) if (r.seq < firstFresh) this.#forget(graph);
    }
  }

  async #indexMarked(): Promise<void> {
    const quadstore = this.#store.quadstore as unknown as IndexWriter;
    const stager = new IndexKeyStager(quadstore, this.#store.dataFactory);
    let batch: Batch | null = null;
    let inBatch = 0;
    let done: string[] = [];
    const write = async (): Promise<void> => {
      const marks = done;
      const written = batch ?? quadstore.db.batch();
      batch = null;
      await this.#write(written, marks);
      this.#indexed += inBatch;
      inBatch = 0;
      done = [];
    };
    try {
      let after: string | undefined;
      for (;;) {
        const range = after === undefined ? { limit: PAGE } : { gt: after, limit: PAGE };
        const marks = (await this.#store.unindexed.iterator(range).all()) as Array<[string, unknown]>;
        if (marks.length === 0) break;
        for (const [graph, chunks] of marks) {
          const recent = this.#forget(graph);
          const inMemory = recent !== undefined && recent.values.length === chunks;
          if (inMemory) this.#fromMemory++;
          const values = inMemory ? recent.values : storedValues(this.#store.docs, graph, chunks);
          for await (const text of values) {
            for (let from = 0; from < text.length; ) {
              batch ??= quadstore.db.batch();
              const staged = stager.stage(batch, graph, text, from, this.#batchQuads - inBatch);
              from = staged.next;
              inBatch += staged.quads;
              if (inBatch >= this.#batchQuads) await write();
            }
          }
          done.push(graph);
        }
        after = marks[marks.length - 1]?.[0];
      }
      if (inBatch > 0 || done.length > 0) await write();
    } finally {
      if (batch !== null) await (batch as Batch).close();
    }
  }

  /** Writes `batch` (index keys) and deletes the marks of `completed` in it: one atomic LevelDB write. */
  async #write(batch: Batch, completed: readonly string[]): Promise<void> {
    const unindexed = this.#store.unindexed;
    const preWrite = async (b: Batch): Promise<void> => {
      for (const g of completed) b.del(g, { sublevel: unindexed } as never);
    };
    // quadstore's writeBatch: CoveringQuadstore's stages the namespace ids the keys use into the same batch.
    await (this.#store.quadstore as unknown as IndexWriter).writeBatch(batch, { preWrite });
  }
}

type Batch = AbstractChainedBatch<never, string, string>;

/** The parts of quadstore the indexer writes with (private in its types): its database, key writer and batch write. */
interface IndexWriter extends KeyWriter {
  readonly db: { batch(): Batch };
  writeBatch(batch: Batch, opts: { preWrite: (batch: Batch) => Promise<void> }): Promise<void>;
}
