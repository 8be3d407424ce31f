// The fetch budgets hold exactly with many fetches in flight, defaults never cut a budget asked for, and the
// summary says what ended the crawl (issue 14 item 7).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRAWL_FLAGS, CRAWL_USAGE } from '../../src/commands/crawl.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import { resolveCrawlOptions } from '../../src/crawl/options.ts';
import type { CrawlSummary } from '../../src/crawl-log/tally.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { startTinySite } from '../helpers/tiny-site.ts';
import { tempDir, useTempDir } from '../helpers/temp-dir.ts';

describe('fetch budgets with concurrency', () => {
  let web: SimWeb;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'thesis', seed: 5, scale: 0.1 });
    dir = folder.dir;
  });
  afterAll(async () => {
    await web.close();
  });

  for (const concurrency of [1, 6]) {
    it(`spends exactly --max-docs and --max-docs-per-pld at concurrency ${concurrency}`, async () => {
      const crawler = await Crawler.open({
        out: join(dir, `c${concurrency}`),
        seeds: web.sites.map((s) => s.startUrl),
        proxy: web.proxyUrl,
        delayMs: 0,
        concurrency,
        hostConcurrency: 3,
        maxDocs: 25,
        maxDocsPerPld: 8,
        bandit: 'none', // the global order piles onto the richest PLD, so the per-PLD cap binds
      });
      try {
        const summary = await crawler.run();
        expect(summary.stoppedBy).toBe('max-docs');
        // robots.txt refusals are recorded (denied) but send no request: they are not fetched and spend no budget
        expect(summary.fetched).toBe(25);
        for (const pld of Object.values(summary.perPld)) expect(pld.fetched).toBeLessThanOrEqual(8);
        for (const pld of Object.values(summary.perPld)) expect(pld.fetched + pld.denied).toBeGreaterThan(0); // only PLDs with records
        expect(Object.values(summary.perPld).some((p) => p.fetched === 8)).toBe(true); // the per-PLD cap did bind
      } finally {
        await crawler.close();
      }
    });
  }
});

/**
 * A site whose home page links, in this order: /slow.html, which answers 503 after 300 ms the first time (a retryable
 * failure) and 200 after; then pages and robots-refused URLs alternately (bfs fetches in this order).
 */
async function startSlowRetrySite(): Promise<TestServer> {
  const links = ['/slow.html', ...Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? `/page${i}.html` : `/private/p${i}.html`))];
  let slowHits = 0;
  return startHttpServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    if (path === '/slow.html' && ++slowHits === 1) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
    }
    const body = path === '/' ? links.map((l) => `<a href="${l}">${l}</a>`).join(' ') : 'a page';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`);
  });
}

describe('the total budget is spent to the last request', () => {
  let site: TestServer;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    site = await startSlowRetrySite();
    dir = folder.dir;
  });
  afterAll(async () => {
    await site.close();
  });

  async function crawl(out: string, maxDocs: number): Promise<CrawlSummary> {
    const crawler = await Crawler.open({
      out, seeds: [`${site.origin}/`], allowPrivate: true, delayMs: 0, concurrency: 4, hostConcurrency: 4, strategy: 'bfs', bandit: 'none', maxRetries: 1, maxDocs,
    });
    try {
      return await crawler.run();
    } finally {
      await crawler.close();
    }
  }

  it('a fetch in flight at the end that gives its slot back (a retry) does not end the crawl short (was: 4 of 5)', async () => {
    const out = join(dir, 'c');
    // After the home page the 4 slots left go to /slow.html, 2 pages and a robots refusal (which spends nothing, so a
    // third page follows). The pages land first and fill the budget while /slow.html is in flight; it then fails
    // with 503 and goes back to the queue: its slot must be used, by its retry.
    const first = await crawl(out, 5);
    expect(first.stoppedBy).toBe('max-docs');
    expect(first.fetched).toBe(5);
    expect(first.denied).toBeGreaterThan(0);
    const sent = () => site.requests.filter((r) => r.url !== '/robots.txt').length;
    expect(sent()).toBe(6); // 5 records, and the 503 answer that was retried
    const resumed = await crawl(out, 8);
    expect(resumed.fetched).toBe(8);
    expect(resumed.stoppedBy).toBe('max-docs');
    expect(sent()).toBe(9);
  });
});

describe('budget defaults and the stop reason', () => {
  it('--max-docs defaults to 1000 only when no per-PLD budget is given', () => {
    expect(resolveCrawlOptions({ out: 'x' }).maxDocs).toBe(1000);
    expect(resolveCrawlOptions({ out: 'x', maxDocsPerPld: 300 }).maxDocs).toBe(Number.POSITIVE_INFINITY);
    expect(resolveCrawlOptions({ out: 'x', maxDocsPerPld: 300, maxDocs: 50 }).maxDocs).toBe(50);
  });

  it('says which stopped the crawl: the per-PLD budget, the depth limit, an empty frontier, a signal', async () => {
    const web = await startSimweb({ profiles: 'thesis', seed: 5, scale: 0.1 });
    const site = await startTinySite();
    const dir = await tempDir();
    const run = async (name: string, opts: Record<string, unknown>, signal?: AbortSignal): Promise<CrawlSummary> => {
      const crawler = await Crawler.open({ out: join(dir, name), delayMs: 0, concurrency: 3, hostConcurrency: 3, seeds: [], ...opts });
      try {
        return await crawler.run(signal ? { signal } : {});
      } finally {
        await crawler.close();
      }
    };
    try {
      const perPld = await run('per-pld', { seeds: web.sites.map((s) => s.startUrl), proxy: web.proxyUrl, maxDocsPerPld: 4 });
      expect(perPld.stoppedBy).toBe('max-docs-per-pld');
      expect(Object.keys(perPld.perPld)).toHaveLength(web.sites.length);
      expect(perPld.fetched).toBe(4 * web.sites.length); // no smaller total applied
      const tiny = { seeds: [`${site.base}/`], allowPrivate: true };
      expect((await run('depth', { ...tiny, maxDepth: 0 })).stoppedBy).toBe('max-depth');
      const all = await run('all', tiny);
      expect(all.stoppedBy).toBe('frontier-empty');
      expect(all.fetched).toBeLessThan(1000);
      const aborted = new AbortController();
      aborted.abort();
      expect((await run('signal', tiny, aborted.signal)).stoppedBy).toBe('signal');
    } finally {
      await web.close();
      await site.close();
    }
  }, 30_000);

  it('crawl --help names every flag the parser accepts, --user-agent included', () => {
    const flags = Object.keys(CRAWL_FLAGS);
    expect(flags).toContain('user-agent');
    const missing = flags.filter((f) => !new RegExp(`--${f}\\b`).test(CRAWL_USAGE));
    expect(missing).toEqual([]);
  });
});
