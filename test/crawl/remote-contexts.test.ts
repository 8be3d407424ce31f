// JSON-LD remote contexts in a crawl: shipped ones never fetched, others fetched once through the crawler's fetcher
// (redirects, the JSON Link header, the address guard), kept in the crawl's store for a resume and a re-parse.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../src/crawl/options.ts';
import { reparseArchive } from '../../src/crawl/reparse.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlSummary } from '../../src/crawl-log/tally.ts';
import { openState } from '../../src/state/open-state.ts';
import { exportedLines } from '../helpers/export-text.ts';
import { runCli } from '../helpers/run-cli.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { type ProxyWeb, startProxyWeb, type WebPage } from '../helpers/proxy-web.ts';
import { tempDir, useTempDir } from '../helpers/temp-dir.ts';

const LD = 'application/ld+json';
const CTX_REL = 'http://www.w3.org/ns/json-ld#context';

/** A JSON-LD document about `id` whose `@context` is `context`, with one `name` and one `knows`. */
function doc(context: string, id: string): WebPage {
  return { type: LD, body: JSON.stringify({ '@context': context, id, name: `Name of ${id}`, knows: 'http://ex.org/other' }) };
}

/** A remote context that maps `name`, `knows` and `id` (an `@id` alias) into `ns`. */
function context(ns: string): WebPage {
  return { type: LD, body: JSON.stringify({ '@context': { id: '@id', name: `${ns}name`, knows: { '@id': `${ns}knows`, '@type': '@id' } } }) };
}

/** Runs a crawl (or a resume) to its end; its summary and every record by URL. */
async function crawl(options: Partial<CrawlOptions> & { out: string }, warc?: string): Promise<{ summary: CrawlSummary; records: Map<string, CrawlRecord> }> {
  const crawler = await Crawler.open({ strategy: 'bfs', delayMs: 0, concurrency: 3, ...options }, warc === undefined ? {} : { warc: { target: warc } });
  try {
    const summary = await crawler.run();
    const records = new Map<string, CrawlRecord>();
    for await (const r of readRecords(crawler.state)) records.set(r.url, r);
    return { summary, records };
  } finally {
    await crawler.close();
  }
}

describe('remote JSON-LD contexts in a crawl through a proxy (no --allow-private)', () => {
  let tmp: string;
  let web: ProxyWeb;
  /** A server on a private address (127.0.0.1 by IP), where one document's context lives. */
  let privateServer: TestServer;
  let first: { summary: CrawlSummary; records: Map<string, CrawlRecord> };
  const out = () => join(tmp, 'crawl');
  const warc = () => join(tmp, 'warc/');
  const D = 'http://docs.example';
  const seeds = [`${D}/as.jsonld`, `${D}/a1.jsonld`, `${D}/a2.jsonld`, `${D}/a3.jsonld`, `${D}/page.html`, `${D}/moved.jsonld`, `${D}/data.json`, `${D}/private.jsonld`, `${D}/missing.jsonld`, `${D}/denied.jsonld`, `${D}/alt.jsonld`];
  const requested = (url: string) => web.fetched().filter((u) => u === url).length;

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    tmp = folder.dir;
    privateServer = await startHttpServer((_req, res) => res.writeHead(200, { 'content-type': LD }).end(context('http://private.example/').body));
    web = await startProxyWeb({
      // ActivityStreams: shipped (data/contexts/activitystreams.jsonld).
      [`${D}/as.jsonld`]: { type: LD, body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${D}/note`, type: 'Note', content: 'Hello' }) },
      [`${D}/a1.jsonld`]: doc('http://ctx.example/shared.jsonld', `${D}/a1`),
      [`${D}/a2.jsonld`]: doc('http://ctx.example/shared.jsonld', `${D}/a2`),
      [`${D}/a3.jsonld`]: doc('http://ctx.example/shared.jsonld', `${D}/a3`),
      [`${D}/late.jsonld`]: doc('http://ctx.example/shared.jsonld', `${D}/late`),
      // An HTML page whose JSON-LD block names the same context, beside a block whose context is gone.
      [`${D}/page.html`]: {
        type: 'text/html',
        body: `<!doctype html><html><head><title>p</title><script type="application/ld+json">${doc('http://ctx.example/shared.jsonld', `${D}/page`).body}</script><script type="application/ld+json">${doc('http://ctx.example/gone.jsonld', `${D}/page2`).body}</script></head><body>p</body></html>`,
      },
      'http://ctx.example/shared.jsonld': context('http://shared.example/'),
      // A context that moved: 301 to another origin.
      [`${D}/moved.jsonld`]: doc('http://ctx.example/old.jsonld', `${D}/moved`),
      'http://ctx.example/old.jsonld': { type: 'text/plain', body: 'moved', status: 301, headers: { location: 'http://ctx2.example/new.jsonld' } },
      'http://ctx2.example/new.jsonld': context('http://moved.example/'),
      // Plain JSON that names its context in a Link header (JSON-LD 1.1 §6.1).
      [`${D}/data.json`]: { type: 'application/json', body: JSON.stringify({ id: `${D}/data`, name: 'Data' }), headers: { link: `<http://ctx.example/link.jsonld>; rel="${CTX_REL}"` } },
      'http://ctx.example/link.jsonld': context('http://linked.example/'),
      [`${D}/private.jsonld`]: doc(`${privateServer.origin}/ctx.jsonld`, `${D}/private`),
      [`${D}/missing.jsonld`]: doc('http://ctx.example/gone.jsonld', `${D}/missing`),
      // A context URL that answers HTML naming its JSON-LD alternate (JSON-LD 1.1 API §9.4 step 2).
      [`${D}/alt.jsonld`]: doc('http://ctx.example/page-ctx', `${D}/alt`),
      'http://ctx.example/page-ctx': { type: 'text/html', body: '<html>see the alternate</html>', headers: { link: '<http://ctx.example/alt-ctx.jsonld>; rel="alternate"; type="application/ld+json"' } },
      'http://ctx.example/alt-ctx.jsonld': context('http://alternate.example/'),
      // A context whose host's robots.txt disallows it.
      [`${D}/denied.jsonld`]: doc('http://ctx3.example/ctx.jsonld', `${D}/denied`),
      'http://ctx3.example/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /\n' },
      'http://ctx3.example/ctx.jsonld': context('http://denied.example/'),
    });
    first = await crawl({ out: out(), seeds, proxy: web.proxy }, warc());
  }, 60_000);

  afterAll(async () => {
    await web?.close();
    await privateServer?.close();
  });

  it('a document with a shipped W3C context (ActivityStreams) keeps its triples; the context is never requested', () => {
    expect(first.records.get(`${D}/as.jsonld`)).toMatchObject({ error: null, triples: 2 });
    expect(web.fetched().filter((u) => u.includes('w3.org'))).toEqual([]);
  });

  it('a context on another origin is fetched once for the several documents that need it', async () => {
    for (const n of [1, 2, 3]) expect(first.records.get(`${D}/a${n}.jsonld`)).toMatchObject({ error: null, triples: 2 });
    expect(requested('http://ctx.example/shared.jsonld')).toBe(1);
    const lines = await exportedLines(out());
    expect(lines.some((l) => l.includes(`<${D}/a2> <http://shared.example/knows> <http://ex.org/other>`))).toBe(true);
  });

  it('a JSON-LD block of an HTML page uses the same fetched context; the block whose context is gone fails alone', () => {
    const r = first.records.get(`${D}/page.html`);
    expect(r).toMatchObject({ detectedType: 'html', triples: 2 });
    expect(r?.errorMessage).toContain('http://ctx.example/gone.jsonld');
    expect(requested('http://ctx.example/gone.jsonld')).toBe(1);
  });

  it('a context behind a redirect is followed to its new place', () => {
    expect(first.records.get(`${D}/moved.jsonld`)).toMatchObject({ error: null, triples: 2 });
    expect(requested('http://ctx.example/old.jsonld')).toBe(1);
    expect(requested('http://ctx2.example/new.jsonld')).toBe(1);
  });

  it('a context URL answering HTML with a JSON-LD alternate in its Link header: the alternate is fetched and used', async () => {
    expect(first.records.get(`${D}/alt.jsonld`)).toMatchObject({ error: null, triples: 2 });
    expect(requested('http://ctx.example/page-ctx')).toBe(1);
    expect(requested('http://ctx.example/alt-ctx.jsonld')).toBe(1);
    expect((await exportedLines(out())).some((l) => l.startsWith(`<${D}/alt> <http://alternate.example/name>`))).toBe(true);
  });

  it('a JSON document whose Link header names its context is read as JSON-LD with it', async () => {
    expect(first.records.get(`${D}/data.json`)).toMatchObject({ detectedType: 'rdf', error: null, triples: 1 });
    expect((await exportedLines(out())).some((l) => l.startsWith(`<${D}/data> <http://linked.example/name> "Data"`))).toBe(true);
  });

  it('a context on a private address, gone, or disallowed by robots.txt: the documents that need it fail with the reason, the others keep theirs', () => {
    const r = first.records.get(`${D}/private.jsonld`);
    expect(r).toMatchObject({ detectedType: 'rdf', triples: 0, error: 'RDFSCOUT_REMOTE_CONTEXT' });
    expect(r?.errorMessage).toContain(`${privateServer.origin}/ctx.jsonld`);
    expect(r?.errorMessage).toMatch(/private|loopback|RDFSCOUT_PRIVATE_ADDRESS|refused/i);
    expect(privateServer.requests).toEqual([]);
    const gone = first.records.get(`${D}/missing.jsonld`);
    expect(gone).toMatchObject({ triples: 0, error: 'RDFSCOUT_REMOTE_CONTEXT' });
    expect(gone?.errorMessage).toContain('HTTP 404');
    expect(first.records.get(`${D}/denied.jsonld`)).toMatchObject({ triples: 0, error: 'RDFSCOUT_REMOTE_CONTEXT' });
    expect(first.records.get(`${D}/denied.jsonld`)?.errorMessage).toContain('robots.txt disallows it');
    expect(requested('http://ctx3.example/robots.txt')).toBe(1);
    expect(requested('http://ctx3.example/ctx.jsonld')).toBe(0);
  });

  it('contexts are counted apart from documents: 4 fetched, 3 failed (the crawl summary and stats)', async () => {
    expect(first.summary.contexts).toEqual({ fetched: 4, failed: 3 });
    expect(first.summary.rdfDocuments).toBe(7);
    const stats = await runCli(['stats', out(), '--json']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ rdfDocuments: 7, contexts: { fetched: 4, failed: 3 } });
  }, 30_000);

  it('a resume does not fetch a context again', async () => {
    const again = await crawl({ out: out(), seeds: [`${D}/late.jsonld`], proxy: web.proxy }, warc());
    expect(again.records.get(`${D}/late.jsonld`)).toMatchObject({ error: null, triples: 2 });
    expect(requested(`${D}/late.jsonld`)).toBe(1);
    expect(requested('http://ctx.example/shared.jsonld')).toBe(1);
    expect(again.summary.contexts).toEqual({ fetched: 4, failed: 3 });
  }, 30_000);

  it('reparse uses the contexts the crawl archived, and fetches nothing', async () => {
    const before = web.fetched().length;
    const reparsed = join(tmp, 'reparsed');
    const summary = await reparseArchive({ out: reparsed, warc: [warc()] });
    expect(summary.warnings).toBe(0);
    expect(web.fetched().length).toBe(before);
    expect(await exportedLines(reparsed)).toEqual(await exportedLines(out()));
    const state = await openState(reparsed);
    try {
      const byUrl = new Map<string, CrawlRecord>();
      for await (const r of readRecords(state)) byUrl.set(r.url, r);
      expect(byUrl.get(`${D}/late.jsonld`)).toMatchObject({ error: null, triples: 2 });
      expect(byUrl.get(`${D}/private.jsonld`)).toMatchObject({ error: 'RDFSCOUT_REMOTE_CONTEXT' });
    } finally {
      await state.close();
    }
  }, 30_000);

  it('--no-remote-contexts keeps the documents that need one failing, with nothing fetched', async () => {
    const before = requested('http://ctx.example/shared.jsonld');
    const off = await crawl({ out: join(tmp, 'off'), seeds: [`${D}/a1.jsonld`, `${D}/as.jsonld`], proxy: web.proxy, remoteContexts: false });
    expect(off.records.get(`${D}/a1.jsonld`)).toMatchObject({ triples: 0, error: 'RDFSCOUT_REMOTE_CONTEXT' });
    expect(off.records.get(`${D}/a1.jsonld`)?.errorMessage).toContain('--no-remote-contexts');
    expect(off.records.get(`${D}/as.jsonld`)).toMatchObject({ error: null, triples: 2 });
    expect(requested('http://ctx.example/shared.jsonld')).toBe(before);
    expect(off.summary.contexts).toEqual({ fetched: 0, failed: 0 });
  }, 30_000);
});

describe('a context on another 127.0.0.1 origin, with --allow-private', () => {
  it('is fetched once for every document that needs it', async () => {
    const tmp = await tempDir();
    const contexts = await startHttpServer((req, res) => {
      if (req.url === '/ctx.jsonld') return res.writeHead(200, { 'content-type': LD }).end(context('http://local.example/').body);
      return res.writeHead(404).end();
    });
    const docs = await startHttpServer((req, res) => {
      const m = /^\/d(\d)\.jsonld$/.exec(req.url ?? '');
      if (m === null) return res.writeHead(404).end();
      return res.writeHead(200, { 'content-type': LD }).end(doc(`${contexts.origin}/ctx.jsonld`, `http://local.example/d${m[1]}`).body);
    });
    try {
      const seeds = [1, 2, 3, 4].map((n) => `${docs.origin}/d${n}.jsonld`);
      const { records, summary } = await crawl({ out: join(tmp, 'crawl'), seeds, allowPrivate: true, concurrency: 4, hostConcurrency: 4 });
      for (const s of seeds) expect(records.get(s)).toMatchObject({ error: null, triples: 2 });
      expect(contexts.requests.filter((r) => r.url === '/ctx.jsonld')).toHaveLength(1);
      expect(summary.contexts).toEqual({ fetched: 1, failed: 0 });
    } finally {
      await docs.close();
      await contexts.close();
    }
  }, 30_000);
});
