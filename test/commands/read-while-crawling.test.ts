// Read commands work while a crawl process holds the store: they read a snapshot and say so.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startHttpServer } from '../helpers/http-server.ts';
import { runCli, startCli } from '../helpers/run-cli.ts';
import { openState } from '../../src/state/open-state.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

it('stats, docs and query succeed on the folder of a running crawl', async () => {
  // An endless slow site: page i links pages 2i+1 and 2i+2 and a Turtle file; every answer takes 100 ms.
  const site = await startHttpServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/robots.txt') return res.writeHead(404).end();
    await new Promise((r) => setTimeout(r, 100));
    const n = Number(/(\d+)/.exec(path)?.[1] ?? 0);
    if (path.endsWith('.ttl')) return res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<http://example.org/t${n}> <http://example.org/p> "${n}" .\n`);
    res.writeHead(200, { 'content-type': 'text/html' }).end(page(`<a href="/p${2 * n + 1}.html">a</a> <a href="/p${2 * n + 2}.html">b</a> <a href="/d${n}.ttl">data</a>`));
  });
  const tmp = await tempDir();
  const out = join(tmp, 'crawl');
  const child = startCli(['crawl', `${site.origin}/p0.html`, '--out', out, '--allow-private', '--delay-ms', '0', '--concurrency', '1', '--max-docs', '100000', '--quiet']);
  try {
    // Wait until the crawl has stored a few records (read through snapshots: the crawl holds the store).
    let fetched = 0;
    const deadline = Date.now() + 60_000;
    while (fetched < 4 && Date.now() < deadline) {
      const s = await runCli(['stats', out, '--json']);
      if (s.code === 0) fetched = JSON.parse(s.stdout).fetched;
      else expect(s.stderr).toContain('no crawl in'); // before the crawl created its store
    }
    expect(fetched).toBeGreaterThanOrEqual(4);
    const [stats, docs, query] = await Promise.all([
      runCli(['stats', out]),
      runCli(['docs', out]),
      runCli(['query', out, '--format', 'json', 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s <http://example.org/p> ?o } }']),
    ]);
    expect(child.running()).toBe(true); // the crawl was running all along
    for (const r of [stats, docs, query]) {
      expect(r.code).toBe(0);
      // The holder is named: the crawl process, by its command and pid.
      expect(r.stderr).toMatch(new RegExp(`^\\(a running \`rdfscout crawl\` \\(pid ${child.child.pid}, since [^)]+\\) holds .*: reading a snapshot of it taken at \\d{4}-\\d\\d-\\d\\dT`));
    }
    expect(stats.stdout).toMatch(/fetched\s+\d+/);
    const records = docs.stdout.trim().split('\n').map((l) => JSON.parse(l) as { seq: number });
    expect(records.length).toBeGreaterThanOrEqual(fetched);
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1)); // a consistent prefix of the crawl
    expect(Number(JSON.parse(query.stdout).results.bindings[0].n.value)).toBeGreaterThan(0);
    child.signal('SIGINT');
    expect(await child.ended('the interrupted crawl to exit')).toBe(130); // interrupted cleanly
    const after = await runCli(['stats', out, '--json']);
    expect(after.stderr).toBe(''); // no crawl holds the store now: read directly, no snapshot
    expect(JSON.parse(after.stdout).records).toBeGreaterThanOrEqual(records.length);
  } finally {
    child.signal('SIGKILL');
    await site.close();
  }
}, 120_000);

it('names a running `rdfscout serve` as what holds the folder', async () => {
  const tmp = await tempDir();
  const out = join(tmp, 'crawl');
  const state = await openState(out);
  await state.close();
  const child = startCli(['serve', out, '--port', '0']);
  try {
    await child.waitFor(/SPARQL endpoint:/, { stream: 'stdout', timeoutMs: 45_000 });
    const stats = await runCli(['stats', out]);
    expect(stats.code).toBe(0);
    expect(stats.stderr).toContain(`(a running \`rdfscout serve\` (pid ${child.child.pid}, since `);
    expect(stats.stderr).not.toContain('crawl is running');
  } finally {
    child.signal('SIGKILL');
  }
});
