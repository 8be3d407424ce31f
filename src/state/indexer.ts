// **Indexer** loads stored documents (compact N-Triples values) into quadstore's SPARQL indexes in large batches, in the background.
import type { Quad } from '@rdfjs/types';
import type { AbstractChainedBatch } from 'abstract-level';
import { Parser } from 'n3';
import type { Quadstore } from 'quadstore';
import type { DataFactory } from 'rdf-data-factory';
import { RdfscoutError } from '../errors.ts';
import type { AnySublevel } from './txn.ts';
import { docKey, docKeyRange } from './document-keys.ts';

/** Options of an {@link Indexer}. */
export interface IndexerOptions {
  /** How long after a document is committed the indexer starts a pass (documents committed meanwhile join it). Default: 500 ms. */
  delayMs?: number;
  /**
   * Quads per quadstore batch (4 index keys each: covering-quadstore.ts). Bounds the indexer's memory: LevelDB keeps a batch's copy while
   * it writes it (a 30,000-key batch left RSS ~60 MB higher, a 6,000-key one ~15 MB; scratch measurement on
   * classic-level 3), and larger batches were no faster. Default: 1,000.
   */
  batchQuads?: number;
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

/** Unindexed graphs read per page (keys only; the page's iterator is closed before indexing starts). */
const PAGE = 256;

/**
 * Keeps quadstore's indexes up to date with the document store (issue 18: "fetch, parse, append"; index in bulk).
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
export class Indexer {
  readonly #store: IndexerStore;
  readonly #delayMs: number;
  readonly #batchQuads: number;
  #timer: NodeJS.Timeout | null = null;
  #pass: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #indexed = 0;

  constructor(store: IndexerStore, opts: IndexerOptions = {}) {
    this.#store = store;
    this.#delayMs = opts.delayMs ?? 500;
    this.#batchQuads = opts.batchQuads ?? 1_000;
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
    let batch: Quad[] = [];
    let done: string[] = [];
    const write = async (): Promise<void> => {
      const marks = done;
      await this.#write(batch, marks);
      this.#indexed += batch.length;
      batch = [];
      done = [];
    };
    let after: string | undefined;
    for (;;) {
      const range = after === undefined ? { limit: PAGE } : { gt: after, limit: PAGE };
      const marks = (await this.#store.unindexed.iterator(range).all()) as Array<[string, unknown]>;
      if (marks.length === 0) break;
      for (const [graph, chunks] of marks) {
        for await (const quad of this.#quadsOf(graph, chunks)) {
          batch.push(quad);
          if (batch.length >= this.#batchQuads) await write();
        }
        done.push(graph);
      }
      after = marks[marks.length - 1]?.[0];
    }
    if (batch.length > 0 || done.length > 0) await write();
  }

  /**
   * The quads of one stored document, value by value (a big document is never materialised whole). `chunks` is the
   * mark's value, the number of values stageDocument wrote: each is then read by its key (a point read; a range
   * read builds a LevelDB iterator over every table, which cost 0.1 ms per value, half the indexer's time in
   * bench:throughput's profile). A mark without a count is read as a key range, until a chunk is missing.
   */
  async *#quadsOf(graphIri: string, chunks: unknown): AsyncGenerator<Quad> {
    const df = this.#store.dataFactory;
    const graph = df.namedNode(graphIri);
    const counted = typeof chunks === 'number' && Number.isInteger(chunks) && chunks >= 0;
    for (let chunk = 0; !counted || chunk < chunks; chunk++) {
      const text = counted ? await this.#chunk(graphIri, chunk) : await this.#chunkInRange(graphIri, chunk);
      if (text === undefined) return;
      // A few lines at a time: the quads of a whole value (~3,000), alive while batches are written, reached V8's
      // old generation and raised RSS by ~15 MB indexing a 1.5 MB Turtle file (issue 16 item 14).
      for (const lines of slicesOfLines(text, SLICE_CHARS)) {
        for (const t of parseTriples(lines)) yield df.quad(t.subject, t.predicate, t.object, graph);
      }
    }
  }

  /** Chunk `n` of a document by its key (undefined when it is missing). */
  async #chunk(graphIri: string, n: number): Promise<string | undefined> {
    return (await this.#store.docs.get(docKey(graphIri, n))) as string | undefined;
  }

  /** Chunk `n` or the next one there is, read with a closed iterator (an open one pins a LevelDB version while we write). */
  async #chunkInRange(graphIri: string, n: number): Promise<string | undefined> {
    const values = (await this.#store.docs.values({ ...docKeyRange(graphIri, n), limit: 1 }).all()) as string[];
    return values[0];
  }

  /** Writes `quads` to the indexes and deletes the marks of `completed` in the same atomic batch. */
  async #write(quads: Quad[], completed: readonly string[]): Promise<void> {
    const unindexed = this.#store.unindexed;
    const preWrite = async (batch: AbstractChainedBatch<never, string, string>): Promise<void> => {
      for (const g of completed) batch.del(g, { sublevel: unindexed } as never);
    };
    await this.#store.quadstore.multiPut(quads, { preWrite: preWrite as never });
  }
}

/** Characters of stored N-Triples parsed at once (whole lines). */
const SLICE_CHARS = 16 * 1024;

/** `text` cut after a newline every `size` characters or so (N-Triples: one triple a line). */
function* slicesOfLines(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; ) {
    const nl = text.indexOf('\n', i + size);
    const end = nl < 0 ? text.length : nl + 1;
    yield text.slice(i, end);
    i = end;
  }
}

/**
 * Parses stored N-Triples (written by n3's Writer; blank node labels kept as written). A line n3 cannot read back
 * (not expected: the same library wrote it) is skipped rather than blocking the index; the value stays in `docs`.
 */
function parseTriples(text: string): Quad[] {
  try {
    return new Parser({ format: 'N-Triples', blankNodePrefix: '' }).parse(text);
  } catch {
    const out: Quad[] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        out.push(...new Parser({ format: 'N-Triples', blankNodePrefix: '' }).parse(line));
      } catch {
        // skipped: see above
      }
    }
    return out;
  }
}
