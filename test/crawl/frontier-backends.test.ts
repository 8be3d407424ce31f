// The crawl core runs on any frontier backend: the same crawl on LevelDB and in memory fetches the same URLs in order.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { localCoordination } from '../../src/crawl/local-coordination.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { FrontierBackend } from '../../src/frontier/index.ts';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';

describe('frontier backends under a real crawl', () => {
  let site: TinySite;
  let dir: string;
  beforeAll(async () => {
    site = await startTinySite();
    dir = await mkdtemp(join(tmpdir(), 'rdfscout-backends-'));
  });
  afterAll(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
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
