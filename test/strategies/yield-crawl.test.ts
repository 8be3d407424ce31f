// Real crawls of a simulated web with the yield strategy: HTML variants of negotiated resources.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { HTML_VARIANT_FRAGMENT } from '../../src/links/html-variant.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

async function crawl(web: SimWeb, strategy: string, dir: string, maxDocs: number): Promise<CrawlRecord[]> {
  const crawler = await Crawler.open({ out: dir, seeds: [web.sites[0]?.startUrl as string], proxy: web.proxyUrl, strategy, maxDocs, delayMs: 0, concurrency: 4, hostConcurrency: 4 });
  const records: CrawlRecord[] = [];
  try {
    await crawler.run();
    for await (const r of readRecords(crawler.state)) records.push(r);
  } finally {
    await crawler.close();
  }
  return records;
}

const rdfDocs = (rs: readonly CrawlRecord[]) => rs.filter((r) => r.status === 200 && r.detectedType === 'rdf' && r.triples > 0).length;

describe('yield strategy on a dbtune-like web (records and tracks are linked only from HTML variants)', () => {
  let web: SimWeb;
  let tmp: string;
  let yieldRecords: CrawlRecord[];
  let focused: CrawlRecord[];

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'dbtune-like', seed: 4, scale: 0.05, crawlDelay: 0 });
    tmp = folder.dir;
    // A budget larger than the site: each crawler stops when it has nothing left to fetch.
    yieldRecords = await crawl(web, 'yield', join(tmp, 'yield'), 2000);
    focused = await crawl(web, 'fc-r+hr', join(tmp, 'focused'), 2000);
  }, 120_000);
  afterAll(async () => {
    await web?.close();
  });

  it('asks a resource URI that negotiated to RDF for its HTML, with an HTML-first Accept', () => {
    const variants = yieldRecords.filter((r) => r.url.endsWith(HTML_VARIANT_FRAGMENT));
    expect(variants.length).toBeGreaterThan(10);
    for (const v of variants.slice(0, 20)) {
      expect(v.redirects[0]?.status).toBe(303);
      expect(v.finalUrl).toMatch(/\.html$/);
      expect(v.detectedType).toBe('html');
      expect(web.truthFor(v.finalUrl)?.label).toMatch(/^H/);
    }
    expect(focused.some((r) => r.url.endsWith(HTML_VARIANT_FRAGMENT))).toBe(false);
  });

  it('finds the RDF only HTML variants lead to, which FC-R+HR cannot reach', () => {
    const site = web.truth().filter((t) => t.label === 'R' && t.status === 200).length;
    const y = rdfDocs(yieldRecords);
    const f = rdfDocs(focused);
    expect(y).toBeGreaterThan(f * 1.5);
    expect(y).toBeLessThanOrEqual(site);
    // No RDF document is stored twice (a variant's final URL is HTML, never an RDF graph again).
    const finals = yieldRecords.filter((r) => r.detectedType === 'rdf' && r.triples > 0).map((r) => r.finalUrl);
    expect(new Set(finals).size).toBe(finals.length);
  });
});
