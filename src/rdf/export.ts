// **exportNQuads** streams every stored quad as N-Quads, with constant memory and back-pressure.
import type { Quad } from '@rdfjs/types';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writer } from 'n3';
import { CrawlGraphView } from '../sparql/crawl-graph-view.ts';
import type { CrawlState } from '../state/open-state.ts';

/** Lines are grouped into strings of about this many characters before being written. */
const FLUSH_CHARS = 64 * 1024;

export interface ExportOptions {
  /** End `out` when done. Default: true, except for `process.stdout`/`process.stderr`, which are never ended. */
  end?: boolean;
  /** Also write the crawl-metadata graph `urn:rdfscout:crawl` (a view over the records). Default: false. */
  withCrawlGraph?: boolean;
}

/**
 * Writes all quads of the store to `out` as N-Quads, one quad per line: the stored ones (every document graph) in
 * the store's index order, then, with `withCrawlGraph`, the crawl-metadata graph (a view over the records,
 * CrawlGraphView) in fetch order. Like the SPARQL default graph, the export holds the documents' data only unless
 * the crawl graph is asked for.
 * Memory stays constant: quads are read lazily and written through `pipeline`, which waits while `out` is full.
 * Resolves with the number of quads written.
 */
export async function exportNQuads(state: CrawlState, out: NodeJS.WritableStream, opts: ExportOptions = {}): Promise<number> {
  let count = 0;
  const writer = new Writer({ format: 'N-Quads' });
  async function* lines(): AsyncGenerator<string> {
    let buffer = '';
    const stored = state.quadstore.match() as unknown as AsyncIterable<Quad>;
    const view = opts.withCrawlGraph ? new CrawlGraphView(state) : null;
    const quads = (async function* () {
      yield* stored;
      if (view) yield* view.match();
    })();
    for await (const q of quads) {
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
