// The live dashboard in a real Chromium during a real crawl of the simulated web: counters appear, grow and equal
// /api/status; pause holds `fetched` still, resume moves it; a query typed into the SPARQL page shows the rows that
// `rdfscout query` prints. Requests leaving the page's origin are blocked and fail the test, as do console errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveStatus } from '../../src/dashboard/index.ts';
import { type GuardedPage, guardedPage, launchBrowser } from '../helpers/browser.ts';
import { type LiveCrawl, startLiveCrawl } from '../helpers/live-crawl.ts';
import { runCliOk } from '../helpers/run-cli.ts';
import { until } from '../helpers/until.ts';

const QUERY = 'SELECT ?doc (COUNT(*) AS ?n) WHERE { GRAPH ?doc { ?s ?p ?o } FILTER(?doc != <urn:rdfscout:crawl>) } GROUP BY ?doc ORDER BY DESC(?n) ?doc LIMIT 8';

describe('live dashboard in Chromium', () => {
  let live: LiveCrawl;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    live = await startLiveCrawl({ delayMs: 60, oracle: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.close();
  });

  async function status(): Promise<LiveStatus> {
    return (await (await fetch(`${live.base}api/status`)).json()) as LiveStatus;
  }
  const counter = async (g: GuardedPage, id: string) => Number(((await g.page.textContent(`#c-${id}`)) ?? '').replace(/,/g, ''));

  it('shows counters that grow and equal /api/status; pause holds, resume moves; the SPARQL page answers like rdfscout query', async () => {
    const origin = new URL(live.base).origin;
    const g = await guardedPage(browser.browser, origin);
    await g.page.goto(live.base);
    await until('the page to count a fetch', async () => (await counter(g, 'fetched')) > 0);
    const first = await counter(g, 'fetched');
    await until('the page to count 5 more fetches', async () => (await counter(g, 'fetched')) > first + 5);

    // Pause from the page; once nothing is in flight, fetched stays still for 3 s, in the API and on the page.
    await g.page.click('#pause');
    await until('the pause, with nothing in flight', async () => (await status()).paused && (await status()).inFlight === 0);
    const held = (await status()).fetched;
    await new Promise((r) => setTimeout(r, 3000));
    const after = await status();
    expect(after.fetched).toBe(held);
    expect(live.crawler.tally.fetched).toBe(held);
    await until('the page to show the held count', async () => (await counter(g, 'fetched')) === held);
    expect(await g.page.textContent('#state')).toBe('paused');
    expect(await counter(g, 'rdfDocuments')).toBe(after.rdfDocuments);
    expect(await counter(g, 'triples')).toBe(after.triples);
    expect(await counter(g, 'errors')).toBe(after.errors);
    expect(await counter(g, 'queued')).toBe(after.queued);
    expect(await counter(g, 'inFlight')).toBe(0);
    expect(await g.page.textContent('#c-harvestRate')).toBe(`${(after.harvestRate * 100).toFixed(1)}%`);
    expect(await g.page.$$eval('#plds tbody tr', (trs) => trs.length)).toBe(4);
    expect(await g.page.$$('#chart-harvest svg g[aria-label="line"] path')).toHaveLength(2); // this crawl and the oracle
    // The live curve has one vertex per point the API holds (no point drawn twice), and ends at the counters.
    const points = await (await fetch(`${live.base}api/harvest`)).json() as Array<[number, number]>;
    expect(points.at(-1)).toEqual([after.fetched, after.rdfDocuments]);
    const vertices = await g.page.$eval('#chart-harvest svg g[aria-label="line"] path', (p) => (p.getAttribute('d') ?? '').split(/[ML]/).filter(Boolean).length);
    expect(vertices).toBe(points.length);
    await g.screenshot('dashboard-paused');

    // Resume: it moves again.
    await g.page.click('#resume');
    await until('3 fetches after the resume', async () => (await status()).fetched > held + 3);
    await until('the page to count a fetch after the resume', async () => (await counter(g, 'fetched')) > held);

    // Pause again for a stable store, then type a query into YASGUI and run it.
    await g.page.click('#pause');
    await until('nothing in flight after the second pause', async () => (await status()).inFlight === 0);
    const q = await guardedPage(browser.browser, origin);
    await q.page.goto(`${live.base}query.html`);
    await q.page.click('.CodeMirror');
    await q.page.keyboard.press('Control+A');
    await q.page.keyboard.press('Delete');
    await q.page.keyboard.insertText(QUERY);
    await q.page.click('.yasqe_queryButton');
    await q.page.waitForSelector('.yasr table.dataTable tbody tr td');
    const shown = await q.page.$$eval('.yasr table.dataTable tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent?.trim() ?? '')));
    await q.screenshot('sparql-page');
    for (const p of [g, q]) {
      expect(p.blocked).toEqual([]);
      expect(p.errors).toEqual([]);
    }

    // The same query through the CLI, once the crawl is stopped cleanly and its state closed.
    await live.shutdown();
    expect((await live.run).stoppedBy).toBe('stopped'); // the operator's clean stop (CrawlControl.stop), not a signal
    const { stdout } = await runCliOk(['query', live.dir, QUERY, '--format', 'csv']);
    const cli = stdout.trim().split(/\r?\n/).slice(1).map((l) => l.split(','));
    expect(cli.length).toBeGreaterThan(0);
    expect(shown.map(([doc, n]) => [doc?.replace(/^<|>$/g, ''), n?.match(/\d+/)?.[0]])).toEqual(cli.map(([doc, n]) => [doc, n]));
  }, 90_000);
});
