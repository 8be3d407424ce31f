// --max-links-per-doc keeps the first N links of a document (thesis §11); the ones past it are counted, in the
// document's record (`linksBeyondCap`), the crawl's end summary (text and --json) and `stats`, on this thread and
// with --threads alike. What is crawled does not change.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument } from '../../src/crawl/analyse-document.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import type { CrawlSummary } from '../../src/crawl-log/tally.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const CAP = 5;
/** Distinct links of the big page: CAP kept, BIG_BEYOND counted past the cap. */
const BIG_BEYOND = 7;
/** Distinct IRIs (objects) of the Turtle document past the cap. */
const TTL_BEYOND = 4;
const LINE = `${BIG_BEYOND + TTL_BEYOND} links beyond --max-links-per-doc on 2 documents not followed`;

let site: TestServer;
const folder = useTempDir({ per: 'file' });

beforeAll(async () => {
  site = await startHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/big.html') {
      const hrefs = Array.from({ length: CAP + BIG_BEYOND }, (_, i) => `/p${i}.ttl`);
      // Repeats, fragments and an href that is no URL are not links of their own: only distinct ones count.
      const more = ['/p0.ttl', `/p${CAP + 1}.ttl#x`, 'javascript:void(0)', '#top'];
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><p>${[...hrefs, ...more].map((h) => `<a href="${h}">${h}</a>`).join(' ')}</p></body></html>`);
    } else if (path === '/small.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><a href="/s0.ttl">a</a> <a href="/s1.ttl">b</a></body></html>');
    } else if (path === '/list.ttl') {
      const objects = Array.from({ length: CAP + TTL_BEYOND }, (_, i) => `<q${i}.ttl>`);
      res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<#me> <http://example.org/vocab#knows> ${objects.join(', ')} .\n<#me> <http://example.org/vocab#name> "list" .\n`);
    } else if (/^\/[pqs]\d+\.ttl$/.test(path)) {
      res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<${path}> <http://example.org/vocab#name> "leaf" .\n`);
    } else res.writeHead(404).end();
  });
}, 30_000);

afterAll(async () => {
  await site?.close();
});

let n = 0;
async function crawl(extra: string[]): Promise<{ out: string; stdout: string; records: Map<string, CrawlRecord> }> {
  const out = join(folder.dir, `crawl${n++}`);
  const seeds = ['/big.html', '/small.html', '/list.ttl'].map((p) => site.origin + p);
  const res = await runCli(['crawl', ...seeds, '--out', out, '--strategy', 'bfs', '--allow-private', '--delay-ms', '0', '--quiet', '--max-links-per-doc', String(CAP), '--follow-rdf-links', ...extra]);
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  const docs = await runCli(['docs', out]);
  const records = new Map(docs.stdout.trim().split('\n').map((l) => JSON.parse(l) as CrawlRecord).map((r) => [new URL(r.url).pathname, r]));
  return { out, stdout: res.stdout, records };
}

/** What the cap did to each document: the links kept and queued, the ones counted past the cap. */
function cuts(records: Map<string, CrawlRecord>): Record<string, unknown> {
  return Object.fromEntries([...records].filter(([p]) => !/^\/[pqs]\d/.test(p)).map(([p, r]) => [p, { linksQueued: r.linksQueued, linksBeyondCap: r.linksBeyondCap }]));
}

describe('links past --max-links-per-doc', () => {
  it('are counted in the records and the end summary, with and without --threads; a page under the cap has none', async () => {
    const expected = {
      '/big.html': { linksQueued: CAP, linksBeyondCap: BIG_BEYOND },
      '/small.html': { linksQueued: 2, linksBeyondCap: undefined },
      '/list.ttl': { linksQueued: CAP, linksBeyondCap: TTL_BEYOND },
    };
    const here = await crawl([]);
    expect(cuts(here.records)).toEqual(expected);
    expect('linksBeyondCap' in (here.records.get('/small.html') as CrawlRecord)).toBe(false);
    expect(here.stdout).toContain(LINE);
    // What is crawled is the same: the kept links only.
    expect([...here.records.keys()].filter((p) => p.startsWith('/p')).sort()).toEqual(Array.from({ length: CAP }, (_, i) => `/p${i}.ttl`).sort());

    const threaded = await crawl(['--threads', '1', '--thread-min-kb', '0']);
    expect(cuts(threaded.records)).toEqual(expected);
    expect(threaded.stdout).toContain(LINE);
    expect([...threaded.records.keys()].sort()).toEqual([...here.records.keys()].sort());

    const json = await crawl(['--json']);
    expect(JSON.parse(json.stdout) as CrawlSummary).toMatchObject({ linksBeyondCap: BIG_BEYOND + TTL_BEYOND, documentsWithLinksCut: 2 });

    const stats = await runCli(['stats', here.out]);
    expect(stats.stdout).toContain(LINE);
    const statsJson = JSON.parse((await runCli(['stats', here.out, '--json'])).stdout) as CrawlSummary;
    expect(statsJson).toMatchObject({ linksBeyondCap: BIG_BEYOND + TTL_BEYOND, documentsWithLinksCut: 2 });
  }, 120_000);
});

describe('a sitemap', () => {
  it('keeps 100 × --max-links-per-doc of its URLs and counts the rest', async () => {
    const url = 'http://a.example/sitemap.xml';
    const locs = Array.from({ length: 2 * 100 + 3 }, (_, i) => `<url><loc>http://a.example/d${i}</loc></url>`).join('');
    const body = Buffer.from(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`);
    const result = { kind: 'ok' as const, url, finalUrl: url, redirects: [], ms: 1, status: 200, contentType: 'application/xml', headers: {}, body, charset: null };
    const opts = { followRdfLinks: false, maxLinksPerDoc: 2, normalize: 'standard' as const, pageText: false };
    const a = await analyseDocument(result, null, opts, async () => {
      throw new Error('a sitemap stores no RDF');
    });
    expect(a.links).toHaveLength(200);
    expect(a.linksBeyondCap).toBe(3);
    const under = await analyseDocument(result, null, { ...opts, maxLinksPerDoc: 3 }, async () => null);
    expect([under.links.length, under.linksBeyondCap]).toEqual([203, 0]);
  });
});
