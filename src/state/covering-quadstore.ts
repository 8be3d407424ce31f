// **CoveringQuadstore**: quadstore over three SPARQL indexes instead of six; a document's own quads are read from its stored values.
import type { Quad, Term } from '@rdfjs/types';
import { type AsyncIterator, TransformIterator } from 'asynciterator';
import { Quadstore, ResultType, type StoreOpts } from 'quadstore';
import { docKeyRange } from './document-keys.ts';
import { type StoredDocuments, storedQuads } from './stored-triples.ts';
import { emptyIterator, pullIterator } from './pull-iterator.ts';
import type { NamespacePrefixes } from './namespace-prefixes.ts';
import type { AnySublevel } from './txn.ts';

type TermName = 'subject' | 'predicate' | 'object' | 'graph';
type Pattern = Parameters<Quadstore['getStream']>[0];
type GetOpts = NonNullable<Parameters<Quadstore['getStream']>[1]>;
type WriteBatch = (batch: Parameters<NamespacePrefixes['stage']>[0], opts: unknown) => Promise<void>;

/**
 * The indexes written for every quad. Each costs one LevelDB key per quad, and writing and compacting
 * those keys is most of a bulk load's CPU (bench:store, docs/research-notes.md "Storage"). Quadstore's six became four (SPOG, GSPO,
 * POGS, OGSP), then three: GSPO is left out because the stored documents are a graph index already (one value range
 * per graph, document-keys.ts), and patterns led by the graph are read there ({@link readsDocument}). The three
 * two-term prefixes cover SP, PO and OG, and every set of one, three or four bound terms but G alone and PG; SO is
 * read through S (SPOG) and filtered (see {@link coverPattern}). The three are among quadstore's default six, so a
 * store written with six (or the four) is read with these as it is.
 */
export const INDEXES: readonly (readonly TermName[])[] = [
  ['subject', 'predicate', 'object', 'graph'],
  ['predicate', 'object', 'graph', 'subject'],
  ['object', 'graph', 'subject', 'predicate'],
];

const NAMES: readonly TermName[] = ['subject', 'predicate', 'object', 'graph'];

/**
 * Splits a pattern into the part an index reads as a key prefix (`covered`) and the bound terms left to filter
 * (`rest`): the index whose leading terms are all bound and most numerous wins, the first listed on a tie (SO → S via
 * SPOG). Quadstore reads a literal (or a range) only as the last term of a prefix, so a prefix ends at one. A range
 * is never left to filter.
 */
export function coverPattern(pattern: Pattern, indexes: readonly (readonly TermName[])[]): { covered: Pattern; rest: TermName[] } {
  const bound = NAMES.filter((n) => pattern[n] !== undefined && pattern[n] !== null);
  const isValue = (n: TermName): boolean => {
    const type = (pattern[n] as { termType: string }).termType;
    return type === 'Literal' || type === 'Range';
  };
  let best: readonly TermName[] = [];
  for (const index of indexes) {
    let k = 0;
    while (k < index.length && bound.includes(index[k] as TermName)) {
      k++;
      if (isValue(index[k - 1] as TermName)) break; // nothing can follow a literal in a key prefix
    }
    if (k > best.length) best = index.slice(0, k);
  }
  const rest = bound.filter((n) => !best.includes(n));
  if (rest.length === 0 || rest.some((n) => (pattern[n] as { termType: string }).termType === 'Range')) return { covered: pattern, rest: [] };
  const covered: Pattern = {};
  for (const n of best) (covered as Record<TermName, unknown>)[n] = pattern[n];
  return { covered, rest };
}

/**
 * Whether a pattern is read from the stored document of its graph rather than from an index: the graph is a named
 * node, the subject is free, and no index prefix reaches the graph (G, PG, and a literal object with the graph, which
 * quadstore's six indexes refused). One document's values are a bounded read, where the best index prefix (P, or a
 * literal object) may span every document. A range is left to the indexes.
 */
export function readsDocument(pattern: Pattern, covered: Pattern): boolean {
  const graph = pattern.graph as Term | undefined | null;
  if (graph?.termType !== 'NamedNode' || (pattern.subject ?? null) !== null) return false;
  if ((pattern.object as { termType?: string } | undefined)?.termType === 'Range') return false;
  return covered.graph === undefined;
}

/** The stored documents and their pending marks (rdf/document-writer.ts), for the reads {@link readsDocument} picks. */
export interface DocumentSource extends StoredDocuments {
  /** Documents whose values are being written by a fetch that has not committed: read as empty. */
  readonly pending: AnySublevel;
}

/**
 * A Quadstore whose reads accept every pattern with {@link INDEXES}: a pattern led by the graph is read from that
 * document's stored values, an uncovered pair by its covered part; both are then filtered. Without `documents` (a
 * bare index, as in the tests of old stores) a graph-led pattern is a scan of SPOG, filtered.
 */
export class CoveringQuadstore extends Quadstore {
  readonly #documents: DocumentSource | null;

  /**
   * `namespaces`: the dictionary behind `opts.prefixes` when it is a {@link NamespacePrefixes}; every write then
   * carries the ids its keys use, in the same batch (quadstore's `writeBatch`, the one step every put, delete and
   * patch goes through, is wrapped: it is private in quadstore's types, hence the property).
   */
  constructor(opts: StoreOpts, documents: DocumentSource | null = null, namespaces: NamespacePrefixes | null = null) {
    super(opts);
    this.#documents = documents;
    if (namespaces !== null) {
      const write = (this as unknown as { writeBatch: WriteBatch }).writeBatch.bind(this);
      const withIds: WriteBatch = async (batch, writeOpts) => {
        const staged = namespaces.stage(batch);
        await write(batch, writeOpts);
        namespaces.saved(staged);
      };
      Object.defineProperty(this, 'writeBatch', { value: withIds });
    }
  }

  /**
   * Quadstore's own `match` hands out asynciterator's `WrappingIterator` over the promised stream. Its `read()`
   * returns null without clearing its `readable` flag when its source is not readable; a `readable` event that
   * arrives late then leaves the flag set, the source's next `readable` changes nothing and is not passed on, and a
   * reader waiting for it (Comunica) waits forever: GRAPH <doc> { ?s a ?c } stalled in most runs. A
   * `TransformIterator` pulls its source by `read()` whenever its own buffer runs low, whatever the flag says.
   * It starts on its first read, not at once: started, it reads an empty match to its end and emits `end` before a
   * Comunica GROUP BY, hash join or MINUS over it listens (they listen when first read), which then waits forever
   * (pull-iterator.ts).
   */
  override match(subject?: Quad['subject'] | null, predicate?: Quad['predicate'] | null, object?: Quad['object'] | null, graph?: Quad['graph'] | null): AsyncIterator<Quad> {
    if ((subject as { termType?: string } | null | undefined)?.termType === 'Literal') return emptyIterator<Quad>(); // no quad has a literal subject
    const pattern = { subject: subject ?? undefined, predicate: predicate ?? undefined, object: object ?? undefined, graph: graph ?? undefined } as Pattern;
    // A source function, not a promise: the read (a LevelDB iterator) starts on the first read too, and a match
    // never read (a destroyed query) opens none.
    return new TransformIterator<Quad>(() => this.getStream(pattern).then((r) => r.iterator), { autoStart: false });
  }

  override async getStream(pattern: Pattern, opts: GetOpts = {}): ReturnType<Quadstore['getStream']> {
    const { covered, rest } = coverPattern(pattern, this.indexes.map((i) => i.terms));
    const documents = this.#documents;
    if (documents !== null && readsDocument(pattern, covered)) {
      const graph = (pattern.graph as Term).value;
      const want = (['predicate', 'object'] as const).filter((n) => pattern[n] !== undefined && pattern[n] !== null).map((n) => [n, pattern[n] as Term] as const);
      let iterator = pullIterator(documentQuads(documents, graph)).filter((q: Quad) => want.every(([n, t]) => q[n].equals(t)));
      if (opts.limit !== undefined) iterator = iterator.take(opts.limit);
      return { type: ResultType.QUADS, order: [], iterator, index: [], resorted: false };
    }
    // A key holds term values, their types only in its tail, and a literal bound in a prefix is read as a range: a
    // bound subject or object is checked again, or "x" matches <x>, _:x and "x"@lang's key ("lang" + separator + value).
    const exact = (['subject', 'object'] as const).filter((n) => covered[n] !== undefined && covered[n] !== null && (covered[n] as { termType: string }).termType !== 'Range');
    if (rest.length === 0 && exact.length === 0) return super.getStream(pattern, opts);
    const { limit, ...unlimited } = opts;
    const result = await super.getStream(covered, unlimited);
    const want = [...rest, ...exact].map((n) => [n, pattern[n] as Term] as const);
    let iterator = result.iterator.filter((q: Quad) => want.every(([n, t]) => q[n].equals(t)));
    if (limit !== undefined) iterator = iterator.take(limit);
    return { ...result, iterator };
  }

  /** An upper bound, as quadstore's own (bytes of a key range): of the document's values, or of the covered part's keys. */
  override async getApproximateSize(pattern: Pattern, opts: GetOpts = {}): ReturnType<Quadstore['getApproximateSize']> {
    const { covered } = coverPattern(pattern, this.indexes.map((i) => i.terms));
    const documents = this.#documents;
    if (documents !== null && readsDocument(pattern, covered)) {
      const db = this.db as { approximateSize?: (start: string, end: string) => Promise<number> };
      if (db.approximateSize === undefined) return { type: ResultType.APPROXIMATE_SIZE, approximateSize: Number.POSITIVE_INFINITY };
      const range = docKeyRange((pattern.graph as Term).value);
      const size = await db.approximateSize(documents.docs.prefixKey(range.gte, 'utf8'), documents.docs.prefixKey(range.lt, 'utf8'));
      return { type: ResultType.APPROXIMATE_SIZE, approximateSize: Math.max(1, size) };
    }
    return super.getApproximateSize(covered, opts);
  }
}

/** The quads of one stored document, none while a fetch is still writing it (its pending mark, checked after the first value as export does). */
async function* documentQuads(documents: DocumentSource, graph: string): AsyncGenerator<Quad> {
  let first = true;
  for await (const quads of storedQuads(documents, graph)) {
    if (first && (await documents.pending.get(graph)) !== undefined) return;
    first = false;
    yield* quads;
  }
}
