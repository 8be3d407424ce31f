// `rdfscout crawl … --serve PORT`: the crawl process serves its own store over SPARQL while it runs, and its live
// dashboard at the root, whose pause control stops new fetches until resume.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startTinySite } from '../helpers/tiny-site.ts';
import { exitOf, until, within } from '../helpers/until.ts';

const CLI = join(import.meta.dirname, '../../bin/rdfscout.js');

it('answers SPARQL over what is stored so far, during the crawl', async () => {
  const site = await startTinySite(250); // slow pages (~20 of them): the crawl is still running when we ask and pause
  const dir = await mkdtemp(join(tmpdir(), 'rdfscout-serve-'));
  const child = spawn(process.execPath, [CLI, 'crawl', `${site.base}/`, '--out', join(dir, 'o'), '--allow-private', '--delay-ms', '0', '--concurrency', '1', '--serve', '0', '--quiet', '--json']);
  try {
    let stderr = '';
    const url = await within(
      'the live SPARQL endpoint line on stderr',
      new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          const m = /SPARQL endpoint over this crawl, live: (\S+)/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`crawl exited (${code}) before serving: ${stderr}`)));
      }),
    );
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
    const dashboard = /Dashboard: (\S+)/.exec(stderr)?.[1];
    expect(dashboard).toBe(url.replace(/sparql$/, ''));
    expect(await (await fetch(dashboard!)).text()).toMatch(/<title>rdfscout — live crawl<\/title>/);
    type Status = { fetched: number; inFlight: number; paused: boolean; finished: boolean };
    const status = async () => (await (await fetch(`${dashboard}api/status`)).json()) as Status;
    const before = await status();
    expect(before.fetched).toBeGreaterThan(0);
    expect(before.finished).toBe(false);
    const control = (action: string) => fetch(`${dashboard}api/control/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(((await (await control('pause')).json()) as { status: { paused: boolean } }).status.paused).toBe(true);
    // Paused: the fetch in flight finishes, then no request reaches the site (robots.txt apart) for several pages' time.
    let settled = before;
    await until('the fetch in flight to finish after the pause', async () => (settled = await status()).inFlight === 0, 10_000, { seen: () => JSON.stringify(settled) });
    const requests = site.times.length;
    await new Promise((r) => setTimeout(r, 1500)); // six pages' time at 250 ms a page
    expect(site.times.length).toBe(requests);
    expect((await status()).fetched).toBe(settled.fetched);
    expect((await control('resume')).status).toBe(200);
    await until('a fetch after the resume', async () => (await status()).fetched > settled.fetched, 10_000);
    const code = await exitOf(child, 'the crawl to end');
    expect(code).toBe(0);
  } finally {
    child.kill();
    await site.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 90_000);
