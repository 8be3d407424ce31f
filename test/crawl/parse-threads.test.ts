// --threads N: the same crawl with its documents parsed in worker threads keeps the same records, the same stored
// values (chunk by chunk), the same partial documents and contexts as the crawl that parses on its own thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../src/crawl/options.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import { startSimweb } from '../../src/simweb/index.ts';
import { graphOfDocKey } from '../../src/state/document-keys.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { fixture } from '../rdf/helpers.ts';

/** Files of the local site, with their types (the malformed ones: what a lenient parse drops, records say). */
const FILES: Record<string, [string, string]> = {
  '/syntax-error.ttl': ['text/turtle', fixture('malformed/syntax-error.ttl')],
  '/bad-lines.nt': ['application/n-triples', fixture('malformed/bad-lines.nt')],
  '/graphs.trig': ['application/trig', fixture('malformed/graphs.trig')],
  '/bad-iri.rdf': ['application/rdf+xml', fixture('malformed/bad-iri.rdf')],
  '/rdfa-lang.html': ['text/html', fixture('malformed/rdfa-lang.html')],
  '/page-jsonld.html': ['text/html', fixture('page-jsonld.html')],
  '/page-microdata.html': ['text/html', fixture('page-microdata.html')],
  '/person.jsonld': ['application/ld+json', fixture('person.jsonld')],
  '/sitemap.xml': ['application/xml', fixture('sitemap.xml')],
  // Fails to parse after some triples: its partial record.
  '/truncated.rdf': ['application/rdf+xml', fixture('bob.rdf').replace('</rdf:RDF>', '<rdf:Description <broken')],
};

/** A document of ~1.3 MB of N-Triples with blank nodes and duplicates: five chunks of the store, written as parsed. */
function bigDocument(origin: string): string {
  const lines: string[] = [];
  for (let i = 0; i < 9000; i++) {
    lines.push(`<${origin}/r/${i}> <http://example.org/p> "value ${i} ${'x'.repeat(i % 90)}" .`);
    lines.push(`_:n${i % 700} <http://example.org/q> <${origin}/r/${(i * 7) % 9000}> .`);
    if (i % 10 === 0) lines.push(`<${origin}/r/${i}> <http://example.org/p> "value ${i} ${'x'.repeat(i % 90)}" .`); // a duplicate
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A ~1 MB JSON-LD document whose @context comes last: its streamed first pass (chunks written ahead) is thrown away
 * and it is parsed again (the writer's restart, asked across the threads).
 */
function lateContext(): string {
  const nodes = Array.from({ length: 1000 }, (_, i) => `{"@id": "ex:p${i}", "ex:name": "Person ${i} ${'p'.repeat(300)}", "ex:note": "${'n'.repeat(600)}", "ex:knows": {"@id": "ex:p${i + 1}"}}`);
  return `{"@graph": [\n${nodes.join(',\n')}\n], "@context": {"ex": "http://ex.example/", "ex:note": null}}`;
}

let site: TestServer;
let tmp: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  site = await startHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const origin = site.origin;
    if (path === '/') {
      const links = [...Object.keys(FILES), '/big.nt', '/alias', '/remote.jsonld', '/late.jsonld'];
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</body></html>`);
    } else if (path === '/big.nt') res.writeHead(200, { 'content-type': 'application/n-triples' }).end(bigDocument(origin));
    else if (path === '/late.jsonld') res.writeHead(200, { 'content-type': 'application/ld+json' }).end(lateContext());
    else if (path === '/alias') res.writeHead(301, { location: '/big.nt' }).end(); // the graph is stored already
    else if (path === '/context.jsonld') res.writeHead(200, { 'content-type': 'application/ld+json' }).end(JSON.stringify({ '@context': { name: 'http://xmlns.com/foaf/0.1/name' } }));
    else if (path === '/remote.jsonld') {
      res.writeHead(200, { 'content-type': 'application/ld+json' }).end(fixture('remote-context.jsonld').replace('http://127.0.0.1:PORT/context.jsonld', `${origin}/context.jsonld`));
    } else {
      const file = FILES[path];
      if (file === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    }
  });
  tmp = await makeTempDir('parse-threads');
}, 60_000);

afterAll(async () => {
  await site?.close();
  await tmp?.remove();
});

/** What a crawl kept: records without their timing, every stored value by key, partial records, contexts. */
async function crawl(name: string, opts: Partial<CrawlOptions> & { seeds: string[] }): Promise<{ records: unknown[]; docs: Map<string, unknown>; partials: Map<string, unknown>; summary: unknown }> {
  const crawler = await Crawler.open({ out: `${tmp.dir}/${name}`, allowPrivate: true, delayMs: 0, strategy: 'bfs', concurrency: 1, followRdfLinks: true, ...opts });
  try {
    const s = await crawler.run();
    const records: unknown[] = [];
    for await (const { ms: _ms, fetchedAt: _at, ...r } of readRecords(crawler.state)) records.push(r);
    const docs = new Map<string, unknown>();
    for await (const [k, v] of crawler.state.docs.iterator()) docs.set(k as string, v);
    const partials = new Map<string, unknown>();
    for await (const [k, v] of crawler.state.sub.partials.iterator()) partials.set(k as string, v);
    const { durationMs: _d, ...summary } = s;
    return { records, docs, partials, summary };
  } finally {
    await crawler.close();
  }
}

/** What a record says of its document (not where the crawl found it, nor when). */
function pick(r: Record<string, unknown>): Record<string, unknown> {
  const { url, finalUrl, status, outcome, contentType, detectedType, rdfFormat, triples, error, errorMessage, redirects } = r;
  return { url, finalUrl, status, outcome, contentType, detectedType, rdfFormat, triples, error, errorMessage, redirects };
}

describe('--threads: documents parsed in worker threads', () => {
  it('keeps the same records, stored chunks, partial documents and contexts on a site of odd documents', async () => {
    const seeds = [`${site.origin}/`];
    const one = await crawl('site-0', { seeds, maxDocs: 40, threads: 0 });
    const two = await crawl('site-2', { seeds, maxDocs: 40, threads: 2, threadMinKb: 0 });
    const large = await crawl('site-large', { seeds, maxDocs: 40, threads: 1 }); // documents of 256 kB or more only
    // The case covers what crosses between the threads: chunks spilled ahead, a stored graph, partial quads, a context.
    const urls = (one.records as Array<{ url: string; triples: number; note?: string | null }>).map((r) => r.url);
    expect(urls).toEqual(expect.arrayContaining([`${site.origin}/big.nt`, `${site.origin}/alias`, `${site.origin}/remote.jsonld`, `${site.origin}/truncated.rdf`, `${site.origin}/late.jsonld`]));
    expect((one.records as Array<{ url: string; triples: number }>).find((r) => r.url.endsWith('/late.jsonld'))?.triples).toBe(2000);
    expect([...one.docs.keys()].filter((k) => k.startsWith(`${site.origin}/big.nt`)).length).toBeGreaterThanOrEqual(4);
    expect(one.partials.size).toBeGreaterThan(0);
    expect(two.records).toEqual(one.records);
    expect(two.docs).toEqual(one.docs);
    expect(two.partials).toEqual(one.partials);
    expect(two.summary).toEqual(one.summary);
    expect(large).toEqual(one);
  }, 120_000);

  it('keeps the same records and stored chunks on the simulated web', async () => {
    // A fresh web for each crawl: the simulated web's answers depend on what it was asked before (its flaky pages).
    const onWeb = async (name: string, threads: number) => {
      const web = await startSimweb({ profiles: 'mixed', seed: 7, scale: 0.2 });
      try {
        return await crawl(name, { seeds: web.sites.map((s) => s.startUrl), proxy: web.proxyUrl, maxDocs: 300, strategy: 'fc-r+hr', bandit: 'none', threads, threadMinKb: 0 });
      } finally {
        await web.close();
      }
    };
    const one = await onWeb('web-0', 0);
    const two = await onWeb('web-1', 1);
    // Which URLs a crawl reaches in its last steps depends on timing (the scheduler's periodic rescan), threads or
    // not: what each URL fetched by both gave must be the same, and its stored document the same values.
    const byUrl = (rs: unknown[]) => new Map((rs as Record<string, unknown>[]).map((r) => [r.url as string, pick(r)]));
    const a = byUrl(one.records);
    const b = byUrl(two.records);
    const common = [...a.keys()].filter((u) => b.has(u));
    expect(common.length).toBeGreaterThan(0.8 * a.size);
    expect(common.map((u) => b.get(u))).toEqual(common.map((u) => a.get(u)));
    const graphs = new Set(common.map((u) => (a.get(u) as { finalUrl: string }).finalUrl));
    const docsOf = (docs: Map<string, unknown>) => [...docs].filter(([k]) => graphs.has(graphOfDocKey(k)));
    expect(docsOf(one.docs).length).toBeGreaterThan(10);
    expect(docsOf(two.docs)).toEqual(docsOf(one.docs));
  }, 120_000);
});
