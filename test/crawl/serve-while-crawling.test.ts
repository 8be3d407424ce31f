// `rdfscout crawl … --serve PORT`: the crawl process serves its own store over SPARQL while it runs, and its live
// dashboard at the root, whose pause control stops new fetches until resume.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startCli } from '../helpers/run-cli.ts';
import { startTinySite } from '../helpers/tiny-site.ts';
import { until } from '../helpers/until.ts';
import { tempDir } from '../helpers/temp-dir.ts';

it('answers SPARQL over what is stored so far, during the crawl', async () => {
  const site = await startTinySite(250); // slow pages (~20 of them): the crawl is still running when we ask and pause
  const dir = await tempDir();
  const child = startCli(['crawl', `${site.base}/`, '--out', join(dir, 'o'), '--allow-private', '--delay-ms', '0', '--concurrency', '2', '--host-concurrency', '2', '--serve', '0', '--quiet', '--json']);
  try {
    const url = (await child.waitFor(/SPARQL endpoint over this crawl, live: (\S+)/))[1] as string;
    const ask = async () => {
      const q = encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:rdfscout:crawl> { ?doc ?p ?o } }');
      const res = await fetch(`${url}?query=${q}`, { headers: { accept: 'application/sparql-results+json' } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: { bindings: Array<{ n: { value: string } }> } };
      return Number(body.results.bindings[0]!.n.value);
    };
    // Poll until the first records are in, then check the count keeps growing while the crawl runs.
    let first = 0;
    const deadline = Date.now() + 30_000;
    while ((first = await ask()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(first).toBeGreaterThan(0);
    let later = first;
    while (later === first && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      later = await ask();
    }
    expect(later).toBeGreaterThan(first);
    // The dashboard is at the root: its URL is printed, its API answers, controls work on loopback.
    const dashboard = /Dashboard: (\S+)/.exec(child.stderr())?.[1];
    expect(dashboard).toBe(url.replace(/sparql$/, ''));
    expect(await (await fetch(dashboard!)).text()).toMatch(/<title>rdfscout — live crawl<\/title>/);
    type Status = { fetched: number; inFlight: number; paused: boolean; finished: boolean };
    const status = async () => (await (await fetch(`${dashboard}api/status`)).json()) as Status;
    const before = await status();
    expect(before.fetched).toBeGreaterThan(0);
    expect(before.finished).toBe(false);
    const control = (action: string) => fetch(`${dashboard}api/control/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(((await (await control('pause')).json()) as { status: { paused: boolean } }).status.paused).toBe(true);
    // Paused: the fetches in flight finish, then no request reaches the site for several pages' time. Two at a time: a
    // pause that only waited for an idle moment before stopping would never find one.
    let settled = before;
    await until('the fetch in flight to finish after the pause', async () => (settled = await status()).inFlight === 0, 10_000, { seen: () => JSON.stringify(settled) });
    const requests = site.times.length;
    await new Promise((r) => setTimeout(r, 1500)); // six pages' time at 250 ms a page
    expect(site.times.length).toBe(requests);
    expect((await status()).fetched).toBe(settled.fetched);
    expect((await control('resume')).status).toBe(200);
    await until('a fetch after the resume', async () => (await status()).fetched > settled.fetched, 10_000);
    expect(await child.ended('the crawl to end')).toBe(0);
  } finally {
    child.signal('SIGTERM');
    await site.close();
  }
}, 90_000);
