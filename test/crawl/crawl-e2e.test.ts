// End to end: crawl a real local site through the CLI, then read the state back with docs and export.
import { join } from 'node:path';
import { Parser } from 'n3';
import { DataFactory } from 'rdf-data-factory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { recordToQuads } from '../../src/crawl-log/crawl-vocab.ts';
import { openState } from '../../src/state/open-state.ts';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';
import { tempDir, useTempDir } from '../helpers/temp-dir.ts';
import { runCli as cli, startCli } from '../helpers/run-cli.ts';

interface Doc {
  seq: number;
  url: string;
  finalUrl: string;
  status: number | null;
  detectedType: string | null;
  triples: number;
  error: string | null;
  label: string | null;
  rules: string[];
  depth: number;
  parent: string | null;
}

describe('rdfscout crawl on a local site', () => {
  let site: TinySite;
  let dir: string;
  let docs: Doc[];

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    site = await startTinySite();
    dir = folder.dir;
    const res = await cli(['crawl', `${site.base}/`, '--out', join(dir, 'out'), '--allow-private', '--delay-ms', '0', '--max-docs', '50', '--json', '--quiet']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const summary = JSON.parse(res.stdout);
    // alice.ttl, bob.ttl, thing.rdf, other.rdf (via 303), home.ttl (Link header), dataset.ttl (sitemap), all.nt (VoID dump)
    expect(summary.rdfDocuments).toBe(7);
    const out = await cli(['docs', join(dir, 'out')]);
    docs = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as Doc);
  });

  afterAll(async () => {
    await site.close();
  });

  it('records every fetch in order with the predicted label and rules', () => {
    expect(docs.map((d) => d.seq)).toEqual(docs.map((_, i) => i + 1));
    const byUrl = new Map(docs.map((d) => [d.url.replace(site.base, ''), d]));
    expect(byUrl.get('/')?.label).toBeNull();
    expect(byUrl.get('/data/thing.rdf')).toMatchObject({ label: 'R', detectedType: 'rdf', triples: 2, status: 200 });
    expect(byUrl.get('/data/thing.rdf')?.rules).toContain('ex1');
    expect(byUrl.get('/foaf/alice.ttl')?.rules).toEqual(expect.arrayContaining(['ex1', 'ty1']));
    // the link filter NF drops images and PDFs before fetching (thesis §7 a)
    expect(byUrl.has('/logo.png')).toBe(false);
    expect(byUrl.has('/brochure.pdf')).toBe(false);
  });

  it('fetches predicted RDF before plain HTML (best-first, thesis §6)', () => {
    const seqOf = (p: string) => docs.find((d) => d.url === `${site.base}${p}`)?.seq ?? Number.POSITIVE_INFINITY;
    expect(seqOf('/data/thing.rdf')).toBeLessThan(seqOf('/about.html'));
    expect(seqOf('/broken.ttl')).toBeLessThan(seqOf('/about.html'));
  });

  it('follows a 303 by itself and stores the document under its final URL', () => {
    const go = docs.find((d) => d.url === `${site.base}/go`);
    expect(go).toMatchObject({ finalUrl: `${site.base}/data/other.rdf`, status: 200, detectedType: 'rdf' });
  });

  it('honours robots.txt and records the refusal', () => {
    const secret = docs.find((d) => d.url.endsWith('/private/secret.rdf'));
    expect(secret?.error).toBe('RDFSCOUT_ROBOTS_DENIED');
    expect(site.hits.get('/private/secret.rdf') ?? 0).toBe(0);
  });

  it('stores nothing of a document with a syntax error, and says why', () => {
    const broken = docs.find((d) => d.url.endsWith('/broken.ttl'));
    expect(broken).toMatchObject({ detectedType: 'rdf', triples: 0, error: 'RDFSCOUT_PARSE_FAILED' });
  });

  it('exports N-Quads that an independent parser reads, one graph per document', async () => {
    const out = await cli(['export', join(dir, 'out')]);
    expect(out.code).toBe(0);
    const quads = new Parser({ format: 'N-Quads' }).parse(out.stdout);
    const docGraphs = new Set(quads.map((q) => q.graph.value).filter((g) => g !== 'urn:rdfscout:crawl'));
    expect(docGraphs).toEqual(
      new Set(
        ['/foaf/alice.ttl', '/foaf/bob.ttl', '/data/thing.rdf', '/data/other.rdf', '/embedded.html', '/data/home.ttl', '/hidden/dataset.ttl', '/dumps/all.nt'].map(
          (p) => `${site.base}${p}`,
        ),
      ),
    );
    const stored = docs.reduce((n, d) => n + d.triples, 0);
    expect(quads.filter((q) => q.graph.value !== 'urn:rdfscout:crawl').length).toBe(stored);
    expect(quads.some((q) => q.graph.value.endsWith('/broken.ttl'))).toBe(false);
  });

  it('finds RDF beyond links: robots.txt sitemaps, HTTP Link headers, VoID data dumps', async () => {
    const byPath = (p: string) => docs.find((d) => d.url === `${site.base}${p}`);
    expect(byPath('/sitemap.xml')).toMatchObject({ status: 200, rules: ['sitemap'], label: null });
    expect(byPath('/hidden/dataset.ttl')).toMatchObject({ parent: `${site.base}/sitemap.xml`, detectedType: 'rdf', label: 'R' });
    expect(byPath('/data/home.ttl')).toMatchObject({ parent: `${site.base}/`, detectedType: 'rdf', label: 'R' });
    expect(byPath('/dumps/all.nt')).toMatchObject({ parent: `${site.base}/hidden/dataset.ttl`, triples: 2 });
    const stats = await cli(['stats', join(dir, 'out'), '--json']);
    expect(JSON.parse(stats.stdout).void).toEqual({
      dumps: [{ url: `${site.base}/dumps/all.nt`, foundIn: `${site.base}/hidden/dataset.ttl` }],
      endpoints: [{ url: 'http://sparql.example.org/query', foundIn: `${site.base}/hidden/dataset.ttl` }],
    });
  });

  it('refuses a resume that changes the strategy, with exit code 2', async () => {
    const res = await cli(['crawl', '--out', join(dir, 'out'), '--strategy', 'bfs']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--strategy fc-r\+hr/);
  });

  it('rejects bad arguments with exit code 2 and a clear message', async () => {
    const res = await cli(['crawl', 'http://x.example/', '--out', join(dir, 'bad'), '--max-docs', 'lots']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--max-docs must be a whole number/);
  });
});

describe('the crawl graph', () => {
  it('is a view over the records: exported and queryable, one description per fetch, nothing extra stored', async () => {
    const site = await startTinySite();
    const dir = await tempDir();
    try {
      const res = await cli(['crawl', `${site.base}/`, '--out', join(dir, 'o'), '--allow-private', '--delay-ms', '0', '--json', '--quiet']);
      expect(JSON.parse(res.stdout).rdfDocuments).toBe(7);
      const records = (await cli(['docs', join(dir, 'o')])).stdout.trim().split('\n').map((l) => JSON.parse(l) as CrawlRecord);
      expect(records.length).toBe(JSON.parse(res.stdout).records); // robots refusals included
      const df = new DataFactory();
      const expected = records.flatMap((r) => recordToQuads(r, df)).map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`);
      const quads = new Parser({ format: 'N-Quads' }).parse((await cli(['export', join(dir, 'o'), '--with-crawl-graph'])).stdout);
      const crawlQuads = quads.filter((q) => q.graph.value === 'urn:rdfscout:crawl').map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`);
      expect(crawlQuads.sort()).toEqual(expected.sort());
      // without --with-crawl-graph the export holds the documents only (as the SPARQL default graph does)
      const plain = new Parser({ format: 'N-Quads' }).parse((await cli(['export', join(dir, 'o')])).stdout);
      expect(plain.filter((q) => q.graph.value === 'urn:rdfscout:crawl')).toEqual([]);
      expect(plain.length).toBe(quads.length - crawlQuads.length);
      const state = await openState(join(dir, 'o'));
      try {
        const { items } = await state.quadstore.get({ graph: df.namedNode('urn:rdfscout:crawl') });
        expect(items).toEqual([]);
      } finally {
        await state.close();
      }
      const q = await cli(['query', join(dir, 'o'), `SELECT ?status WHERE { GRAPH <urn:rdfscout:crawl> { <${site.base}/foaf/alice.ttl> <http://www.w3.org/2011/http#statusCodeValue> ?status } }`, '--format', 'json']);
      expect(JSON.parse(q.stdout).results.bindings).toEqual([{ status: { type: 'literal', value: '200', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } }]);
    } finally {
      await site.close();
    }
  }, 90_000); // six CLI runs (crawl, docs, export twice, query): slow on a shared machine
});

describe('politeness and interruption', () => {
  it('waits --delay-ms between requests to one PLD, even with fetches to spare', async () => {
    const site = await startTinySite();
    const dir = await tempDir();
    try {
      const res = await cli(['crawl', `${site.base}/`, '--out', join(dir, 'o'), '--allow-private', '--delay-ms', '150', '--concurrency', '4', '--max-docs', '8', '--json', '--quiet']);
      expect(res.code).toBe(0);
      expect(site.times.length).toBeGreaterThanOrEqual(8);
      const gaps = site.times.slice(1).map((t, i) => t - site.times[i]!);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(140); // 150 ms, less timer and clock granularity
    } finally {
      await site.close();
    }
  });

  it('stops cleanly on Ctrl-C (SIGINT): exit 130, and the same command resumes', async () => {
    const site = await startTinySite(60);
    const dir = await tempDir();
    const args = ['crawl', `${site.base}/`, '--out', join(dir, 'o'), '--allow-private', '--delay-ms', '0', '--concurrency', '1', '--json', '--quiet'];
    try {
      const child = startCli(args);
      const deadline = Date.now() + 30_000;
      while ((site.hits.get('/') ?? 0) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 200));
      child.signal('SIGINT');
      expect(await child.ended('the interrupted crawl to exit')).toBe(130);
      expect(child.stderr()).toMatch(/Stopping/);
      const first = (await cli(['docs', join(dir, 'o')])).stdout.trim().split('\n').filter(Boolean).length;
      expect(first).toBeGreaterThan(0);
      const resumed = await cli(args);
      expect(resumed.code).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ resumed: true, rdfDocuments: 7 });
    } finally {
      await site.close();
    }
  }, 90_000);
});

describe('resume after SIGKILL', () => {
  it('loses no frontier entry and stores no document twice', async () => {
    const site = await startTinySite(40);
    const dir = await tempDir();
    try {
      const args = ['crawl', `${site.base}/`, '--allow-private', '--delay-ms', '0', '--concurrency', '2', '--max-docs', '50', '--quiet', '--json'];
      const ref = await cli([...args, '--out', join(dir, 'ref')]);
      expect(ref.code).toBe(0);
      const out = join(dir, 'killed');
      // Kill after the crawler has made a few more requests each time (start-up time varies with machine load).
      const total = () => [...site.hits.values()].reduce((a, b) => a + b, 0);
      for (const more of [3, 5, 4]) {
        const before = total();
        const child = startCli([...args, '--out', out]);
        const deadline = Date.now() + 30_000;
        while (total() < before + more && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        child.signal('SIGKILL');
        await child.ended('the killed crawl to exit');
      }
      const final = await cli([...args, '--out', out]);
      expect(final.code).toBe(0);
      const graphs = async (d: string) => {
        const text = (await cli(['export', d])).stdout;
        const quads = new Parser({ format: 'N-Quads' }).parse(text).filter((q) => q.graph.value !== 'urn:rdfscout:crawl');
        return { graphs: [...new Set(quads.map((q) => q.graph.value))].sort(), count: quads.length };
      };
      const a = await graphs(join(dir, 'ref'));
      const b = await graphs(out);
      expect(b).toEqual(a);
      const docs = (await cli(['docs', out])).stdout.trim().split('\n').map((l) => JSON.parse(l) as Doc);
      const urls = docs.map((d) => d.url);
      expect(new Set(urls).size).toBe(urls.length); // no URL fetched-and-recorded twice
    } finally {
      await site.close();
    }
  }, 180_000);
});
