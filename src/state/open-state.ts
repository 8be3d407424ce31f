// **openState** opens the one LevelDB folder that holds a crawl: quads, frontier, records, learned state.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { ClassicLevel } from 'classic-level';
import type { Quadstore } from 'quadstore';
import { DataFactory } from 'rdf-data-factory';
import { RdfscoutError } from '../errors.ts';
import { CoveringQuadstore, INDEXES } from './covering-quadstore.ts';
import { describeHolder, readHolderNote, removeHolderNote, writeHolderNote } from './holder-note.ts';
import { type DocumentIndexer, Indexer } from './indexer.ts';
import { IndexerHandover, type IndexerHandoverOptions } from './indexer-handover.ts';
import { IndexerThread } from './indexer-thread.ts';
import { flushMemtable, LEVEL_OPTIONS } from './level-options.ts';
import { NamespacePrefixes } from './namespace-prefixes.ts';
import { cleanOrphanDocuments } from './orphan-documents.ts';
import { type AnySublevel, GroupCommitter, LevelTxn } from './txn.ts';

/** Names of the sublevels. Quadstore writes its indexes at the root (its keys never start with `!`). */
const SUBLEVELS = ['frontier', 'seen', 'frontier-rdf', 'seen-rdf', 'records', 'record-urls', 'meta', 'learned', 'bandit-arms', 'links', 'redirects', 'badlinks', 'partials', 'extlinks', 'sites', 'unindexed', 'to-sink', 'docs-pending', 'contexts'] as const;
export type SublevelName = (typeof SUBLEVELS)[number];

export interface CrawlState {
  readonly dir: string;
  readonly db: ClassicLevel<string, string>;
  readonly quadstore: Quadstore;
  readonly dataFactory: DataFactory;
  /** JSON-valued sublevels by name. */
  readonly sub: Readonly<Record<SublevelName, AnySublevel>>;
  /** The stored documents: N-Triples text values (utf8), keys from state/document-keys.ts. */
  readonly docs: AnySublevel;
  /** Loads stored documents into quadstore's indexes in the background (on this thread or a worker's); `flush()` waits for it. */
  readonly indexer: DocumentIndexer;
  /** A new transaction over this state. */
  txn(): LevelTxn;
  close(): Promise<void>;
}

/** Options of {@link openState}. */
export interface OpenStateOptions {
  /**
   * Whether this handle indexes stored documents in the background (and at close). False for a second handle of the
   * same process (a query worker sharing the LevelDB handle): the crawl's own handle indexes. Default: true.
   */
  index?: boolean;
  /**
   * With `index`: once enough documents are committed, indexing moves to a worker thread sharing this LevelDB handle
   * (indexer-handover.ts), so that a crawl's main thread only stores documents while another core indexes them; the
   * worker then gives namespace ids and this handle only reads them. `true` or the handover's options. Default:
   * false (this thread indexes).
   */
  indexWorker?: boolean | IndexerHandoverOptions;
}

/**
 * Opens (creating if needed) the crawl state under `dir` (LevelDB in `dir/db`).
 * Fails with RDFSCOUT_STORE_LOCKED when another process holds it (LevelDB admits one process).
 */
export async function openState(dir: string, opts: OpenStateOptions = {}): Promise<CrawlState> {
  const indexes = opts.index ?? true;
  const handle = await openHandle(dir, indexes);
  const { db, dataFactory, sub, docs, quadstore } = handle;
  const indexer: DocumentIndexer =
    indexes && opts.indexWorker !== undefined && opts.indexWorker !== false
      ? new IndexerHandover(handle.indexer, handle.newIndexer, () => IndexerThread.start(dir), handle.namespaces, opts.indexWorker === true ? {} : opts.indexWorker)
      : handle.indexer;
  if (indexes) {
    // Chunks of documents whose fetch never committed (a crash while a large document was being written) go first.
    await cleanOrphanDocuments(docs, sub['docs-pending']);
    indexer.notify(); // documents a crash left unindexed catch up soon after opening
  }
  // The handle that indexes is the process's own (a query worker's shares it): it says who holds the store.
  if (indexes && isMainThread) await writeHolderNote(dir);
  const committer = new GroupCommitter(db);
  return {
    dir,
    db,
    quadstore,
    dataFactory,
    sub,
    docs,
    indexer,
    txn: () => new LevelTxn(committer),
    close: async () => {
      // What cannot be indexed now stays marked, and the next open indexes it: closing loses nothing.
      if (indexes && db.status === 'open') await indexer.close().catch(() => {});
      if (indexes && isMainThread && db.status === 'open') await flushMemtable(db).catch(() => {}); // the next open replays the log otherwise
      await quadstore.close();
      if (indexes && isMainThread) await removeHolderNote(dir);
      if (db.status === 'open') await db.close();
    },
  };
}

/** The parts of a crawl state one thread's handle holds, with an {@link Indexer} of its own (used only by the thread that indexes). */
interface Handle {
  readonly db: ClassicLevel<string, string>;
  readonly dataFactory: DataFactory;
  readonly sub: Readonly<Record<SublevelName, AnySublevel>>;
  readonly docs: AnySublevel;
  readonly quadstore: Quadstore;
  readonly namespaces: NamespacePrefixes | null;
  readonly indexer: Indexer;
  /** Another indexer over this handle (the first one stopped). */
  readonly newIndexer: () => Indexer;
}

/**
 * The handle of the indexing worker thread (indexer-handover.ts): the LevelDB handle shared with the main thread's,
 * which opened the store first (orphans cleaned, store marked) and gives no namespace ids any more: this one does.
 */
export async function openIndexingHandle(dir: string): Promise<Handle> {
  return openHandle(dir, true);
}

/**
 * Opens `dir`'s LevelDB (shared between the threads of this process) and quadstore over it. `writer`: whether this
 * handle writes index keys, and so gives namespace ids (one handle at a time: the main thread's, or the worker's
 * it handed over to); a reader only reads them.
 */
async function openHandle(dir: string, writer: boolean): Promise<Handle> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new RdfscoutError('RDFSCOUT_STORE_FAILED', `Cannot create the output folder ${dir}: ${(err as Error).message}`, { cause: err });
  }
  const db = new ClassicLevel<string, string>(join(dir, 'db'), { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  try {
    await db.open({ multithreading: true, ...LEVEL_OPTIONS, ...levelOverride() }); // query workers (src/sparql/query-worker.ts) and the indexing worker share this LevelDB handle
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    if ((err as { code?: string }).code === 'LEVEL_LOCKED' || cause?.code === 'LEVEL_LOCKED') {
      throw new RdfscoutError(
        'RDFSCOUT_STORE_LOCKED',
        `The crawl store ${dir} is in use by ${describeHolder(await readHolderNote(dir))} (LevelDB admits one process). Stop it, or query it through its endpoint (\`rdfscout crawl … --serve PORT\`, \`rdfscout serve\`).`,
        { cause: err },
      );
    }
    throw new RdfscoutError('RDFSCOUT_STORE_FAILED', `Cannot open the crawl store ${dir}: ${(err as Error).message}`, { cause: err });
  }
  const dataFactory = new DataFactory();
  const sub = Object.fromEntries(
    SUBLEVELS.map((name) => [name, db.sublevel<string, unknown>(name, { keyEncoding: 'utf8', valueEncoding: 'json' })]),
  ) as unknown as Record<SublevelName, AnySublevel>;
  const docs = db.sublevel<string, string>('docs', { keyEncoding: 'utf8', valueEncoding: 'utf8' }) as unknown as AnySublevel;
  // Patterns led by a document's graph are read from its stored values (covering-quadstore.ts).
  const ns = await openNamespaces(db, sub.meta, writer);
  const quadstore: Quadstore = new CoveringQuadstore(
    { backend: db, dataFactory, indexes: INDEXES.map((i) => [...i]), ...(ns === null ? {} : { prefixes: ns }) },
    { dataFactory, docs, pending: sub['docs-pending'] },
    ns,
  );
  await quadstore.open();
  // 250 quads (750 index keys, three indexes) a batch: indexing a 5 MB Turtle file (158k quads) raised RSS by 59 MB instead of
  // 93 MB with 1,000, for no measurable loss of speed (each batch's keys are copied to native memory at once;
  // measured with bench/document-memory.ts).
  const newIndexer = (): Indexer => new Indexer({ quadstore, dataFactory, docs, unindexed: sub.unindexed }, { batchQuads: 250 });
  return { db, dataFactory, sub, docs, quadstore, namespaces: ns, indexer: newIndexer(), newIndexer };
}

/** Options a benchmark tries instead of {@link LEVEL_OPTIONS} (`RDFSCOUT_LEVEL_OPTIONS`, JSON): a probe, not a setting. */
function levelOverride(): Record<string, unknown> {
  const json = process.env.RDFSCOUT_LEVEL_OPTIONS;
  if (json === undefined) return {};
  try {
    return JSON.parse(json) as Record<string, unknown>;
  } catch (err) {
    throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `RDFSCOUT_LEVEL_OPTIONS is not JSON (${(err as Error).message}): give classic-level's open options, e.g. {"writeBufferSize":4194304}.`, { cause: err });
  }
}

/** The `meta` key that says the index keys are written with namespace ids (namespace-prefixes.ts). */
const NAMESPACE_KEYS = 'index-namespace-ids';

/**
 * The namespace dictionary of the index keys, or null for a store whose keys were written with whole IRIs (before
 * namespace ids): such a store is read and written as it is. A store is marked as using ids when the handle that
 * indexes opens it with no index key yet; the mark is durable before any key is written.
 */
async function openNamespaces(db: ClassicLevel<string, string>, meta: AnySublevel, writer: boolean): Promise<NamespacePrefixes | null> {
  const ns = db.sublevel<string, string>('ns', { keyEncoding: 'utf8', valueEncoding: 'utf8' }) as unknown as AnySublevel;
  if ((await meta.get(NAMESPACE_KEYS)) !== undefined) return NamespacePrefixes.open(ns, { assign: writer });
  if (!writer) return null;
  // Quadstore's index keys start with the index's name (SPOG\u0000\u0000…; six indexes in old stores), the sublevels' with '!'.
  const first = await db.keys({ gte: 'A', lt: '[', limit: 1 }).all();
  if (first.length > 0) return null;
  await meta.put(NAMESPACE_KEYS, true);
  return NamespacePrefixes.open(ns, { assign: writer });
}
