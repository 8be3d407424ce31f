// The fetch budgets hold exactly with many fetches in flight (a fetch that is committing is not counted twice).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';

describe('fetch budgets with concurrency', () => {
  let web: SimWeb;
  let dir: string;
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'thesis', seed: 5, scale: 0.1 });
    dir = await mkdtemp(join(tmpdir(), 'rdfscout-budget-'));
  });
  afterAll(async () => {
    await web.close();
    await rm(dir, { recursive: true, force: true });
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
        expect(summary.stoppedBy).toBe('budget');
        // robots.txt refusals are recorded but send no request, so they do not spend the budget
        expect(summary.fetched - summary.denied).toBe(25);
        for (const pld of Object.values(summary.perPld)) expect(pld.fetched - pld.denied).toBeLessThanOrEqual(8);
        for (const pld of Object.values(summary.perPld)) expect(pld.fetched).toBeGreaterThan(0); // only PLDs with records
        expect(Object.values(summary.perPld).some((p) => p.fetched - p.denied === 8)).toBe(true); // the per-PLD cap did bind
      } finally {
        await crawler.close();
      }
    });
  }
});
