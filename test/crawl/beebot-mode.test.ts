// BeeBot mode end to end (BeeBot §2–§3): a site list, external links as the bandit's reward, link tables, Not Available.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSites } from '../../src/beebot/index.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { pldOf } from '../../src/links/index.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { openState } from '../../src/state/open-state.ts';
import { runCliOk } from '../helpers/run-cli.ts';


describe('BeeBot mode', () => {
  let web: SimWeb;
  let dir: string;
  let records: CrawlRecord[];
  let fetched = 0;
  const out = () => join(dir, 'crawl');

  beforeAll(async () => {
    web = await startSimweb({ profiles: 'beebot-univ', seed: 4, scale: 0.05 });
    dir = await mkdtemp(join(tmpdir(), 'rdfscout-beebot-'));
    const sites = web.sites.slice(0, 4);
    const csv = [
      'number,full name,short name,start address',
      ...sites.map((s, i) => `${i + 1},"${s.name}",${s.shortName},${s.startUrl}`),
      '9,"A site that is down",down,http://www.down-sim.org/',
    ].join('\n');
    await writeFile(join(dir, 'sites.csv'), csv);
    const { stdout } = await runCliOk([
      'crawl', '--seeds-file', join(dir, 'sites.csv'), '--out', out(), '--proxy', web.proxyUrl, '--delay-ms', '0',
      '--reward', 'external-links', '--bandit', 'r2', '--strategy', 'bfs', '--max-docs', '150', '--concurrency', '1', '--max-retries', '0', '--json', '--quiet',
    ]);
    const summary = JSON.parse(stdout);
    expect(summary.fetched).toBe(150); // requests sent; robots refusals are counted apart (denied)
    fetched = summary.records; // every record is a bandit pull
    const state = await openState(out());
    try {
      records = [];
      for await (const r of readRecords(state)) records.push(r);
      const rows = await readSites(state);
      expect(rows.map((r) => [r.number, r.shortName, r.available])).toEqual([
        ...sites.map((s, i) => [i + 1, s.shortName, true]),
        [9, 'down', false],
      ]);
    } finally {
      await state.close();
    }
  }, 120_000);

  afterAll(async () => {
    await web.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('crawls only inside the listed sites and never returns to a site that is down', () => {
    const listed = new Set(web.sites.slice(0, 4).map((s) => s.pld));
    const elsewhere = records.filter((r) => !listed.has(r.pld));
    expect(elsewhere.map((r) => r.url)).toEqual(['http://www.down-sim.org/']);
  });

  it('records external links with their page, level, anchor and context', async () => {
    const { stdout } = await runCliOk(['links', out(), '--external', '--format', 'json']);
    const rows = JSON.parse(stdout) as Array<{ url: string; site: string; page: string; level: number; anchor: string; context: string }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows.slice(0, 50)) {
      expect(pldOf(row.url)).not.toBe(row.site);
      expect(records.some((r) => r.finalUrl === row.page && r.depth === row.level)).toBe(true);
      expect(typeof row.anchor).toBe('string');
    }
    // the external-link reward counts what the tables hold (every page's links, each page once)
    const truthTotal = records.reduce((n, r) => n + (web.truthFor(r.finalUrl)?.externalLinks ?? 0), 0);
    expect(rows.length).toBeLessThanOrEqual(truthTotal);
    expect(rows.length).toBeGreaterThan(truthTotal * 0.5);
  });

  it('shows the bandit arms in stats', async () => {
    const { stdout } = await runCliOk(['stats', out(), '--json']);
    const stats = JSON.parse(stdout) as { bandit: Array<{ arm: string; pulls: number }> };
    expect(stats.bandit.reduce((n, a) => n + a.pulls, 0)).toBe(fetched);
  });

  // Last: it crawls on in the same folder.
  it('remembers Not Available sites on resume: a new seed on a down site is never fetched', async () => {
    await runCliOk(['crawl', 'http://www.down-sim.org/again', '--out', out(), '--max-docs', '170', '--json', '--quiet']);
    const state = await openState(out());
    try {
      const after: CrawlRecord[] = [];
      for await (const r of readRecords(state)) after.push(r);
      expect(after.length).toBeGreaterThan(records.length); // the resume crawled on
      expect(after.filter((r) => r.pld === 'down-sim.org').map((r) => r.url)).toEqual(['http://www.down-sim.org/']);
    } finally {
      await state.close();
    }
  }, 120_000);
});
