// A crawl of large RDF documents, streamed from body to store: every triple stored once, links
// and VoID facts taken from the quad stream, a document that fails late keeps nothing (the strict crawl: all or
// nothing, --strict-rdf), no pending chunks left.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { DOC_CHUNK_CHARS, readPartial } from '../../src/rdf/index.ts';
import { exportText, makeTempDir } from '../rdf/helpers.ts';

const PEOPLE = 8000;

/** ~2 MB of Turtle (≈ 9 chunks of N-Triples), with a seeAlso link, a VoID dump, and one triple stated twice. */
function bigTurtle(origin: string): string {
  const out = [`@prefix ex: <http://ex.example/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix void: <http://rdfs.org/ns/void#> .\n`];
  out.push(`<${origin}/big.ttl> rdfs:seeAlso <${origin}/small.ttl> ; void:dataDump <${origin}/dump.nt> .\n`);
  for (let i = 0; i < PEOPLE; i++) out.push(`ex:p${i} ex:name "Person ${i}" ; ex:knows ex:p${i + 1} ; ex:note "${'n'.repeat(150)}" .\n`);
  out.push('ex:p0 ex:name "Person 0" .\n');
  return out.join('');
}

let server: Server;
let origin: string;
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let records: CrawlRecord[];
let exported: string;
let partial: Awaited<ReturnType<typeof readPartial>>;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/big.ttl') {
      res.writeHead(200, { 'content-type': 'text/turtle' });
      res.end(bigTurtle(origin));
    } else if (path === '/broken.ttl') {
      res.writeHead(200, { 'content-type': 'text/turtle' });
      res.end(`${bigTurtle(origin).replaceAll('/big.ttl', '/broken.ttl')}ex:late ex:error "unterminated .\n`); // fails after many chunks
    } else if (path === '/small.ttl' || path === '/dump.nt') {
      res.writeHead(200, { 'content-type': 'text/turtle' });
      res.end('<http://ex.example/a> <http://ex.example/b> "c" .\n');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = await makeTempDir();
  const crawler = await Crawler.open({ out: tmp.dir, seeds: [`${origin}/big.ttl`, `${origin}/broken.ttl`], allowPrivate: true, delayMs: 0, maxDocs: 10, strategy: 'bfs', concurrency: 2, followRdfLinks: true, strictRdf: true });
  try {
    await crawler.run();
    records = [];
    for await (const r of readRecords(crawler.state)) records.push(r);
    exported = await exportText(crawler.state);
    partial = await readPartial(crawler.state, `${origin}/broken.ttl`);
    expect(await crawler.state.sub['docs-pending'].keys().all()).toEqual([]);
  } finally {
    await crawler.close();
  }
}, 120_000);

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await tmp.remove();
});

describe('a large RDF document, streamed from body to store', () => {
  it('stores every distinct triple once, in many chunks, with its record', () => {
    const big = records.find((r) => r.url === `${origin}/big.ttl`);
    expect(big?.triples).toBe(PEOPLE * 3 + 2);
    const lines = exported.split('\n').filter((l) => l.endsWith(`<${origin}/big.ttl> .`));
    expect(lines).toHaveLength(PEOPLE * 3 + 2);
    expect(lines.join('\n').length).toBeGreaterThan(4 * DOC_CHUNK_CHARS);
  });

  it('queues the links and the VoID dump found in the quad stream', () => {
    const fetched = new Set(records.map((r) => r.url));
    expect(fetched.has(`${origin}/small.ttl`)).toBe(true);
    expect(fetched.has(`${origin}/dump.nt`)).toBe(true);
  });

  it('a document that fails after many chunks keeps nothing but its partial record', () => {
    const broken = records.find((r) => r.url === `${origin}/broken.ttl`);
    expect(broken?.error).toBe('RDFSCOUT_PARSE_FAILED');
    expect(broken?.triples).toBe(0);
    expect(exported).not.toContain(`<${origin}/broken.ttl> .`);
    expect(partial?.count).toBeGreaterThanOrEqual(PEOPLE * 3);
    expect(partial?.truncated).toBe(true);
  });
});
