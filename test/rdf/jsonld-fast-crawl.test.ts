// A crawl of the simweb's modern-like site (schema.org JSON-LD in its product pages and .jsonld documents) stores the
// same graph with the JSON-LD fast path as with jsonld-streaming-parser alone.
import type { Quad } from '@rdfjs/types';
import { Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { exportText, makeTempDir } from './helpers.ts';

let web: SimWeb;
let tmp: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  web = await startSimweb({ profiles: 'modern-like', seed: 3, scale: 0.3 });
  tmp = await makeTempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** One bfs crawl (one fetch at a time, so both crawls fetch the same pages) with the fast path on or off. */
async function crawl(fast: boolean): Promise<{ quads: Quad[]; records: string[] }> {
  const crawler = await Crawler.open(
    { out: `${tmp.dir}/${fast ? 'fast' : 'library'}`, seeds: web.sites.map((s) => s.startUrl), proxy: web.proxyUrl, delayMs: 0, concurrency: 1, maxDocs: 120, strategy: 'bfs' },
    { parse: { jsonLdFastPath: fast } },
  );
  try {
    await crawler.run();
    const records: string[] = [];
    for await (const r of readRecords(crawler.state)) records.push(`${r.url} ${r.outcome} ${r.detectedType} ${r.triples}`);
    return { quads: new Parser({ format: 'application/n-quads' }).parse(await exportText(crawler.state)), records: records.sort() };
  } finally {
    await crawler.close();
  }
}

describe('a crawl with the JSON-LD fast path', () => {
  it('stores a graph isomorphic to the one stored without it, with the same records', async () => {
    const library = await crawl(false);
    const fast = await crawl(true);
    expect(fast.records).toEqual(library.records);
    expect(library.records.filter((r) => / html [1-9]/.test(r)).length).toBeGreaterThan(20); // pages with a JSON-LD block
    expect(fast.quads.length).toBe(library.quads.length);
    expect(isomorphic(fast.quads, library.quads)).toBe(true);
  }, 180_000);
});
