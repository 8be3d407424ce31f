// A crawl of large JSON-LD documents: one in the streaming profile's order, stored as it is
// parsed; one with its @context last, whose streamed first pass (many chunks already written) is thrown away and
// which is parsed again; a malformed one that keeps nothing. Real server, real store, the export read back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { DOC_CHUNK_CHARS } from '../../src/rdf/index.ts';
import { graphOfDocKey } from '../../src/state/document-keys.ts';
import { exportText, makeTempDir } from '../rdf/helpers.ts';

const NODES = 1000;
const CONTEXT = '{"ex": "http://ex.example/", "ex:note": null}';
const NOTE = 'n'.repeat(600);
const PAD = 'p'.repeat(300);

/** The nodes of the @graph: `ex:note` is dropped by the context (null), so a pass without the context has more triples. */
function graph(origin: string): string {
  const nodes = [`{"@id": "${origin}/inorder.jsonld", "http://www.w3.org/2000/01/rdf-schema#seeAlso": {"@id": "${origin}/small.ttl"}}`];
  for (let i = 0; i < NODES; i++) nodes.push(`{"@id": "ex:p${i}", "ex:name": "Person ${i} ${PAD}", "ex:note": "${NOTE}", "ex:knows": {"@id": "ex:p${i + 1}"}}`);
  return `[\n${nodes.join(',\n')}\n]`;
}

let server: Server;
let origin: string;
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let records: CrawlRecord[];
let exported: string[];
let docKeys: string[];
let pending: unknown[];

beforeAll(async () => {
  server = createServer((req, res) => {
    const send = (type: string, body: string) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    if (req.url === '/inorder.jsonld') send('application/ld+json', `{"@context": ${CONTEXT}, "@graph": ${graph(origin)}}`);
    else if (req.url === '/late.jsonld') send('application/ld+json', `{"@graph": ${graph(origin)}, "@context": ${CONTEXT}}`);
    else if (req.url === '/broken.jsonld') send('application/ld+json', `{"@context": ${CONTEXT}, "@graph": ${graph(origin).slice(0, -2)},\n{"@id": @}]}`);
    else if (req.url === '/small.ttl') send('text/turtle', '<http://ex.example/a> <http://ex.example/b> "c" .\n');
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = await makeTempDir();
  const seeds = ['inorder', 'late', 'broken'].map((n) => `${origin}/${n}.jsonld`);
  const crawler = await Crawler.open({ out: tmp.dir, seeds, allowPrivate: true, delayMs: 0, maxDocs: 10, strategy: 'bfs', concurrency: 3, followRdfLinks: true });
  try {
    await crawler.run();
    records = [];
    for await (const r of readRecords(crawler.state)) records.push(r);
    exported = (await exportText(crawler.state)).split('\n');
    docKeys = (await crawler.state.docs.keys().all()) as string[];
    pending = await crawler.state.sub['docs-pending'].keys().all();
  } finally {
    await crawler.close();
  }
}, 120_000);

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await tmp.remove();
});

const linesOf = (name: string) => exported.filter((l) => l.endsWith(`<${origin}/${name}> .`));

describe('large JSON-LD documents, streamed from body to store', () => {
  it('stores an in-order document (many chunks) with every triple once, and follows its links', () => {
    const lines = linesOf('inorder.jsonld');
    expect(records.find((r) => r.url === `${origin}/inorder.jsonld`)).toMatchObject({ error: null, triples: NODES * 2 + 1 });
    expect(lines).toHaveLength(NODES * 2 + 1);
    expect(lines.join('\n').length).toBeGreaterThan(DOC_CHUNK_CHARS);
    expect(lines.some((l) => l.includes('<http://ex.example/name>'))).toBe(true);
    expect(lines.some((l) => l.includes('note') || l.includes('urn:x-rdfscout'))).toBe(false);
    expect(records.some((r) => r.url === `${origin}/small.ttl`)).toBe(true);
  });

  it('parses a document with its @context last again, and keeps nothing of the first pass', () => {
    const lines = linesOf('late.jsonld');
    expect(records.find((r) => r.url === `${origin}/late.jsonld`)).toMatchObject({ error: null, triples: NODES * 2 + 1 });
    expect(lines).toHaveLength(NODES * 2 + 1);
    // The first pass, without the context, stated <ex:name> and <ex:note> triples: ~4 chunks written, the second ~2.
    expect(lines.some((l) => l.includes('<ex:') || l.includes('note'))).toBe(false);
    expect(new Set(lines).size).toBe(lines.length);
    const chunks = (name: string) => docKeys.filter((k) => graphOfDocKey(k) === `${origin}/${name}`).length;
    expect(chunks('late.jsonld')).toBeGreaterThan(1);
    expect(chunks('late.jsonld')).toBe(chunks('inorder.jsonld')); // no chunk of the longer first pass is left
  });

  it('a malformed document keeps nothing, and no chunk or pending mark is left behind', () => {
    expect(records.find((r) => r.url === `${origin}/broken.jsonld`)).toMatchObject({ error: 'RDFSCOUT_PARSE_FAILED', triples: 0 });
    expect(linesOf('broken.jsonld')).toEqual([]);
    expect(pending).toEqual([]);
    expect(docKeys.filter((k) => graphOfDocKey(k) === `${origin}/broken.jsonld`)).toEqual([]);
  });
});
