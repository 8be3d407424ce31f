// **exportNQuads** streams every stored quad as N-Quads, with constant memory and back-pressure.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writer } from 'n3';
import { CrawlGraphView } from '../crawl-log/crawl-graph-view.ts';
import { asShardSet, type CrawlSource } from '../crawl-log/shard-merge.ts';
import { graphOfDocKey } from '../state/document-keys.ts';
import { pendingGraphs } from './document-writer.ts';
import { invalidTermIn } from './validate-ntriples.ts';

/** Lines are grouped into strings of about this many characters before being written. */
const FLUSH_CHARS = 64 * 1024;

/** Stored values read per page (each page's iterator is closed before its values are written out). */
const PAGE = 64;

export interface ExportOptions {
  /** End `out` when done. Default: true, except for `process.stdout`/`process.stderr`, which are never ended. */
  end?: boolean;
  /** Also write the crawl-metadata graph `urn:rdfscout:crawl` (a view over the records). Default: false. */
  withCrawlGraph?: boolean;
  /**
   * Told of each stored line that is not valid RDF (validate-ntriples.ts: a relative IRI, a `rdf:langString` without a
   * language, …), which is left out of the export and of its count. Default: such lines are left out silently.
   */
  onInvalid?: (invalid: { graph: string; line: string; reason: string }) => void;
}

/**
 * Writes all quads of the store (of every shard of `source`, as one crawl) to `out` as N-Quads, one quad per line: the stored documents (state.docs, in graph
 * IRI order, each document's lines in stored order), then, with `withCrawlGraph`, the crawl-metadata graph (a view
 * over the records, CrawlGraphView) in fetch order. Like the SPARQL default graph, the export holds the documents'
 * data only unless the crawl graph is asked for. The documents are read from their stored N-Triples values directly
 *, so export neither needs nor waits for the SPARQL indexes. Memory stays constant: values are read a page
 * at a time and written through `pipeline`, which waits while `out` is full. Each line is checked (validate-ntriples.ts)
 * and a line that is not valid RDF is declined (`onInvalid`). Resolves with the number of quads written.
 */
export async function exportNQuads(source: CrawlSource, out: NodeJS.WritableStream, opts: ExportOptions = {}): Promise<number> {
  let count = 0;
  const writer = new Writer({ format: 'N-Quads' });
  const set = asShardSet(source);
  async function* lines(): AsyncGenerator<string> {
    // Several shards read as one crawl: shard after shard, each document from the shard that wins it (shard-merge.ts).
    for (const [i, state] of set.states.entries()) {
      const excluded = set.plan.excluded[i];
      let after: string | undefined;
      // Documents still being written by a fetch that has not committed (or orphaned by a crash) are left out: their
      // pending mark is written before their first chunk and removed with their record, so checking the marks after
      // reading a page tells; once left out, a document stays out.
      const skipped = new Set<string>();
      for (;;) {
        const page = (await state.docs.iterator(after === undefined ? { limit: PAGE } : { gt: after, limit: PAGE }).all()) as Array<[string, string]>;
        if (page.length === 0) break;
        const pending = await pendingGraphs(state);
        for (const [key, text] of page) {
          const iri = graphOfDocKey(key);
          if (pending.has(iri)) skipped.add(iri);
          if (excluded?.has(iri) || skipped.has(iri)) continue;
          // N-Triples line ends are ` .\n` and nowhere else (a literal's newline is escaped): put the graph before them.
          const graph = ` ${graphTerm(writer, iri)} .\n`;
          const quads = text.split(' .\n');
          quads.pop(); // after the last line end
          // Every line is checked before it is written: what a reader would refuse is declined and reported.
          const valid = quads.filter((line) => {
            const reason = invalidTermIn(`${line} .`);
            if (reason !== null) opts.onInvalid?.({ graph: iri, line, reason });
            return reason === null;
          });
          count += valid.length;
          if (valid.length > 0) yield `${valid.join(graph)}${graph}`;
        }
        after = page[page.length - 1]?.[0];
      }
    }
    let buffer = '';
    const view = opts.withCrawlGraph ? new CrawlGraphView(set) : null;
    for await (const q of view ? view.match() : []) {
      buffer += writer.quadToString(q.subject, q.predicate, q.object, q.graph);
      count++;
      if (buffer.length >= FLUSH_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
    if (buffer !== '') yield buffer;
  }
  const isStdio = out === process.stdout || out === process.stderr;
  await pipeline(Readable.from(lines()), out, { end: opts.end ?? !isStdio });
  return count;
}

const STUB = '<x:> <x:> <x:> ';

/** A graph IRI written exactly as n3's Writer writes it (its escapes included), from one stub quad's line. */
function graphTerm(writer: Writer, iri: string): string {
  const stub = { termType: 'NamedNode', value: 'x:' } as never;
  const line = writer.quadToString(stub, stub, stub, { termType: 'NamedNode', value: iri } as never);
  return line.slice(STUB.length, -' .\n'.length);
}
