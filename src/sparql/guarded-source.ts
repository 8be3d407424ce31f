// **GuardedSource**: the read-only RDF/JS source Comunica reads: the documents' quads, their merge, the crawl graph.
import type { Quad, Quad_Graph, Quad_Object, Quad_Predicate, Quad_Subject, Term } from '@rdfjs/types';
import type { AsyncIterator } from 'asynciterator';
import type { DataFactory } from 'rdf-data-factory';
import { CrawlGraphView } from '../crawl-log/crawl-graph-view.ts';
import { CRAWL_GRAPH } from '../crawl-log/crawl-vocab.ts';
import { asShardSet, type CrawlSource } from '../crawl-log/shard-merge.ts';
import { emptyIterator, pullIterator } from '../state/pull-iterator.ts';
import { ShardStores, type Trackable } from './shard-stores.ts';

/** Whether a pattern's graph term names the crawl graph (a view over the records, CrawlGraphView). */
function isCrawlGraph(graph: Term | null | undefined): boolean {
  return graph?.termType === 'NamedNode' && graph.value === CRAWL_GRAPH;
}

/**
 * The dataset every query sees (README "SPARQL semantics"):
 * - the default graph is the RDF merge of all document graphs (plus quads stored in the real default graph): each
 *   triple once, however many documents state it (SPARQL 1.1 §13.1; {@link unionDedupe}); the crawl-metadata graph
 *   `urn:rdfscout:crawl` is not part of it;
 * - the named graphs are the documents (named by URL) and the crawl graph, each with its own triples.
 * Over several shards read as one crawl, a document stored in several shards is read from the one that
 * wins it, and the default graph stays a set across shards (shard-stores.ts).
 *
 * It only reads (no `import`/`remove`, so no Comunica update actor can write through it), remembers every
 * iterator it hands out, and destroys them all on {@link destroyAll} (a query closed early).
 */
/** A dataset named by the request (SPARQL 1.1 Protocol `default-graph-uri` / `named-graph-uri`, §2.1.4). */
export interface RequestDataset {
  /** Graphs whose merge is the default graph (none: an empty default graph). */
  readonly defaultGraphs: readonly string[];
  /** The only named graphs the query sees. */
  readonly namedGraphs: readonly string[];
}

export class GuardedSource {
  readonly #df: DataFactory;
  readonly #stores: ShardStores;
  readonly #view: CrawlGraphView;
  readonly #dataset: RequestDataset | null;
  #closed = false;
  readonly #inFlight = new Set<Promise<number>>();
  readonly #live = new Set<{ destroy(): void; done: boolean }>();

  /** `dataset`, when given, replaces the default dataset described above (as FROM / FROM NAMED would). */
  constructor(source: CrawlSource, dataset: RequestDataset | null = null) {
    const set = asShardSet(source);
    this.#df = (set.states[0] as { dataFactory: DataFactory }).dataFactory;
    this.#stores = new ShardStores(set, (it) => this.#track(it));
    this.#view = new CrawlGraphView(set);
    this.#dataset = dataset;
  }

  match(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): unknown {
    if (this.#closed) return emptyIterator<Quad>();
    const dataset = this.#dataset;
    if (dataset !== null) {
      // A request dataset: the default graph merges the listed graphs; only the listed named graphs exist.
      if (graph?.termType === 'DefaultGraph') {
        if (dataset.defaultGraphs.length === 0) return emptyIterator<Quad>();
        return this.#merged(subject as Quad_Subject, predicate as Quad_Predicate, object as Quad_Object, new Set(dataset.defaultGraphs));
      }
      const names = graph ? (dataset.namedGraphs.includes(graph.value) && graph.termType === 'NamedNode' ? [graph.value] : []) : dataset.namedGraphs;
      const parts = names.map((name) => this.#named(subject, predicate, object, name));
      return this.#pulled(
        (async function* () {
          for (const part of parts) yield* part();
        })(),
      );
    }
    if (isCrawlGraph(graph)) return this.#pulled(this.#view.match(subject, predicate, object));
    const s = (subject ?? undefined) as Quad_Subject | undefined;
    const p = (predicate ?? undefined) as Quad_Predicate | undefined;
    const o = (object ?? undefined) as Quad_Object | undefined;
    if (graph?.termType === 'DefaultGraph') return this.#merged(s, p, o);
    const it = this.#stores.match(s, p, o, (graph ?? undefined) as Quad_Graph | undefined);
    if (graph) return it;
    // Any graph: the stored quads, then the crawl graph's.
    const view = this.#view;
    return this.#pulled(
      (async function* () {
        yield* it as unknown as AsyncIterable<Quad>;
        yield* view.match(subject, predicate, object);
      })(),
    );
  }

  /**
   * An upper bound of the matches (quadstore's approximate size; duplicates across documents counted). Comunica
   * uses it to plan joins; the answers themselves come from {@link match}. Once {@link destroyAll} has run, 0
   * without touching the store: the engine still plans (a bind join asks per binding) after a query is closed, and
   * the query worker closes the store then ({@link settled}); a count that fails because of it is 0 too.
   */
  async countQuads(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): Promise<number> {
    if (this.#closed) return 0;
    const counting = this.#countAll(subject, predicate, object, graph);
    this.#inFlight.add(counting);
    try {
      return await counting;
    } catch (err) {
      if (this.#closed) return 0;
      throw err;
    } finally {
      this.#inFlight.delete(counting);
    }
  }

  /** Resolves once no store call of {@link countQuads} is running (the store may then be closed). */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async #countAll(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): Promise<number> {
    if (this.#dataset !== null) {
      const d = this.#dataset;
      const names = graph?.termType === 'DefaultGraph' ? d.defaultGraphs : graph ? (d.namedGraphs.includes(graph.value) ? [graph.value] : []) : d.namedGraphs;
      const df = this.#df;
      let sum = 0;
      for (const name of names) sum += await this.#count(subject, predicate, object, df.namedNode(name));
      return sum;
    }
    return this.#count(subject, predicate, object, graph);
  }

  async #count(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): Promise<number> {
    if (isCrawlGraph(graph)) return this.#view.count(subject, predicate, object);
    const g = graph?.termType === 'DefaultGraph' ? undefined : ((graph ?? undefined) as Quad_Graph | undefined);
    const stored = await this.#stores.count(
      (subject ?? undefined) as Quad_Subject | undefined,
      (predicate ?? undefined) as Quad_Predicate | undefined,
      (object ?? undefined) as Quad_Object | undefined,
      g,
    );
    return graph ? stored : stored + (await this.#view.count(subject, predicate, object));
  }

  /** Stops every iterator handed out and answers later calls with nothing. Idempotent. */
  destroyAll(): void {
    this.#closed = true;
    for (const it of this.#live) if (!it.done) it.destroy();
    this.#live.clear();
  }

  /**
   * The default graph: all graphs but the crawl graph (or only `graphs`), read in an index order, each triple
   * once, in the default graph. The crawl graph joins the merge only when `graphs` names it.
   */
  #merged(subject: Quad_Subject | undefined, predicate: Quad_Predicate | undefined, object: Quad_Object | undefined, graphs?: ReadonlySet<string>): AsyncIterator<Quad> {
    const df = this.#df;
    const wanted = (q: Quad): boolean => (graphs ? graphs.has(q.graph.value) && q.graph.termType === 'NamedNode' : !(q.graph.termType === 'NamedNode' && q.graph.value === CRAWL_GRAPH));
    if (graphs?.has(CRAWL_GRAPH)) {
      const stored = this.#merged(subject, predicate, object, new Set([...graphs].filter((g) => g !== CRAWL_GRAPH)));
      const view = this.#view;
      return this.#pulled(
        (async function* () {
          yield* stored as unknown as AsyncIterable<Quad>;
          for await (const q of view.match(subject, predicate, object)) yield df.quad(q.subject, q.predicate, q.object, df.defaultGraph());
        })(),
      );
    }
    if ((subject as Term | undefined)?.termType === 'Literal') return emptyIterator<Quad>(); // no quad has a literal subject
    const merged = this.#stores
      .merged(subject, predicate, object, wanted)
      .map((q) => (q.graph.termType === 'DefaultGraph' ? q : df.quad(q.subject, q.predicate, q.object, df.defaultGraph())));
    this.#track(merged);
    return merged;
  }

  /** One named graph's matching quads, as a generator to run when its turn comes. */
  #named(subject?: Term | null, predicate?: Term | null, object?: Term | null, name?: string): () => AsyncIterable<Quad> {
    return () => {
      if (name === CRAWL_GRAPH) return this.#view.match(subject, predicate, object);
      const it = this.#stores.match(subject as Quad_Subject, predicate as Quad_Predicate, object as Quad_Object, this.#df.namedNode(name ?? ''));
      return it as unknown as AsyncIterable<Quad>;
    };
  }

  #track(it: Trackable): void {
    this.#live.add(it);
    it.once('end', () => this.#live.delete(it));
  }

  /** An iterator over `quads`, pulled as Comunica reads (pull-iterator.ts), stopped by {@link destroyAll}. */
  #pulled(quads: AsyncIterable<Quad>): AsyncIterator<Quad> {
    const it = pullIterator(quads);
    this.#track(it);
    return it;
  }
}
