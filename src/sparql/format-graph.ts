// **writeGraph** serialises CONSTRUCT/DESCRIBE results: N-Quads, N-Triples, Turtle (N3.js), RDF/XML, JSON-LD.
import { Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import { JsonLdSerializer } from 'jsonld-streaming-serializer';
import { Writer } from 'n3';
import type { GraphFormat } from './format-results.ts';
import { writeRdfXml } from './rdfxml-writer.ts';

/** Triples grouped into one chunk when streaming. */
const CHUNK_ROWS = 256;

/**
 * `quads` as `format`, in string chunks. N-Triples, Turtle, RDF/XML and JSON-LD carry triples (CONSTRUCT results
 * are in the default graph anyway); N-Quads keeps graph names. `prefixes` abbreviate Turtle.
 */
export function writeGraph(quads: AsyncIterable<Quad>, format: GraphFormat, prefixes: Readonly<Record<string, string>>): AsyncIterable<string> {
  if (format === 'rdfxml') return writeRdfXml(quads, CHUNK_ROWS);
  if (format === 'jsonld') return writeJsonLd(quads);
  return writeN3(quads, format, prefixes);
}

/** JSON-LD 1.1 in expanded form (an array of node objects), streamed by jsonld-streaming-serializer. */
async function* writeJsonLd(quads: AsyncIterable<Quad>): AsyncIterable<string> {
  const serializer = new JsonLdSerializer();
  const input = Readable.from(quads);
  input.on('error', (err) => serializer.destroy(err));
  input.pipe(serializer);
  for await (const chunk of serializer as AsyncIterable<string | Buffer>) yield String(chunk);
}

async function* writeN3(quads: AsyncIterable<Quad>, format: 'nquads' | 'ntriples' | 'turtle', prefixes: Readonly<Record<string, string>>): AsyncIterable<string> {
  const chunks: string[] = [];
  const sink = {
    write(chunk: string, _encoding?: unknown, done?: () => void): boolean {
      chunks.push(chunk);
      done?.();
      return true;
    },
    end(done?: () => void): void {
      done?.();
    },
  };
  const n3Format = format === 'turtle' ? 'Turtle' : format === 'ntriples' ? 'N-Triples' : 'N-Quads';
  // biome-ignore lint/suspicious/noExplicitAny: N3's Writer accepts any object with write/end as its output stream
  const writer = new Writer(sink as any, { format: n3Format, prefixes: format === 'turtle' ? { ...prefixes } : {} });
  let n = 0;
  const drain = (): string => chunks.splice(0).join('');
  for await (const q of quads) {
    if (format === 'nquads') writer.addQuad(q);
    else writer.addQuad(q.subject, q.predicate, q.object);
    if (++n % CHUNK_ROWS === 0 && chunks.length > 0) yield drain();
  }
  writer.end();
  const rest = drain();
  if (rest !== '') yield rest;
}
