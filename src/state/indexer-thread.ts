// **IndexerThread** runs a crawl state's Indexer in a worker thread, so that indexing takes another core than the crawl's.
import { Worker } from 'node:worker_threads';
import { RdfscoutError } from '../errors.ts';
import type { DocumentIndexer } from './indexer.ts';

/** Messages to the worker (indexer-worker.ts). */
export type ToIndexer =
  | { t: 'offer'; graph: string; values: readonly string[] }
  | { t: 'notify' }
  | { t: 'flush'; id: number }
  | { t: 'close'; id: number };

/** Messages from the worker: `done` answers a flush or close (with the indexer's counters), `error` says why it failed. */
export type FromIndexer =
  | { t: 'ready' }
  | { t: 'done'; id: number; indexedQuads: number; indexedFromMemory: number; recentDocuments: number; error?: { message: string } };

/**
 * The main thread's side of an {@link Indexer} running in a worker thread over the same LevelDB (shared handle,
 * `multithreading`). The worker does what the Indexer does on one thread, with the same marks and batches: a document's
 * `unindexed` mark is deleted in the LevelDB batch of its last index keys, so a crash (SIGKILL) at any point leaves a
 * mark for every document whose keys may be missing, and the next open indexes it again. Messages keep their order:
 * a flush posted after a commit's offer or notify reads that commit's mark.
 *
 * The worker does not keep the process alive while idle. If it dies, every pending and later flush rejects with
 * RDFSCOUT_STORE_FAILED (nothing is lost: the marks stay for the next open).
 */
export class IndexerThread implements DocumentIndexer {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve(): void; reject(e: unknown): void }>();
  #nextId = 0;
  #death: RdfscoutError | null = null;
  #closed = false;
  #indexedQuads = 0;
  #indexedFromMemory = 0;
  #recentDocuments = 0;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (m: FromIndexer) => this.#deliver(m));
    worker.on('error', (err) => this.#die(err));
    worker.on('exit', (code) => this.#die(new Error(`the indexing worker exited (code ${code})`)));
  }

  /** Starts the worker on the crawl state in `dir` (opened by this thread first) and waits until it has opened it. */
  static async start(dir: string): Promise<IndexerThread> {
    const entry = new URL(`./indexer-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
    const worker = new Worker(entry, { workerData: { dir } });
    await new Promise<void>((resolve, reject) => {
      const settle = (err: unknown): void => {
        worker.off('error', settle).off('exit', exited).off('message', said);
        if (err === null) resolve();
        else reject(new RdfscoutError('RDFSCOUT_STORE_FAILED', `Could not start the indexing worker: ${(err as Error).message}`, { cause: err }));
      };
      const exited = (code: number): void => settle(new Error(`it exited (code ${code})`));
      const said = (m: FromIndexer): void => settle(m.t === 'ready' ? null : new Error(`it said ${m.t} before ready`));
      worker.on('error', settle).on('exit', exited).on('message', said);
    });
    const thread = new IndexerThread(worker);
    worker.unref();
    return thread;
  }

  get indexedQuads(): number {
    return this.#indexedQuads;
  }

  get indexedFromMemory(): number {
    return this.#indexedFromMemory;
  }

  get recentDocuments(): number {
    return this.#recentDocuments;
  }

  offer(graph: string, values: readonly string[]): void {
    this.#post({ t: 'offer', graph, values });
  }

  notify(): void {
    this.#post({ t: 'notify' });
  }

  flush(): Promise<void> {
    return this.#ask('flush');
  }

  /** Indexes what is pending, then the worker closes its handle and exits. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#ask('close');
    } finally {
      this.#closed = true;
      await this.#worker.terminate();
    }
  }

  #post(msg: ToIndexer): void {
    if (this.#death === null && !this.#closed) this.#worker.postMessage(msg);
  }

  #ask(t: 'flush' | 'close'): Promise<void> {
    if (this.#death !== null) return Promise.reject(this.#death);
    if (this.#closed) return Promise.resolve();
    const id = this.#nextId++;
    const done = new Promise<void>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    this.#worker.ref(); // the process waits for an answer
    this.#worker.postMessage({ t, id } satisfies ToIndexer);
    return done;
  }

  #deliver(m: FromIndexer): void {
    if (m.t !== 'done') return;
    this.#indexedQuads = m.indexedQuads;
    this.#indexedFromMemory = m.indexedFromMemory;
    this.#recentDocuments = m.recentDocuments;
    const w = this.#waiting.get(m.id);
    this.#waiting.delete(m.id);
    if (this.#waiting.size === 0) this.#worker.unref();
    if (w === undefined) return;
    if (m.error === undefined) w.resolve();
    else w.reject(new RdfscoutError('RDFSCOUT_STORE_FAILED', m.error.message));
  }

  #die(err: Error): void {
    if (this.#death !== null) return;
    this.#death = new RdfscoutError('RDFSCOUT_STORE_FAILED', `Could not index the stored documents: ${err.message}`, { cause: err });
    for (const w of this.#waiting.values()) w.reject(this.#death);
    this.#waiting.clear();
  }
}

