// `rdfscout report` on a real crawl of the simulated web, opened in a real Chromium: no network at all, and the
// plotted harvest points are the crawl's metrics.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../src/metrics/index.ts';
import { startSimweb } from '../../src/simweb/index.ts';
import { runCrawl } from '../helpers/run-crawl.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { guardedPage, launchBrowser } from '../helpers/browser.ts';
import { runCli, runCliOk } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';


describe('rdfscout report', () => {
  let dir: string;
  let records: CrawlRecord[];
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    dir = folder.dir;
    const web = await startSimweb({ profiles: 'thesis', seed: 5, scale: 0.1 });
    try {
      const crawl = await runCrawl({ out: join(dir, 'crawl'), seeds: web.sites.map((s) => s.startUrl), proxy: web.proxyUrl, maxDocs: 240, concurrency: 4, allowPrivate: true, bandit: 'r2' });
      records = crawl.records;
    } finally {
      await web.close();
    }
  }, 60_000);

  it('refuses a folder without a crawl and a missing -o, with clear messages', async () => {
    const noOut = await runCli(['report', join(dir, 'crawl')]);
    expect(noOut).toMatchObject({ code: 2 });
    expect(noOut.stderr).toMatch(/-o report.html is required/);
    const noCrawl = await runCli(['report', dir, '-o', join(dir, 'x.html')]);
    expect(noCrawl.stderr).toMatch(/holds no crawl/);
  });

  it('opens with zero network requests, and its plotted harvest points equal the metrics', async () => {
    const file = join(dir, 'report.html');
    await runCliOk(['report', join(dir, 'crawl'), '-o', file, '--title', 'Test report']);
    const html = await readFile(file, 'utf8');
    expect(html).not.toMatch(/<script/i);
    const b = await launchBrowser();
    try {
      const g = await guardedPage(b.browser, null);
      const url = pathToFileURL(file).href;
      await g.page.goto(url);
      await g.screenshot('report');
      expect(g.requests).toEqual([url]); // the file itself, nothing else
      expect(g.blocked).toEqual([]);
      expect(g.errors).toEqual([]);
      expect(await g.page.textContent('h1')).toBe('Test report');

      const curve = computeMetrics(records).harvestCurve;
      const rows = await g.page.$$eval('table[data-chart="harvest"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      expect(rows.length).toBe(curve.length); // 240 fetches: every point is plotted
      for (const [, k, rdf] of rows) expect(Number(rdf)).toBe(curve[Number(k) - 1]);
      expect(Number(rows.at(-1)?.[2])).toBe(records.filter((r) => r.detectedType === 'rdf' && r.status === 200 && r.error === null).length);
      // The line in the SVG has one vertex per plotted point.
      const vertices = await g.page.$eval('#harvest svg g[aria-label="line"] path', (p) => (p.getAttribute('d') ?? '').split(/[ML]/).filter(Boolean).length);
      expect(vertices).toBe(curve.length);
      // Per-PLD bars: one bar per PLD, the table's figures equal the records'.
      const pldRows = await g.page.$$eval('table[data-chart="plds"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      for (const [, pld, fetched] of pldRows) expect(Number(fetched)).toBe(records.filter((r) => r.pld === pld).length);
      expect(await g.page.$$eval('#plds svg g[aria-label="bar"] rect', (r) => r.length)).toBe(pldRows.length);
      const labels = await g.page.$$eval('table[data-chart="precision"] tbody tr', (trs) => trs.length);
      expect(labels).toBe(4); // R, HR, H, N
      // Pulls per arm: one line per arm (4 simulated sites), each ending at that PLD's fetches.
      const arms = await g.page.$$eval('#pulls-0 svg g[aria-label="line"] path', (p) => p.length);
      expect(arms).toBe(pldRows.length);
    } finally {
      await b.close();
    }
  }, 60_000);
});
