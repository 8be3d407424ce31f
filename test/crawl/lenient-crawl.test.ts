// A crawl of malformed RDF served on 127.0.0.1, and of the simulated web: documents keep every valid triple, their
// records say what was dropped (with lines), --strict-rdf keeps all or nothing, and every value stored is valid RDF
// that n3 re-reads strictly (N-Triples per stored value, N-Quads for the export).
import type { Quad, Term } from '@rdfjs/types';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../src/crawl/options.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { exportText, fixture, makeTempDir } from '../rdf/helpers.ts';

const FILES: Record<string, string> = {
  '/versioned.ttl': 'text/turtle',
  '/undefined-prefix.ttl': 'text/turtle',
  '/syntax-error.ttl': 'text/turtle',
  '/bad-lines.nt': 'application/n-triples',
  '/graphs.trig': 'application/trig',
  '/bad-iri.rdf': 'application/rdf+xml',
  '/bad-iri.jsonld': 'application/ld+json',
  '/rdfa-lang.html': 'text/html',
};

/** An absolute IRI without a character N-Triples forbids (RDF 1.1 N-Triples §2.4), written independently of the guard. */
const IRI = /^[a-z][a-z0-9+.-]*:[^\u0000-\u0020<>"{}|^`\\]*$/i;
const LANG = /^[a-z]+(-[a-z0-9]+)*$/i;

/** Why a term is not valid RDF 1.1, or null. */
function invalid(t: Term, position: 'subject' | 'predicate' | 'object'): string | null {
  if (t.termType === 'NamedNode') return IRI.test(t.value) ? null : `IRI <${t.value}>`;
  if (t.termType === 'BlankNode') return position === 'predicate' ? 'a blank-node predicate' : null;
  if (t.termType === 'Literal' && position === 'object') {
    if (t.datatype.value === 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString') return LANG.test(t.language) ? null : `language "${t.language}"`;
    if (t.language !== '') return 'a language with another datatype';
    return IRI.test(t.datatype.value) ? null : `datatype <${t.datatype.value}>`;
  }
  return `a ${t.termType} as ${position}`;
}

/** Every stored value of the crawl re-read strictly, each quad's terms checked; returns the problems found. */
async function checkStore(crawler: Crawler): Promise<{ problems: string[]; quads: number }> {
  const problems: string[] = [];
  let quads = 0;
  for await (const value of crawler.state.docs.values()) {
    let parsed: Quad[];
    try {
      parsed = new Parser({ format: 'N-Triples' }).parse(value as string);
    } catch (err) {
      problems.push(`not N-Triples: ${(err as Error).message}`);
      continue;
    }
    quads += parsed.length;
    for (const q of parsed) {
      for (const [t, pos] of [
        [q.subject, 'subject'],
        [q.predicate, 'predicate'],
        [q.object, 'object'],
      ] as const) {
        const why = invalid(t, pos);
        if (why !== null) problems.push(`${why} in ${q.subject.value} ${q.predicate.value}`);
      }
    }
  }
  const exported = new Parser({ format: 'N-Quads' }).parse(await exportText(crawler.state));
  expect(exported.length).toBe(quads);
  return { problems, quads };
}

let server: TestServer;
let web: SimWeb;
let tmp: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${Object.keys(FILES).map((p) => `<a href="${p}">${p}</a>`).join(' ')}</body></html>`);
      return;
    }
    const type = FILES[path];
    if (type === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': type }).end(fixture(`malformed${path}`));
  });
  web = await startSimweb({ profiles: 'mixed', seed: 5, scale: 0.2 });
  tmp = await makeTempDir();
}, 60_000);

afterAll(async () => {
  await server.close();
  await web.close();
  await tmp.remove();
});

async function crawl(name: string, opts: Partial<CrawlOptions>): Promise<{ records: Map<string, CrawlRecord>; crawler: Crawler; dir: string }> {
  const dir = `${tmp.dir}/${name}`;
  const crawler = await Crawler.open({ out: dir, seeds: [`${server.origin}/`], allowPrivate: true, delayMs: 0, maxDocs: 20, strategy: 'bfs', concurrency: 2, ...opts });
  await crawler.run();
  const records = new Map<string, CrawlRecord>();
  for await (const r of readRecords(crawler.state)) records.set(new URL(r.url).pathname, r);
  return { records, crawler, dir };
}

describe('a crawl of malformed RDF', () => {
  it('keeps every valid triple, records what was dropped with lines, and stores only valid RDF', async () => {
    const { records, crawler, dir } = await crawl('lenient', {});
    let open = true;
    try {
      expect(records.get('/versioned.ttl')).toMatchObject({ error: null, triples: 13, recovery: { dropped: 0, repaired: 5 } });
      expect(records.get('/undefined-prefix.ttl')).toMatchObject({ error: null, triples: 6, recovery: { dropped: 1, errors: [{ line: 8, message: 'Undefined prefix "schema:"' }] } });
      expect(records.get('/syntax-error.ttl')).toMatchObject({ error: null, recovery: { dropped: 2 } });
      expect(records.get('/syntax-error.ttl')?.recovery?.errors.map((e) => e.line)).toEqual([4, 8]);
      expect(records.get('/bad-lines.nt')).toMatchObject({ error: null, triples: 4, recovery: { dropped: 2, repaired: 1 } });
      expect(records.get('/graphs.trig')).toMatchObject({ error: null, triples: 4, recovery: { dropped: 1 } });
      expect(records.get('/bad-iri.rdf')).toMatchObject({ error: null, triples: 3, recovery: { repaired: 2 } });
      expect(records.get('/rdfa-lang.html')?.recovery?.repaired).toBeGreaterThanOrEqual(3);
      const { problems, quads } = await checkStore(crawler);
      expect(problems).toEqual([]);
      expect(quads).toBeGreaterThan(40);
      // `stats` and `metrics` count what was dropped; `docs` lists each record's recovery.
      await crawler.close();
      open = false;
      const stats = JSON.parse((await runCli(['stats', dir, '--json'])).stdout);
      expect(stats).toMatchObject({ rdfDetected: 7, rdfDocuments: 7, statementsDropped: 6, documentsWithDrops: 4 });
      expect((await runCli(['stats', dir])).stdout).toMatch(/dropped\s+6 statements in 4 documents/);
      expect((await runCli(['metrics', dir])).stdout).toMatch(/Kept: 7 of 7 documents detected as RDF kept ≥ 1 triple; \d+ triples; 6 statements dropped in 4 documents/);
      const docs = (await runCli(['docs', dir])).stdout.trim().split('\n').map((l) => JSON.parse(l) as CrawlRecord);
      expect(docs.find((d) => d.url.endsWith('/undefined-prefix.ttl'))?.recovery?.errors[0]?.line).toBe(8);
    } finally {
      if (open) await crawler.close();
    }
  }, 120_000);

  it('--strict-rdf: a document with any error keeps nothing', async () => {
    const { records, crawler } = await crawl('strict', { strictRdf: true });
    try {
      for (const path of ['/versioned.ttl', '/undefined-prefix.ttl', '/syntax-error.ttl', '/bad-lines.nt', '/graphs.trig', '/bad-iri.rdf']) {
        expect(records.get(path), path).toMatchObject({ triples: 0, error: 'RDFSCOUT_PARSE_FAILED' });
        expect(records.get(path)?.recovery, path).toBeUndefined();
      }
      expect((await checkStore(crawler)).problems).toEqual([]);
    } finally {
      await crawler.close();
    }
    // The command line's flag: the same all-or-nothing crawl.
    const res = await runCli(['crawl', `${server.origin}/`, '--out', `${tmp.dir}/strict-cli`, '--allow-private', '--delay-ms', '0', '--strict-rdf', '--json', '--quiet']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ rdfDetected: 7, rdfDocuments: 1, statementsDropped: 0, parseFailures: 6 });
  }, 120_000);
});

describe('a crawl of the simulated web', () => {
  it('stores only values that n3 re-reads strictly as valid RDF', async () => {
    const crawler = await Crawler.open({ out: `${tmp.dir}/simweb`, seeds: web.sites.map((s) => s.startUrl), proxy: web.proxyUrl, delayMs: 0, concurrency: 4, maxDocs: 600 });
    try {
      const summary = await crawler.run();
      const { problems, quads } = await checkStore(crawler);
      expect(summary.rdfDocuments + summary.embeddedDocuments, JSON.stringify(summary).slice(0, 300)).toBeGreaterThan(30);
      expect(problems.slice(0, 5)).toEqual([]);
      expect(quads).toBeGreaterThan(1000);
    } finally {
      await crawler.close();
    }
  }, 180_000);
});
