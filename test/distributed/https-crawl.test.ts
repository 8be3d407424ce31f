// A site served over https (a certificate from a CA the crawler is told to trust, as a corporate or test CA is:
// NODE_EXTRA_CA_CERTS) is crawled like an http one: robots.txt, content negotiation (303), a redirect from http to
// https, embedded JSON-LD, graphs named by the https URL. One process and two Redis workers fetch the same URLs and
// store the same quads; without the CA the origin is dead, and the crawl says so and ends.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { openState } from '../../src/state/open-state.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { startRedisServer, type RedisTestServer } from '../helpers/redis-server.ts';
import { runCli, startCli } from '../helpers/run-cli.ts';
import { makeTestCa, type TestCa } from '../helpers/test-ca.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';
import { allExitZero, mergedQuads, mergeRecords, mergeShards, type WorkerProcess } from '../helpers/workers.ts';

const folder = useTempDir({ per: 'file' });
let ca: TestCa;
let site: TestServer;
let plain: TestServer;
let redis: RedisTestServer;

const ttl = (s: string) => `<${s}> <http://schema.org/name> "${s.split('/').pop()}" .\n`;

beforeAll(async () => {
  ca = await makeTestCa(folder.dir);
  redis = await startRedisServer({ appendOnly: false });
  // The http origin only redirects to the https one (a site that moved to https).
  plain = await startHttpServer((req, res) => {
    if (req.url === '/old.ttl') res.writeHead(301, { location: `${site.origin}/data/moved.ttl` }).end();
    else res.writeHead(404).end();
  });
  site = await startHttpServer((req, res) => {
    const o = site.origin;
    const page = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${body}</body></html>`);
    const turtle = (path: string) => res.writeHead(200, { 'content-type': 'text/turtle' }).end(ttl(`${o}${path}`));
    switch (req.url) {
      case '/robots.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      case '/':
        return page(`<a href="/data/a.ttl">a</a> <a href="/page.html">more</a> <a href="/resource/x">x</a>
          <a href="/private/secret.ttl">secret</a> <a href="${plain.origin}/old.ttl">old</a>`);
      case '/page.html':
        return page(`<script type="application/ld+json">{"@context": {"name": "http://schema.org/name"}, "@id": "${o}/page.html#it", "name": "embedded"}</script>
          <a href="/data/b.jsonld">b</a>`);
      case '/resource/x':
        return res.writeHead(303, { location: '/data/x.ttl', vary: 'accept' }).end();
      case '/data/a.ttl':
      case '/data/x.ttl':
      case '/data/moved.ttl':
        return turtle(req.url);
      case '/data/b.jsonld':
        return res.writeHead(200, { 'content-type': 'application/ld+json' }).end(JSON.stringify({ '@context': { name: 'http://schema.org/name' }, '@id': `${o}/data/b`, name: 'b' }));
      default:
        return res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    }
  }, { tls: ca });
}, 60_000);

afterAll(async () => {
  await site?.close();
  await plain?.close();
  await redis?.stop();
});

const trusting = () => ({ env: { NODE_EXTRA_CA_CERTS: ca.caFile } });
const options = () => ['--allow-private', '--delay-ms', '0', '--json', '--quiet', '--scope', 'open', '--concurrency', '2'];

async function records(dir: string): Promise<CrawlRecord[]> {
  const state = await openState(dir, { index: false });
  try {
    const out: CrawlRecord[] = [];
    for await (const r of readRecords(state)) out.push(r);
    return out;
  } finally {
    await state.close();
  }
}

describe('a crawl over https with a trusted CA', () => {
  let single: { urls: string[]; quads: string[] };

  it('one process: every page and document fetched over TLS, robots.txt obeyed, 303 and http → https followed, graphs named by the https URL', async () => {
    const out = join(folder.dir, 'one');
    const run = await runCli(['crawl', `${site.origin}/`, '--out', out, ...options()], trusting());
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.stoppedBy).toBe('frontier-empty');
    const byUrl = new Map((await records(out)).map((r) => [r.url, r]));
    const o = site.origin;
    for (const path of ['/', '/page.html', '/data/a.ttl', '/data/b.jsonld']) expect(byUrl.get(`${o}${path}`)?.status, path).toBe(200);
    expect(byUrl.get(`${o}/private/secret.ttl`)?.outcome).toBe('denied');
    expect(byUrl.get(`${o}/resource/x`)?.finalUrl).toBe(`${o}/data/x.ttl`);
    expect(byUrl.get(`${plain.origin}/old.ttl`)?.finalUrl).toBe(`${o}/data/moved.ttl`);
    expect([...byUrl.values()].filter((r) => r.outcome === 'failed')).toEqual([]);
    // The RDF documents, and the page's embedded JSON-LD, are stored under their https graph names.
    const q = await runCli(['query', out, 'SELECT ?g ?s WHERE { GRAPH ?g { ?s <http://schema.org/name> ?n } } ORDER BY ?g', '--format', 'json']);
    expect(q.code, q.stderr).toBe(0);
    const rows = (JSON.parse(q.stdout).results.bindings as { g: { value: string }; s: { value: string } }[]).map((b) => [b.g.value, b.s.value]);
    expect(rows).toEqual([
      [`${o}/data/a.ttl`, `${o}/data/a.ttl`],
      [`${o}/data/b.jsonld`, `${o}/data/b`],
      [`${o}/data/moved.ttl`, `${o}/data/moved.ttl`],
      [`${o}/data/x.ttl`, `${o}/data/x.ttl`],
      [`${o}/page.html`, `${o}/page.html#it`],
    ]);
    const merged = mergeRecords([...byUrl.values()].map((record) => ({ dir: out, record })));
    single = { urls: [...merged.byUrl.keys()].sort(), quads: await mergedQuads(merged) };
  }, 60_000);

  it('two Redis workers fetch the same URLs and store the same quads as one process', async () => {
    const dirs = ['w1', 'w2'].map((n) => join(folder.dir, n));
    const url = `${redis.url}/1`;
    const worker = (out: string, args: string[]): WorkerProcess => ({ ...startCli(['crawl', ...args, '--redis', url, '--out', out, '--quiet'], trusting()), out });
    const first = worker(dirs[0] as string, [`${site.origin}/`, ...options()]);
    // A worker without seeds joins a crawl that exists (else it refuses, exit 2): wait until the first made it.
    await until('the crawl to exist in Redis (status --redis answers)', async () => (await runCli(['status', '--redis', url, '--json'])).code === 0);
    // The second joins with no crawl options (it reads the crawl's from Redis); each trusts the CA from its environment.
    const second = worker(dirs[1] as string, ['--json']);
    await allExitZero([first, second]);
    const merged = await mergeShards(dirs);
    expect([...merged.byUrl.keys()].sort()).toEqual(single.urls);
    expect(await mergedQuads(merged)).toEqual(single.quads);
  }, 120_000);

  it('without the CA the https origin is dead: the crawl ends at once, exit 0, and names it', async () => {
    const out = join(folder.dir, 'untrusted');
    const run = await runCli(['crawl', `${site.origin}/`, '--out', out, ...options()]);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect((summary.deadOrigins ?? []).map((d: { origin: string }) => d.origin)).toEqual([site.origin]);
    expect((await records(out)).map((r) => [r.url, r.outcome])).toEqual([[`${site.origin}/`, 'failed']]);
  }, 60_000);
});
