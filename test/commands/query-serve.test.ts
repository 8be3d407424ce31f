// `rdfscout query` and `rdfscout serve` as a user runs them, over a real crawl.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../bin/rdfscout.js');
const cli = (args: string[]) => run(process.execPath, [CLI, ...args]);

describe('rdfscout query and serve', () => {
  let site: TinySite;
  let dir: string;
  let out: string;
  beforeAll(async () => {
    site = await startTinySite();
    dir = await mkdtemp(join(tmpdir(), 'rdfscout-query-'));
    out = join(dir, 'crawl');
    await cli(['crawl', `${site.base}/`, '--out', out, '--allow-private', '--delay-ms', '0', '--quiet']);
  }, 60_000);
  afterAll(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers SELECT in the W3C JSON and CSV formats, and names the document of each triple', async () => {
    const q = 'SELECT ?doc ?name WHERE { GRAPH ?doc { ?p <http://xmlns.com/foaf/0.1/name> ?name } } ORDER BY ?name';
    const json = JSON.parse((await cli(['query', out, q, '--format', 'json'])).stdout) as { head: { vars: string[] }; results: { bindings: Array<Record<string, { value: string }>> } };
    expect(json.head.vars).toEqual(['doc', 'name']);
    expect(json.results.bindings.map((b) => [b.name!.value, b.doc!.value])).toEqual([
      ['Alice', `${site.base}/foaf/alice.ttl`],
      ['Bob', `${site.base}/foaf/bob.ttl`],
    ]);
    const csv = (await cli(['query', out, q, '--format', 'csv'])).stdout;
    expect(csv.split('\r\n')[0]).toBe('doc,name');
    expect(csv).toContain(`${site.base}/foaf/alice.ttl,Alice`);
  });

  it('reads the query from a file, and CONSTRUCT gives N-Quads', async () => {
    await writeFile(join(dir, 'q.rq'), 'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <urn:rdfscout:crawl> { ?s ?p ?o } } LIMIT 5');
    const nq = (await cli(['query', out, '--file', join(dir, 'q.rq'), '--format', 'nquads'])).stdout;
    expect(new Parser({ format: 'N-Quads' }).parse(nq)).toHaveLength(5);
  });

  it('refuses an update with a clear message (exit 1)', async () => {
    await expect(cli(['query', out, 'DELETE WHERE { ?s ?p ?o }'])).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/read-only|update/i) });
  });

  it('serves the crawl at /sparql until interrupted', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', out, '--port', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (d: Buffer) => {
          text += d.toString();
          const m = /SPARQL endpoint: (\S+)/.exec(text);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const res = await fetch(`${url}?query=${encodeURIComponent('ASK { ?s <http://xmlns.com/foaf/0.1/name> "Alice" }')}`, { headers: { accept: 'application/sparql-results+json' } });
      expect(await res.json()).toEqual({ head: {}, boolean: true });
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
