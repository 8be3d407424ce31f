// One count everywhere: a local site crawled once; the crawl summary, `stats`, `metrics`, `docs`
// and a SPARQL query over the crawl graph report the same figures, and those are the ones counted by hand.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { type CrawlFigures, computeFigures } from '../../src/metrics/index.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const TTL = '<http://example.org/a> <http://example.org/p> "1" .\n<http://example.org/a> <http://example.org/q> "2" .\n';
const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

/** Every kind of record: a page, a robots refusal, a 404, a 500, a redirect, a duplicate, a parse failure, embedded RDF. */
async function startSite(): Promise<TestServer> {
  const home = ['/a.html', '/private/x.ttl', '/missing.html', '/boom.html', '/moved.html', '/alias1.ttl', '/alias2.ttl', '/broken.ttl', '/event.html'];
  return startHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': type, ...headers }).end(body);
    switch (path) {
      case '/robots.txt':
        return send(200, 'text/plain', 'User-agent: *\nDisallow: /private/\n');
      case '/':
        return send(200, 'text/html', page(home.map((h) => `<a href="${h}">${h}</a>`).join(' ')));
      case '/a.html':
      case '/a2.html':
        return send(200, 'text/html', page('a page'));
      case '/boom.html':
        return send(500, 'text/plain', 'boom');
      case '/moved.html':
        return send(301, 'text/plain', '', { location: '/a2.html' });
      case '/alias1.ttl':
      case '/alias2.ttl':
        return send(301, 'text/plain', '', { location: '/data/a.ttl' }); // two URLs, one document: the second is a duplicate
      case '/data/a.ttl':
        return send(200, 'text/turtle', TTL);
      case '/broken.ttl':
        return send(200, 'text/turtle', '<http://example.org/a> <http://example.org/p> "unterminated .\n');
      case '/event.html':
        return send(200, 'text/html', page('<script type="application/ld+json">{"@id":"http://example.org/e","http://schema.org/name":"E"}</script>'));
      default:
        return send(404, 'text/plain', 'not found');
    }
  });
}

describe('every command reports the same figures of one crawl', () => {
  let site: TestServer;
  let tmp: string;
  let out: string;
  let summary: CrawlFigures & { stoppedBy: string };

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    site = await startSite();
    tmp = folder.dir;
    out = join(tmp, 'crawl');
    const res = await runCli(['crawl', `${site.origin}/`, '--out', out, '--allow-private', '--delay-ms', '0', '--max-retries', '0', '--json', '--quiet']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    summary = JSON.parse(res.stdout);
  }, 30_000);

  afterAll(async () => {
    await site.close();
  });

  it('the crawl summary has the figures counted by hand', () => {
    expect(summary.stoppedBy).toBe('frontier-empty');
    expect(summary).toMatchObject({
      records: 10, // /, a, private (refused), missing, boom, moved → a2, alias1 → data/a, alias2 (duplicate), broken, event
      denied: 1,
      fetched: 9,
      errors: 2, // 404 and 500; the robots refusal is not an error
      rdfDocuments: 1, // data/a.ttl once: its duplicate and the broken file are not obtained
      embeddedDocuments: 1,
      parseFailures: 1,
      redirected: 3,
      triples: 3, // 2 in data/a.ttl, 1 in event.html
    });
    expect(summary.harvestRate).toBeCloseTo(1 / 9);
  });

  it('stats --json, metrics --json, docs and a SPARQL query over the crawl graph agree with it', async () => {
    const keys = ['records', 'denied', 'fetched', 'ok', 'rdfDocuments', 'embeddedDocuments', 'triples', 'errors', 'parseFailures', 'redirected', 'harvestRate'] as const;
    const pick = (o: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, o[k]]));
    const expected = pick(summary as unknown as Record<string, unknown>);

    const stats = await runCli(['stats', out, '--json']);
    expect(stats.code).toBe(0);
    expect(pick(JSON.parse(stats.stdout))).toEqual(expected);

    const metrics = await runCli(['metrics', out, '--json']);
    expect(metrics.code).toBe(0);
    const m = JSON.parse(metrics.stdout);
    expect(pick(m.figures)).toEqual(expected);
    expect({ fetched: m.fetched, nRdf: m.nRdf, harvestRate: m.harvestRate }).toEqual({ fetched: 9, nRdf: 1, harvestRate: summary.harvestRate });
    expect({ error: m.outcomes.error, notAllowed: m.outcomes.notAllowed, docs: m.outcomes.docs }).toEqual({ error: 2, notAllowed: 1, docs: 10 });

    const docs = await runCli(['docs', out]);
    const records = docs.stdout.trim().split('\n').map((l) => JSON.parse(l) as CrawlRecord);
    expect(pick(computeFigures(records) as unknown as Record<string, unknown>)).toEqual(expected);

    // The crawl graph describes records by document URL (two records of one final URL share a subject), so records
    // are counted by their seq, and a document's triples once.
    const q = await runCli([
      'query', out, '--format', 'json',
      `PREFIX rs: <https://w3id.org/rdfscout/ns#>
       SELECT (COUNT(DISTINCT ?seq) AS ?records) WHERE { GRAPH <urn:rdfscout:crawl> { ?d rs:seq ?seq } }`,
    ]);
    expect(q.code).toBe(0);
    const row = JSON.parse(q.stdout).results.bindings[0];
    expect(Number(row.records.value)).toBe(10);
    const perDoc = await runCli([
      'query', out, '--format', 'json',
      `PREFIX rs: <https://w3id.org/rdfscout/ns#>
       SELECT (SUM(?t) AS ?triples) (SUM(?refused) AS ?denied) WHERE {
         SELECT ?d (MAX(?t0) AS ?t) (MAX(IF(?o = "denied", 1, 0)) AS ?refused)
         WHERE { GRAPH <urn:rdfscout:crawl> { ?d rs:tripleCount ?t0 ; rs:outcome ?o } } GROUP BY ?d
       }`,
    ]);
    const sums = JSON.parse(perDoc.stdout).results.bindings[0];
    expect({ triples: Number(sums.triples.value), denied: Number(sums.denied.value) }).toEqual({ triples: 3, denied: 1 });

    const text = await runCli(['stats', out]);
    expect(text.stdout).toMatch(/fetched\s+9 {2}\(requests sent; 1 more refused by robots.txt/);
    expect(text.stdout).toMatch(/errors\s+2 /);
    expect(text.stdout).toContain('harvest rate 11.11%');
    const tables = await runCli(['metrics', out]);
    expect(tables.stdout).toContain('Harvest rate: 1 RDF documents / 9 fetched = 11.11%');
  }, 120_000); // eight command runs, each a fresh Node process
});
