// A crawl of pages whose parsers hand over terms that are not RDF (RDFa lang="", resource="_:x", a bad language tag, a
// relative IRI in JSON-LD): what is stored is valid, `export` re-parses strictly, and SPARQL, `stats` and `export` count the same.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Parser } from 'n3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { crawlRecords } from '../helpers/crawl-records.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { runCliOk } from '../helpers/run-cli.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';

const RDFA = await readFile(join(import.meta.dirname, '../fixtures/rdf/malformed/rdfa-lang.html'), 'utf8');
const JSONLD = JSON.stringify({
  '@context': { '@vocab': 'http://schema.org/' },
  '@id': 'http://127.0.0.1/thing',
  name: { '@value': 'A name', '@language': 'en_GB' },
  sameAs: { '@id': 'relative/path' },
  about: { '@id': '_:topic', name: 'Topic' },
});

let web: TestServer;
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let records: CrawlRecord[];

beforeAll(async () => {
  tmp = await makeTempDir();
  web = await startHttpServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(RDFA.replace('</body>', '<a href="/thing.jsonld">data</a></body>'));
    } else if (req.url === '/thing.jsonld') {
      res.writeHead(200, { 'content-type': 'application/ld+json' });
      res.end(JSONLD);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  records = await crawlRecords({ out: tmp.dir, seeds: [`${web.origin}/`], delayMs: 0, maxDocs: 5, allowPrivate: true });
}, 60_000);

afterAll(async () => {
  await web?.close();
  await tmp?.remove();
});

it('stores only valid terms and counts them the same in SPARQL, stats and export', async () => {
  expect(records.filter((r) => r.triples > 0).map((r) => new URL(r.url).pathname).sort()).toEqual(['/', '/thing.jsonld']);
  const exported = (await runCliOk(['export', tmp.dir])).stdout;
  const quads = new Parser({ format: 'N-Quads' }).parse(exported); // strict: throws on a relative IRI or a bad term
  expect(exported).not.toContain('langString');
  expect(exported).not.toMatch(/<_:/);
  expect(exported).not.toContain('en_');
  const stats = JSON.parse((await runCliOk(['stats', tmp.dir, '--json'])).stdout) as { triples: number };
  const count = 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?g != <urn:rdfscout:crawl>) }';
  const sparql = (await runCliOk(['query', tmp.dir, count, '--format', 'csv'])).stdout.trim().split('\n')[1];
  expect({ sparql: Number(sparql), stats: stats.triples }).toEqual({ sparql: quads.length, stats: quads.length });
  // The RDFa readings: plain literals for lang="", blank nodes for "_:" resources (the same node as about="_:…").
  const plain = quads.filter((q) => q.object.termType === 'Literal' && q.object.value === 'text/html');
  expect(plain.map((q) => [q.object.termType === 'Literal' && q.object.language, q.object.termType === 'Literal' && q.object.datatype.value])).toEqual([['', 'http://www.w3.org/2001/XMLSchema#string']]);
  const writer = quads.find((q) => q.predicate.value === 'http://schema.org/author')?.object;
  expect(writer?.termType).toBe('BlankNode');
  expect(quads.some((q) => writer !== undefined && q.subject.equals(writer) && q.predicate.value === 'http://schema.org/name')).toBe(true);
});
