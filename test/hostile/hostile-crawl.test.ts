// Real crawls over a hostile server: every trap ends within its bound, is recorded with a clear code, memory stays bounded, good documents survive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAVY_PATHS, HOSTILE_PATHS, type HostileServer, startHostileServer } from '../helpers/hostile-server.ts';
import { type HostileCrawl, recordOf, runHostileCrawl } from './run-crawl.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

describe('a crawl over a hostile server', () => {
  let server: HostileServer;
  let dir: string;
  let crawl: HostileCrawl;
  const rec = (path: string) => recordOf(crawl, path);

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    server = await startHostileServer();
    dir = folder.dir;
    // Every trap is a seed (depth 0); the CPU-heavy pages have their own crawl (heavy-pages.test.ts), so that the
    // timing bounds here measure the fetcher, not a busy event loop.
    const paths = HOSTILE_PATHS.filter((p) => !HEAVY_PATHS.includes(p));
    const seeds = [...paths.map((p) => server.origin + p), `${server.origin}/long/${'z'.repeat(100_000)}`, `${server.origin}/chain/12`, `${server.origin}/chain/5`];
    crawl = await runHostileCrawl(dir, server.origin, seeds);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('finishes within its bound and keeps memory bounded', () => {
    expect(crawl.summary.stoppedBy).toBe('frontier-empty');
    expect(crawl.elapsedMs).toBeLessThan(30_000);
    console.log(`hostile crawl: ${crawl.records.length} records in ${Math.round(crawl.elapsedMs)} ms, peak RSS +${Math.round(crawl.peakRssGrowthMb)} MB`);
    expect(crawl.peakRssGrowthMb).toBeLessThan(300);
  });

  it('records every URL once, and stores the good documents whole', () => {
    const { records, graphs } = crawl;
    const urls = records.map((r) => r.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(rec('/good/a.ttl')).toMatchObject({ outcome: 'ok', triples: 3, error: null });
    expect(rec('/good/b.rdf')).toMatchObject({ outcome: 'ok', triples: 2, error: null });
    expect(graphs.get(`${server.origin}/good/a.ttl`)).toBe(3);
    expect(graphs.get(`${server.origin}/good/b.rdf`)).toBe(2);
    expect(graphs.get(`${server.origin}/good/c.ttl`)).toBe(1);
    // Nothing is stored that no record accounts for.
    const stored = records.reduce((n, r) => n + r.triples, 0);
    expect([...graphs.values()].reduce((a, b) => a + b, 0)).toBe(stored);
  });

  describe('slow servers', () => {
    it('slowloris headers: RDFSCOUT_HEADERS_TIMEOUT', () => {
      const r = rec('/slow/headers');
      expect(r).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_HEADERS_TIMEOUT', triples: 0 });
      expect(r.ms).toBeLessThan(4000);
    });
    it('a body that never ends: RDFSCOUT_BODY_TIMEOUT at the total deadline', () => {
      const r = rec('/slow/body');
      expect(r).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_BODY_TIMEOUT', status: 200 });
      expect(r.ms).toBeGreaterThanOrEqual(2900);
      expect(r.ms).toBeLessThan(6000);
    });
    it('accept and never answer: RDFSCOUT_HEADERS_TIMEOUT', () => {
      const r = rec('/slow/silent');
      expect(r).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_HEADERS_TIMEOUT', status: null });
      expect(r.ms).toBeLessThan(4000);
    });
  });

  describe('size', () => {
    it('a 2 GB streamed body stops at maxBodyBytes: RDFSCOUT_BODY_TOO_LARGE', () => {
      expect(rec('/size/2gb')).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_BODY_TOO_LARGE', status: 200 });
    });

    it('a declared 2 GB body is refused from its Content-Length', () => {
      expect(rec('/size/2gb-declared')).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_BODY_TOO_LARGE' });
      expect(rec('/size/2gb-declared').errorMessage).toMatch(/2147483648 bytes/);
    });

    it('a 100 kB URL is never requested: RDFSCOUT_URL_TOO_LONG as a seed or a redirect, a bad link on a page', () => {
      expect(rec(`/long/${'z'.repeat(200 - 6)}`)).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_URL_TOO_LONG' });
      // A 100 kB Location header overflows undici's header limit: a permanent connection failure, not retried.
      expect(rec('/size/redirect-long')).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_CONNECTION_FAILED' });
      expect(rec('/size/redirect-long').errorMessage).toMatch(/HEADERS_OVERFLOW/);
      expect(rec('/size/long-url.html')).toMatchObject({ outcome: 'ok', linksQueued: 1 });
      expect(server.hitsUnder('/long/')).toBe(0);
      expect(server.longestTarget()).toBeLessThan(2048);
    });
  });

  describe('loops and traps', () => {
    it('redirect loops end with RDFSCOUT_REDIRECT_LOOP', () => {
      expect(rec('/loop/a')).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_REDIRECT_LOOP' });
      expect(rec('/loop/self')).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_REDIRECT_LOOP' });
      expect(server.hits('/loop/self')).toBe(1);
    });
    it('a long chain ends with RDFSCOUT_REDIRECT_LIMIT; a chain of 5 is followed', () => {
      expect(rec('/chain/12')).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_REDIRECT_LIMIT' });
      expect(rec('/chain/12').redirects.length).toBe(6);
      const five = rec('/chain/5');
      expect(five).toMatchObject({ outcome: 'ok', finalUrl: `${server.origin}/chain/end`, triples: 1 });
      expect(five.redirects.length).toBe(5);
    });
  });

  describe('lies', () => {
    it('HTML served as application/rdf+xml is read as HTML (sniffed), not stored as RDF', () => {
      const r = rec('/lie/html-as-rdfxml');
      expect(r).toMatchObject({ outcome: 'ok', detectedType: 'html', triples: 0, linksQueued: 1 });
    });
    it('Turtle served as text/plain is read, sniffed and stored, with or without an RDF extension (issue 16 item 4)', () => {
      expect(rec('/lie/rdf-as-text')).toMatchObject({ outcome: 'ok', detectedType: 'rdf', triples: 3, error: null });
      expect(rec('/lie/rdf-as-text.ttl')).toMatchObject({ outcome: 'ok', detectedType: 'rdf', triples: 3, error: null });
    });
    it('an unknown charset falls back to UTF-8', () => {
      expect(rec('/lie/wrong-charset.ttl')).toMatchObject({ outcome: 'ok', triples: 1, error: null });
    });
    it('invalid UTF-8 is decoded with replacement characters, the document kept', () => {
      expect(rec('/lie/latin1-as-utf8.ttl')).toMatchObject({ outcome: 'ok', triples: 1, error: null });
    });
    it('a byte-order mark does not break parsing', () => {
      expect(rec('/lie/bom.ttl')).toMatchObject({ outcome: 'ok', detectedType: 'rdf', triples: 3, error: null });
    });
    it('truncated gzip: RDFSCOUT_DECODE_FAILED', () => {
      expect(rec('/lie/truncated-gzip.ttl')).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_DECODE_FAILED', triples: 0 });
      expect(crawl.graphs.has(`${server.origin}/lie/truncated-gzip.ttl`)).toBe(false);
    });
  });

  describe('broken content', () => {
    it('Turtle with a syntax error in the middle loses the failing statement only, and says so', () => {
      // ex:e's string is cut by its line's end: that statement (line 4) is dropped; ex:f's on line 5 is read.
      expect(rec('/broken/syntax.ttl')).toMatchObject({ outcome: 'ok', detectedType: 'rdf', triples: 3, error: null, recovery: { dropped: 1, repaired: 0 } });
      expect(rec('/broken/syntax.ttl').recovery?.errors[0]?.line).toBe(4);
      expect(crawl.graphs.has(`${server.origin}/broken/syntax.ttl`)).toBe(true);
    });
    it('RDF/XML billion laughs is refused without expansion', () => {
      const r = rec('/broken/laughs.rdf');
      expect(r).toMatchObject({ detectedType: 'rdf', triples: 0, error: 'RDFSCOUT_PARSE_FAILED' });
      expect(r.ms).toBeLessThan(2000);
    });
    it('RDF/XML external entities are never fetched', () => {
      expect(rec('/broken/xxe.rdf')).toMatchObject({ detectedType: 'rdf', triples: 0, error: 'RDFSCOUT_PARSE_FAILED' });
      expect(server.hits('/canary/xxe')).toBe(0);
    });
    it('JSON-LD with a remote context that cannot be had: fetched once by the crawler, RDFSCOUT_REMOTE_CONTEXT with the reason', () => {
      const r = rec('/broken/remote-context.jsonld');
      expect(r).toMatchObject({ detectedType: 'rdf', triples: 0, error: 'RDFSCOUT_REMOTE_CONTEXT' });
      expect(r.errorMessage).toMatch(/HTTP 404/);
      expect(server.hits('/canary/context.jsonld')).toBe(1);
    });
    it('HTML that never closes its tags still yields its links', () => {
      expect(rec('/broken/unclosed.html')).toMatchObject({ outcome: 'ok', detectedType: 'html', error: null, linksQueued: 2 });
    });
    it('RDFa on broken markup is read as a browser would', () => {
      const r = rec('/broken/rdfa.html');
      expect(r).toMatchObject({ outcome: 'ok', detectedType: 'html', error: null });
      expect(r.triples).toBeGreaterThanOrEqual(2);
    });
  });

  describe('robots', () => {
    it('a disallowed path is recorded RDFSCOUT_ROBOTS_DENIED and never requested', () => {
      expect(rec('/forbidden/data.ttl')).toMatchObject({ outcome: 'denied', error: 'RDFSCOUT_ROBOTS_DENIED' });
      expect(server.hits('/forbidden/data.ttl')).toBe(0);
      expect(server.hits('/robots.txt')).toBe(1);
    });
  });
});

// Crawled after the traps above (tests of one file run in order), so that neither crawl skews the other's timing.
const MAX_LINKS = 50;

describe('heavy pages', () => {
  let server: HostileServer;
  let dir: string;
  let crawl: HostileCrawl;
  const rec = (path: string) => recordOf(crawl, path);

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    server = await startHostileServer();
    dir = folder.dir;
    const seeds = [...HEAVY_PATHS.filter((p) => !p.includes('bomb')), '/good/a.ttl', '/good/b.rdf'].map((p) => server.origin + p);
    // Generous deadlines: here the bound under test is size, not time (the server shares this process's CPU).
    crawl = await runHostileCrawl(dir, server.origin, seeds, { maxLinksPerDoc: MAX_LINKS, totalTimeoutMs: 20_000, bodyTimeoutMs: 10_000, headersTimeoutMs: 10_000 });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('finishes within its bound; memory stays bounded', () => {
    console.log(`heavy crawl: ${crawl.records.length} records in ${Math.round(crawl.elapsedMs)} ms, peak RSS +${Math.round(crawl.peakRssGrowthMb)} MB`);
    expect(crawl.summary.stoppedBy).toBe('frontier-empty');
    expect(crawl.elapsedMs).toBeLessThan(60_000);
    expect(crawl.peakRssGrowthMb).toBeLessThan(800); // see the million-link case: parse-embedded's scan dominates
  });

  it('good documents are stored whole next to the heavy ones', () => {
    expect(crawl.graphs.get(`${server.origin}/good/a.ttl`)).toBe(3);
    expect(crawl.graphs.get(`${server.origin}/good/b.rdf`)).toBe(2);
  });

  it('a 10 MB single-line page is read and its link found', () => {
    expect(rec('/size/long-line.html')).toMatchObject({ outcome: 'ok', detectedType: 'html', error: null, linksQueued: 1 });
    expect(server.hits('/t/long-line.ttl')).toBe(1);
  });

  it('a page with a million links: only the first --max-links-per-doc count', () => {
    const r = rec('/size/million-links.html');
    expect(r).toMatchObject({ outcome: 'ok', detectedType: 'html', linksQueued: MAX_LINKS });
    expect(server.hitsUnder('/m/')).toBe(MAX_LINKS);
    expect(server.hits(`/m/${MAX_LINKS + 1}`)).toBe(0);
    console.log(`million-link page processed in ${r.ms} ms`);
  });
});

describe('compression bombs', () => {
  let server: HostileServer;
  let dir: string;
  let crawl: HostileCrawl;
  const rec = (path: string) => recordOf(crawl, path);

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    server = await startHostileServer();
    dir = folder.dir;
    const seeds = ['/size/gzip-bomb', '/size/brotli-bomb', '/good/a.ttl'].map((p) => server.origin + p);
    crawl = await runHostileCrawl(dir, server.origin, seeds, { totalTimeoutMs: 20_000, bodyTimeoutMs: 10_000 });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('bounded memory, the good document kept', () => {
    console.log(`bomb crawl: ${Math.round(crawl.elapsedMs)} ms, peak RSS +${Math.round(crawl.peakRssGrowthMb)} MB`);
    expect(crawl.peakRssGrowthMb).toBeLessThan(300);
    expect(crawl.graphs.get(`${server.origin}/good/a.ttl`)).toBe(3);
  });

  it('gzip and brotli bombs stop at the decompressed limit', () => {
    expect(rec('/size/gzip-bomb')).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_DECOMPRESSED_TOO_LARGE' });
    expect(rec('/size/brotli-bomb')).toMatchObject({ outcome: 'failed', error: 'RDFSCOUT_DECOMPRESSED_TOO_LARGE' });
  });

});
