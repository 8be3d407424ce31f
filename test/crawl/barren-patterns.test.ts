// Links from RDF and test-suite reports: blank-node hrefs are not URLs, and a page naming hundreds of
// test IRIs of one pattern does not spend the budget on them all once the first ones yielded nothing.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { BARREN_AFTER } from '../../src/relevance/pattern-yield.ts';
import { crawlRecords } from '../helpers/crawl-records.ts';
import { linkPage, type ProxyWeb, startProxyWeb, turtle, type WebPage } from '../helpers/proxy-web.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const SITE = 'http://suite.example';
const TESTS = 60;
const THINGS = 10;

let web: ProxyWeb;
let dir: string;
const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  const pages: Record<string, WebPage> = {};
  // The report names every test IRI first, then the vocabulary's things (content-negotiated to Turtle).
  const hrefs = [...Array.from({ length: TESTS }, (_, i) => `/tests/t${i}`), ...Array.from({ length: THINGS }, (_, i) => `/things/x${i}`)];
  pages[`${SITE}/report`] = {
    type: 'text/html',
    body: `<html><body vocab="http://schema.org/">${hrefs.map((h) => `<a href="${h}">${h}</a>`).join(' ')}<a property="about" href="_:b4999">a blank node</a></body></html>`,
  };
  for (let i = 0; i < TESTS; i++) pages[`${SITE}/tests/t${i}`] = linkPage(`test ${i}`, []);
  for (let i = 0; i < THINGS; i++) pages[`${SITE}/things/x${i}`] = turtle(`${SITE}/things/x${i}`);
  web = await startProxyWeb(pages);
  dir = folder.dir;
});
afterAll(async () => {
  await web.close();
});

function crawl(strategy: string): Promise<CrawlRecord[]> {
  return crawlRecords({ out: join(dir, strategy), seeds: [`${SITE}/report`], strategy, delayMs: 0, concurrency: 1, proxy: web.proxy, maxDocs: 1 + BARREN_AFTER + THINGS + 2 });
}

describe('a test-suite report naming many IRIs of one pattern', () => {
  it('fc-r+hr fetches the first test IRIs, learns the pattern is barren, and spends the rest of the budget on the things', async () => {
    const records = await crawl('fc-r+hr');
    const tests = records.filter((r) => r.url.includes('/tests/'));
    const things = records.filter((r) => r.url.includes('/things/'));
    expect(things).toHaveLength(THINGS);
    expect(things.every((r) => r.detectedType === 'rdf')).toBe(true);
    expect(tests.length).toBeLessThanOrEqual(BARREN_AFTER + 2);
    // The blank-node href became neither a fetch nor a queued link.
    expect(records.some((r) => r.url.includes('_:'))).toBe(false);
    expect(web.fetched().some((u) => u.includes('_:'))).toBe(false);
  });

  it('yield, which learns barren templates itself, also spends the rest of the budget on the things', async () => {
    const records = await crawl('yield');
    const things = records.filter((r) => r.url.includes('/things/'));
    expect(things).toHaveLength(THINGS);
    expect(records.filter((r) => r.url.includes('/tests/')).length).toBeLessThanOrEqual(BARREN_AFTER + 2);
  });

  it('bfs, the baseline, keeps its order: the same budget goes to test IRIs first', async () => {
    const records = await crawl('bfs');
    expect(records.filter((r) => r.url.includes('/things/')).length).toBeLessThan(THINGS);
  });
});
