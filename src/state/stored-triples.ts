// **storedQuads** reads one stored document (its N-Triples values, document-keys.ts) back as quads, a value at a time.
import type { Quad } from '@rdfjs/types';
import { Parser } from 'n3';
import type { DataFactory } from 'rdf-data-factory';
import { docKey, docKeyRange } from './document-keys.ts';
import type { AnySublevel } from './txn.ts';

/** Where stored documents are read from: the crawl state's `docs` sublevel and its data factory. */
export interface StoredDocuments {
  readonly dataFactory: DataFactory;
  /** Document values: key `graph\u0000nnnnnn` → N-Triples text (see document-keys.ts). */
  readonly docs: AnySublevel;
}

/**
 * The quads of the document stored under `graphIri` (graph = `graphIri`), one array per slice of a stored value: a big document
 * is never materialised whole. `chunks` is the document's number of values when known (the indexer's mark holds it):
 * each is then read by its key (a point read; a range read builds a LevelDB iterator over every table, which cost 0.1
 * ms per value, half the indexer's time in bench:throughput's profile). Otherwise the values are read in key order,
 * each with a closed iterator (an open one pins a LevelDB version), until none is left.
 */
export async function* storedQuads(store: StoredDocuments, graphIri: string, chunks?: unknown): AsyncGenerator<Quad[]> {
  const df = store.dataFactory;
  const graph = df.namedNode(graphIri);
  for await (const text of storedValues(store.docs, graphIri, chunks)) yield* quadsOfValue(df, graph, text);
}

/** The stored values (N-Triples text) of the document `graphIri`, in order, read as {@link storedQuads} reads them. */
export async function* storedValues(docs: AnySublevel, graphIri: string, chunks?: unknown): AsyncGenerator<string> {
  const counted = typeof chunks === 'number' && Number.isInteger(chunks) && chunks >= 0;
  for (let chunk = 0; !counted || chunk < chunks; chunk++) {
    const text = counted ? ((await docs.get(docKey(graphIri, chunk))) as string | undefined) : await chunkInRange(docs, graphIri, chunk);
    if (text === undefined) return;
    yield text;
  }
}

function* quadsOfValue(df: DataFactory, graph: ReturnType<DataFactory['namedNode']>, text: string): Generator<Quad[]> {
  // A few lines at a time: the quads of a whole value (~3,000), alive while index batches are written, reached V8's
  // old generation and raised RSS by ~15 MB indexing a 1.5 MB Turtle file.
  const inGraph = graphFactory(df, graph);
  for (const lines of slicesOfLines(text, SLICE_CHARS)) yield parseTriples(lines, inGraph);
}

/**
 * `df` whose `quad` puts every quad in `graph`: the parser builds each quad once, in its document's graph, where a
 * copy of every parsed quad into the graph was a third of the indexer's allocations (a CPU profile of a 50,000-triple
 * document: the GC threads spent ~0.2 CPU s of ~1 s).
 */
function graphFactory(df: DataFactory, graph: ReturnType<DataFactory['namedNode']>): DataFactory {
  const factory = Object.create(df) as DataFactory;
  factory.quad = ((s: Quad['subject'], p: Quad['predicate'], o: Quad['object']) => df.quad(s, p, o, graph)) as DataFactory['quad'];
  return factory;
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

/** Chunk `n` of a document, or the next one there is (undefined when none is left), read with a closed iterator. */
async function chunkInRange(docs: AnySublevel, graphIri: string, n: number): Promise<string | undefined> {
  const values = (await docs.values({ ...docKeyRange(graphIri, n), limit: 1 }).all()) as string[];
  return values[0];
}

/**
 * Parses stored N-Triples (written by n3's Writer; blank node labels kept as written, so the indexes and a read of the
 * document name them alike). A line n3 cannot read back (not expected: the same library wrote it) is skipped rather
 * than blocking the index; the value stays in `docs`.
 */
function parseTriples(text: string, factory?: DataFactory): Quad[] {
  const opts = { format: 'N-Triples', blankNodePrefix: '', ...(factory === undefined ? {} : { factory }) };
  try {
    return new Parser(opts).parse(text);
  } catch {
    const out: Quad[] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        out.push(...new Parser(opts).parse(line));
      } catch {
        // skipped: see above
      }
    }
    return out;
  }
}
