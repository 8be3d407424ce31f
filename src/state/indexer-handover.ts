// **IndexerHandover** indexes on this thread until a crawl has stored enough to index, then hands indexing to a worker thread.
import { availableParallelism } from 'node:os';
import type { DocumentIndexer, Indexer } from './indexer.ts';
import type { IndexerThread } from './indexer-thread.ts';

/** Options of an {@link IndexerHandover}. */
export interface IndexerHandoverOptions {
  /**
   * Characters of committed document values after which indexing moves to the worker thread. A worker costs ~0.25 CPU s
   * to start (it loads the store's modules) and ~30 MB of RSS (measured on Node 24): a short crawl indexes on its own
   * thread. Default: 2,000,000 (about 20,000 triples).
   */
  thresholdChars?: number;
}

/** What the handover does to the namespace dictionary of this thread's handle (namespace-prefixes.ts). */
interface Assigner {
  stopAssigning(): void;
  resumeAssigning(): void;
}

/**
 * The crawl state's indexer when a worker thread may index (open-state.ts, `indexWorker`). Until `thresholdChars` of
 * documents are committed, `local` indexes here as usual. Then `local` stops (a pass under way ends; nothing
 * pending is indexed here), this handle stops giving namespace ids, and a worker thread ({@link IndexerThread}) opens
 * the store, gives the ids and indexes everything still marked, and every later document. Crash safety is the
 * Indexer's on either side: a document's mark goes in the batch of its last index keys. If the worker cannot start,
 * indexing stays here (a fresh `local`, the dictionary assigning again).
 */
export class IndexerHandover implements DocumentIndexer {
  #local: Indexer;
  #thread: IndexerThread | null = null;
  #switching: Promise<void> | null = null;
  #chars = 0;
  #closed = false;
  /** The worker could not start: this thread indexes. */
  #failed = false;
  readonly #threshold: number;
  readonly #start: () => Promise<IndexerThread>;
  readonly #namespaces: Assigner | null;
  readonly #newLocal: () => Indexer;
  /** Counters of the indexers that stopped, added to the active one's. */
  #doneQuads = 0;
  #doneFromMemory = 0;

  constructor(local: Indexer, newLocal: () => Indexer, start: () => Promise<IndexerThread>, namespaces: Assigner | null, opts: IndexerHandoverOptions = {}) {
    this.#local = local;
    this.#newLocal = newLocal;
    this.#start = start;
    this.#namespaces = namespaces;
    this.#threshold = opts.thresholdChars ?? 2_000_000;
  }

  /** Whether a worker thread indexes now. */
  get inWorker(): boolean {
    return this.#thread !== null;
  }

  get indexedQuads(): number {
    return this.#doneQuads + this.#active().indexedQuads;
  }

  get indexedFromMemory(): number {
    return this.#doneFromMemory + this.#active().indexedFromMemory;
  }

  get recentDocuments(): number {
    return this.#active().recentDocuments;
  }

  offer(graph: string, values: readonly string[]): void {
    let chars = 0;
    for (const v of values) chars += v.length;
    if (this.#count(chars)) return; // the worker reads them from the store
    this.#active().offer(graph, values);
  }

  notify(chars = 0): void {
    if (this.#count(chars)) return;
    this.#active().notify(chars);
  }

  async flush(): Promise<void> {
    if (this.#switching !== null) await this.#switching;
    await this.#active().flush();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#switching !== null) await this.#switching;
    await this.#active().close();
  }

  #active(): DocumentIndexer {
    return this.#thread ?? this.#local;
  }

  /** Counts committed characters; true while (or once) the handover starts: the active indexer is not to be told. */
  #count(chars: number): boolean {
    if (this.#thread !== null) return false;
    if (this.#switching !== null) {
      void this.#switching.then(() => this.#active().notify()); // committed during the handover: the next pass reads its mark
      return true;
    }
    if (this.#failed || this.#closed) return false;
    this.#chars += chars;
    if (this.#chars < this.#threshold) return false;
    this.#switching = this.#handOver().finally(() => {
      this.#switching = null;
    });
    return true;
  }

  async #handOver(): Promise<void> {
    const local = this.#local;
    await local.stop();
    this.#doneQuads += local.indexedQuads;
    this.#doneFromMemory += local.indexedFromMemory;
    this.#namespaces?.stopAssigning();
    try {
      const thread = await this.#start();
      this.#thread = thread;
      thread.notify();
    } catch {
      // No worker (a failure to start is not a reason to stop the crawl): indexing goes on on this thread, for good.
      this.#failed = true;
      this.#namespaces?.resumeAssigning();
      this.#local = this.#newLocal();
      this.#local.notify();
    }
  }
}

/**
 * How a crawl indexes (openState's `indexWorker`): `RDFSCOUT_INDEX_WORKER=1` in a worker thread from the start, `0` on its
 * own thread; otherwise handed over at the default threshold when the machine has more than one core (on one core the
 * worker would only add its start-up and messages).
 */
export function indexInWorker(env: NodeJS.ProcessEnv = process.env): false | IndexerHandoverOptions {
  const said = env.RDFSCOUT_INDEX_WORKER;
  if (said === '1') return { thresholdChars: 0 };
  if (said === '0') return false;
  return availableParallelism() > 1 ? {} : false;
}
