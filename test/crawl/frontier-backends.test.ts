// The crawl core runs on any frontier backend: the same crawl on LevelDB and in memory fetches the same URLs in order.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { localCoordination } from '../../src/crawl/local-coordination.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { FrontierBackend } from '../../src/frontier/index.ts';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

describe('frontier backends under a real crawl', () => {
  let site: TinySite;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    site = await startTinySite();
    dir = folder.dir;
  });
  afterAll(async () => {
    await site.close();
  });

  async function crawl(backend: FrontierBackend): Promise<{ urls: string[]; rdf: number }> {
    const crawler = await Crawler.open({ out: join(dir, backend), seeds: [`${site.base}/`], allowPrivate: true, delayMs: 0, concurrency: 1 }, { coordination: localCoordination({ backend }) });
    try {
      const summary = await crawler.run();
      const urls: string[] = [];
      for await (const r of readRecords(crawler.state)) urls.push(r.url);
      return { urls, rdf: summary.rdfDocuments };
    } finally {
      await crawler.close();
    }
  }

  it('fetches the same URLs in the same order on LevelDB and in memory (one fetch at a time)', async () => {
    const level = await crawl('level');
    const memory = await crawl('memory');
    expect(level.rdf).toBe(7);
    expect(memory).toEqual(level);
  }, 60_000);
});
