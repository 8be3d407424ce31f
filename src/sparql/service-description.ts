// **Service description**: what `GET /sparql` without a query answers (SPARQL 1.1 Service Description, W3C REC 2013).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';
import { CRAWL_GRAPH } from '../crawl-log/crawl-vocab.ts';
import { writeGraph } from './format-graph.ts';
import { type GraphFormat, MEDIA_TYPES } from './format-results.ts';
import { negotiate } from './negotiate.ts';

const SD = 'http://www.w3.org/ns/sparql-service-description#';
const FORMATS = 'http://www.w3.org/ns/formats/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDFS_COMMENT = 'http://www.w3.org/2000/01/rdf-schema#comment';

/** The result formats this endpoint writes, by their W3C format IRIs (http://www.w3.org/ns/formats/). */
const RESULT_FORMATS = ['SPARQL_Results_JSON', 'SPARQL_Results_XML', 'SPARQL_Results_CSV', 'SPARQL_Results_TSV', 'Turtle', 'N-Triples', 'N-Quads', 'RDF_XML', 'JSON-LD'];

/**
 * The description of the endpoint at `endpoint`: a read-only SPARQL 1.1 Query service whose default graph is the
 * merge of the named graphs (sd:UnionDefaultGraph; the crawl graph excepted), with its result formats.
 */
function serviceDescription(endpoint: string): Quad[] {
  const df = new DataFactory();
  const n = (iri: string) => df.namedNode(iri);
  const service = df.blankNode('service');
  const dataset = df.blankNode('dataset');
  const defaultGraph = df.blankNode('defaultGraph');
  const t = (s: Quad['subject'], p: string, o: Quad['object']): Quad => df.quad(s, n(p), o);
  return [
    t(service, RDF_TYPE, n(`${SD}Service`)),
    t(service, `${SD}endpoint`, n(endpoint)),
    t(service, `${SD}supportedLanguage`, n(`${SD}SPARQL11Query`)),
    t(service, `${SD}feature`, n(`${SD}UnionDefaultGraph`)),
    t(service, RDFS_COMMENT, df.literal('rdfscout: a read-only SPARQL 1.1 endpoint over a Linked-Data crawl. Updates are refused.', 'en')),
    ...RESULT_FORMATS.map((f) => t(service, `${SD}resultFormat`, n(FORMATS + f))),
    t(service, `${SD}defaultDataset`, dataset),
    t(dataset, RDF_TYPE, n(`${SD}Dataset`)),
    t(dataset, `${SD}defaultGraph`, defaultGraph),
    t(defaultGraph, RDF_TYPE, n(`${SD}Graph`)),
    t(
      dataset,
      RDFS_COMMENT,
      df.literal(`The default graph is the RDF merge of every crawled document (each triple once); each document is also a named graph, named by its URL. Crawl metadata is the named graph <${CRAWL_GRAPH}>, left out of the default graph.`, 'en'),
    ),
  ];
}

/** Answers with the service description in the format the client accepts (Turtle by default; 406 if none fits). */
export async function sendServiceDescription(req: IncomingMessage, res: ServerResponse, endpoint: string): Promise<void> {
  const format = negotiate(req.headers.accept, 'quads');
  if (format === null || format === 'table') {
    res.writeHead(406, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Not acceptable. The service description is available as: ${['turtle', 'rdfxml', 'jsonld', 'ntriples', 'nquads'].map((f) => MEDIA_TYPES[f as GraphFormat]).join(', ')}.\n`);
    return;
  }
  let body = '';
  for await (const chunk of writeGraph(toAsync(serviceDescription(endpoint)), format as GraphFormat, { sd: SD, formats: FORMATS })) body += chunk;
  res.writeHead(200, { 'Content-Type': `${MEDIA_TYPES[format]}; charset=utf-8`, Vary: 'Accept' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function* toAsync<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}
