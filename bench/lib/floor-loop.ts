// **runFloorLoop** is issue 18's cost floor: the minimal loop (minimal-loop.ts) plus only the work the issue asks of
// every page, in cumulative stages, so that bench/throughput.ts can say how close to the loop a crawler that stores
// RDF can get at all.
//   floor-fetch        the loop alone, asking for RDF first and fetching the floor's pages (see below): no stage work.
//   floor-rdf          + each RDF response parsed (by its content type; application/xml, JSON and text through the
//                        crawl's sniffer `detectType`), and the RDF embedded in each HTML page (JSON-LD and the Turtle
//                        family in scripts, RDFa, Microdata), with rdfscout's own parsers: `parseRdfDocumentInto` (n3's
//                        whole-text fast path for small Turtle-family texts, the JSON-LD fast path, streaming
//                        otherwise) and `parseDocument` on HTML with the page scan filled by the loop's link pass (one
//                        tokenizer pass per page, as the crawl does). Every quad is counted; a document that fails to
//                        parse keeps none (all or nothing, as the crawl).
//   floor-store        + for every response one LevelDB transaction through src/state/txn.ts's GroupCommitter (one
//                        batch per group of concurrent commits): the document's N-Triples (n3's Writer, the value the
//                        crawl stores, in DOC_CHUNK_CHARS values under `docKey`) and a small JSON record (url, status,
//                        type, quads). The page counts as done when its commit resolved.
//   floor-index        + the quads put into quadstore with the crawl's three indexes and namespace ids (built as
//                        src/state/open-state.ts builds it) by a background pass 500 ms after a commit, 250 quads a
//                        batch, whose batch deletes the `unindexed` marks the documents' transactions wrote (crash
//                        safety as src/state/indexer.ts), taken from memory (not read back from LevelDB); flushed,
//                        the store closed and its folder deleted before the CPU clock stops (as rdfscout's crawl).
//   floor-index-reread as floor-index, but indexed by the crawl's own Indexer (src/state/indexer.ts), which reads each
//                        document's values back from LevelDB and parses the N-Triples again.
//   floor-frontier     floor-index plus a durable frontier in each page's transaction, as src/frontier/level-frontier.ts
//                        keeps it (the brief: a killed process must not drop frontier entries): for every link the page
//                        gave that is new and in scope (the loop's rule, thesis §11), a queue entry under
//                        `queueKey(pld, sortKeyOf(priority, seq))` and a `queued` seen record; the fetched URL's queue
//                        entry deleted and its seen record set to `done`. Nothing else of a crawl (no judging, no records
//                        of links, no robots): the least a crawl that can resume without losing a link writes per page.
// The floor asks for RDF first (rdfscout's DEFAULT_ACCEPT; content-negotiated resources answer with their RDF). Its
// pages are, by default, the very requests an rdfscout bfs crawl of the same web made (bench/throughput.ts records
// them once per web; `LoopOptions.urls`), so that it parses and stores the same documents: links are still read
// from every HTML page and judged new or seen, but not queued. Without a list it follows links as the loop does
// (HTML links and redirects; rdfscout's default does not follow RDF links either).
import type { Quad } from '@rdfjs/types';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writer } from 'n3';
import type { Quadstore } from 'quadstore';
import { DEFAULT_ACCEPT } from '../../src/fetch/index.ts';
import { queueKey, sortKeyOf } from '../../src/frontier/queue-keys.ts';
import { pldOf } from '../../src/links/index.ts';
import { DOC_CHUNK_CHARS, detectType, isParsableRdfType, normaliseMediaType, pageScanFor, parseDocument, parseRdfDocumentInto } from '../../src/rdf/index.ts';
import { docKey } from '../../src/state/document-keys.ts';
import { Indexer } from '../../src/state/indexer.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import type { AnySublevel, LevelTxn } from '../../src/state/txn.ts';
import { type FetchedPage, type LoopOptions, type LoopResult, runMinimalLoop } from './minimal-loop.ts';

/** The cumulative stages; each includes the ones before it. */
export type FloorStage = 'fetch' | 'rdf' | 'store' | 'index' | 'index-reread' | 'frontier';

/** Quads per quadstore batch, as src/state/open-state.ts gives the crawl's Indexer. */
const BATCH_QUADS = 250;
/** How long after a commit a background index pass starts (the Indexer's default). */
const INDEX_DELAY_MS = 500;

/** Counts of what the stages did, reported with the run. */
interface FloorCounts {
  rdfDocuments: number;
  rdfQuads: number;
  htmlPages: number;
  htmlWithRdf: number;
  htmlQuads: number;
  parseErrors: number;
  commits: number;
  storedDocuments: number;
  indexedQuads: number;
}

/** The store stages' crawl store (src/state/open-state.ts, as the crawl opens it) and the parts they write. */
interface FloorStore {
  state: CrawlState;
  docs: AnySublevel;
  records: AnySublevel;
  unindexed: AnySublevel;
  dataFactory: CrawlState['dataFactory'];
  /** The crawl's quadstore (three indexes, namespace ids); used by the index stages only. */
  quadstore: Quadstore;
}

async function openFloorStore(): Promise<FloorStore> {
  const state = await openState(await mkdtemp(join(tmpdir(), 'rdfscout-floor-')));
  await state.indexer.close(); // the stages index themselves (or with their own Indexer): the crawl's stays out
  return { state, docs: state.docs, records: state.sub.records, unindexed: state.sub.unindexed, dataFactory: state.dataFactory, quadstore: state.quadstore };
}

/**
 * The index stage's background loader: documents' quads (graph named) wait in memory from their commit until a pass
 * puts them into quadstore, {@link BATCH_QUADS} a batch, deleting the marks of the documents a batch completes in it.
 */
class BulkIndex {
  readonly #store: FloorStore;
  readonly #quadstore: Quadstore;
  #waiting: Array<{ graph: string; quads: Quad[] }> = [];
  #timer: NodeJS.Timeout | null = null;
  #pass: Promise<void> | null = null;
  indexed = 0;

  constructor(store: FloorStore, quadstore: Quadstore) {
    this.#store = store;
    this.#quadstore = quadstore;
  }

  add(graph: string, quads: Quad[]): void {
    this.#waiting.push({ graph, quads });
    if (this.#timer !== null || this.#pass !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#pass = this.#run().finally(() => {
        this.#pass = null;
      });
    }, INDEX_DELAY_MS);
  }

  async flush(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#pass !== null) await this.#pass;
    await this.#run();
  }

  async #run(): Promise<void> {
    while (this.#waiting.length > 0) {
      const docs = this.#waiting;
      this.#waiting = [];
      let batch: Quad[] = [];
      let done: string[] = [];
      for (const { graph, quads } of docs) {
        for (const q of quads) {
          batch.push(q);
          if (batch.length >= BATCH_QUADS) {
            await this.#write(batch, done);
            batch = [];
            done = [];
          }
        }
        done.push(graph);
      }
      if (batch.length > 0 || done.length > 0) await this.#write(batch, done);
    }
  }

  async #write(quads: Quad[], completed: readonly string[]): Promise<void> {
    const unindexed = this.#store.unindexed;
    const preWrite = async (batch: { del(key: string, opts: unknown): void }): Promise<void> => {
      for (const g of completed) batch.del(g, { sublevel: unindexed });
    };
    await this.#quadstore.multiPut(quads, { preWrite: preWrite as never });
    this.indexed += quads.length;
  }
}

/** The quads of one response as the stages want them: counted; as N-Triples lines (store); as quads (index). */
class DocumentSink {
  count = 0;
  lines: string[] = [];
  chars = 0;
  quads: Quad[] = [];
  readonly #lines: boolean;
  readonly #keep: boolean;
  readonly #writer: Writer | null;

  constructor(lines: boolean, keep: boolean, writer: Writer | null) {
    this.#lines = lines;
    this.#keep = keep;
    this.#writer = writer;
  }

  add(q: Quad): void {
    this.count++;
    if (this.#lines) {
      const line = (this.#writer as Writer).quadToString(q.subject, q.predicate, q.object);
      this.lines.push(line);
      this.chars += line.length;
    }
    if (this.#keep) this.quads.push(q);
  }

  async restart(): Promise<void> {
    this.count = 0;
    this.lines = [];
    this.chars = 0;
    this.quads = [];
  }

  /** The lines as stored values of about DOC_CHUNK_CHARS characters (document-writer.ts). */
  chunks(): string[] {
    if (this.chars <= DOC_CHUNK_CHARS) return this.count === 0 ? [] : [this.lines.join('')];
    const out: string[] = [];
    let part: string[] = [];
    let chars = 0;
    for (const line of this.lines) {
      part.push(line);
      chars += line.length;
      if (chars >= DOC_CHUNK_CHARS) {
        out.push(part.join(''));
        part = [];
        chars = 0;
      }
    }
    if (part.length > 0) out.push(part.join(''));
    return out;
  }
}

/**
 * The frontier stage's durable frontier: LevelFrontier's two key spaces (`frontier`: one entry per queued URL under its
 * PLD's queue key; `seen`: every URL's state), written into each page's transaction. Which URLs are new is decided from
 * memory, as LevelFrontier's seen cache does; what the page was queued under is remembered to delete it when fetched.
 */
class DurableFrontier {
  readonly #queue: AnySublevel;
  readonly #seen: AnySublevel;
  readonly #seeds: readonly string[];
  readonly #seedPlds: Set<string>;
  readonly #known = new Set<string>();
  readonly #queued = new Map<string, { key: string; depth: number }>();
  #seq = 0;
  /** Puts written (queue entries and seen records; the deletes of fetched URLs' entries are not counted). */
  written = 0;

  constructor(state: CrawlState, seeds: readonly string[]) {
    this.#queue = state.sub.frontier;
    this.#seen = state.sub.seen;
    this.#seeds = seeds;
    this.#seedPlds = new Set(seeds.map(pldOf));
    for (const url of seeds) this.#known.add(url);
  }

  /** Queues the seeds (one transaction, before the loop starts). */
  async start(txn: LevelTxn): Promise<void> {
    for (const url of this.#seeds) this.#enqueue(txn, url, pldOf(url), 0);
    await txn.commit();
  }

  /** The fetched page's frontier changes, into its transaction. */
  page(txn: LevelTxn, url: string, links: readonly string[]): void {
    const mine = this.#queued.get(url);
    if (mine !== undefined) {
      txn.del(this.#queue, mine.key);
      this.#queued.delete(url);
    }
    txn.put(this.#seen, url, { state: 'done' });
    this.#known.add(url); // fetched before the page that lists it was read (concurrency): not queued again
    this.written++;
    const pagePld = links.length > 0 ? pldOf(url) : '';
    const depth = (mine?.depth ?? 0) + 1;
    for (const link of links) {
      if (this.#known.has(link)) continue;
      const pld = pldOf(link);
      if (!this.#seedPlds.has(pld) && !this.#seedPlds.has(pagePld)) continue; // thesis §11: one hop out of the seed PLDs
      this.#known.add(link);
      this.#enqueue(txn, link, pld, depth);
    }
  }

  #enqueue(txn: LevelTxn, url: string, pld: string, depth: number): void {
    const seq = ++this.#seq;
    const priority = -depth; // breadth-first: shallower first, then in discovery order
    const key = queueKey(pld, sortKeyOf(priority, seq));
    txn.put(this.#queue, key, { url, pld, host: pld, priority, seq, depth, label: 'H', attempts: 0, notBefore: 0 });
    txn.put(this.#seen, url, { state: 'queued', priority, seq });
    this.#queued.set(url, { key, depth });
    this.written += 2;
  }
}

/** The RDF media type a response is parsed as, or 'html', or null (nothing to parse). */
function kindOf(page: FetchedPage): string | null {
  const type = normaliseMediaType(page.contentType);
  if (type !== null && isParsableRdfType(type)) return type;
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  // RDF served as application/xml, JSON or text (deri serves RDF/XML as application/xml): the crawl's sniffer decides.
  if (type === null || type.startsWith('text/') || /(?:json|xml)$/.test(type)) {
    const detected = detectType(page.body, page.contentType, page.url);
    return detected.kind === 'rdf' ? detected.mediaType : null;
  }
  return null;
}

/** Runs the loop with the work of `stage` added to every page. */
export async function runFloorLoop(opts: LoopOptions, stage: FloorStage): Promise<LoopResult & { extra: Record<string, unknown> }> {
  const store = stage === 'fetch' || stage === 'rdf' ? null : await openFloorStore();
  const bulk = (stage === 'index' || stage === 'frontier') && store !== null ? new BulkIndex(store, store.quadstore) : null;
  const frontier = stage === 'frontier' && store !== null ? new DurableFrontier(store.state, opts.seeds) : null;
  if (frontier !== null && store !== null) await frontier.start(store.state.txn());
  const indexer =
    stage === 'index-reread' && store !== null
      ? new Indexer({ quadstore: store.quadstore, dataFactory: store.dataFactory, docs: store.docs, unindexed: store.unindexed }, { batchQuads: BATCH_QUADS })
      : null;
  const writer = store === null ? null : new Writer({ format: 'N-Triples' });
  const counts: FloorCounts = { rdfDocuments: 0, rdfQuads: 0, htmlPages: 0, htmlWithRdf: 0, htmlQuads: 0, parseErrors: 0, commits: 0, storedDocuments: 0, indexedQuads: 0 };

  const page = async (p: FetchedPage): Promise<void> => {
    if (stage === 'fetch') return;
    const sink = new DocumentSink(store !== null, bulk !== null, writer);
    const kind = kindOf(p);
    if (kind === 'html') {
      counts.htmlPages++;
      const parsed = await parseDocument(p.body, { kind: 'html' }, p.url, undefined, p.scan);
      if (parsed.error !== null) counts.parseErrors++;
      for (const q of parsed.quads) sink.add(q);
      if (sink.count > 0) counts.htmlWithRdf++;
      counts.htmlQuads += sink.count;
    } else if (kind !== null) {
      counts.rdfDocuments++;
      const { error } = await parseRdfDocumentInto(p.body, kind, p.url, sink);
      if (error !== null) {
        counts.parseErrors++;
        await sink.restart(); // all or nothing
      }
      counts.rdfQuads += sink.count;
    }
    if (store === null) return;
    const txn = store.state.txn();
    const chunks = sink.chunks();
    for (let n = 0; n < chunks.length; n++) txn.put(store.docs, docKey(p.url, n), chunks[n]);
    if (chunks.length > 0) {
      counts.storedDocuments++;
      if (bulk !== null || indexer !== null) txn.put(store.unindexed, p.url, chunks.length);
    }
    txn.put(store.records, p.url, { url: p.url, status: p.status, type: p.contentType, quads: sink.count });
    frontier?.page(txn, p.url, p.links);
    await txn.commit();
    counts.commits++;
    if (chunks.length === 0) return;
    if (bulk !== null) {
      const graph = store.dataFactory.namedNode(p.url);
      bulk.add(
        p.url,
        sink.quads.map((q) => store.dataFactory.quad(q.subject, q.predicate, q.object, graph)),
      );
    }
    indexer?.notify();
  };

  try {
    const r = await runMinimalLoop(opts, { accept: DEFAULT_ACCEPT, ...(stage === 'fetch' ? {} : { scanFor: pageScanFor }), page });
    if (bulk !== null) {
      await bulk.flush();
      counts.indexedQuads = bulk.indexed;
    }
    if (indexer !== null) {
      await indexer.close();
      counts.indexedQuads = indexer.indexedQuads;
    }
    return { ...r, extra: { ...counts, triples: counts.rdfQuads + counts.htmlQuads, ...(frontier !== null ? { frontierKeysWritten: frontier.written } : {}) } };
  } finally {
    if (store !== null) {
      await store.state.close();
      await rm(store.state.dir, { recursive: true, force: true });
    }
  }
}
