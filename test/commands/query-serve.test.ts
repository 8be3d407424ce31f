// `rdfscout query` and `rdfscout serve` as a user runs them, over a real crawl.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/rdf/parse-document.ts';
import { runCli, runCliOk as cli, startCli } from '../helpers/run-cli.ts';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** A query whose every solution holds a 2^18-fold concatenation that ORDER BY must materialise: far past 32 MB. */
function memoryBomb(): string {
  let binds = 'BIND(CONCAT(STR(?c), STR(?f)) AS ?x0)';
  for (let i = 1; i <= 18; i++) binds += ` BIND(CONCAT(?x${i - 1}, ?x${i - 1}) AS ?x${i})`;
  return `SELECT ?x18 WHERE { ?a ?b ?c . ?d ?e ?f ${binds} } ORDER BY ?x18`;
}

describe('rdfscout query and serve', { timeout: 90_000 }, () => {
  let site: TinySite;
  let dir: string;
  let out: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    site = await startTinySite();
    dir = folder.dir;
    out = join(dir, 'crawl');
    await cli(['crawl', `${site.base}/`, '--out', out, '--allow-private', '--delay-ms', '0', '--quiet']);
  }, 60_000);
  afterAll(async () => {
    await site.close();
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

  it('writes CONSTRUCT as RDF/XML, and refuses a --format that cannot carry the result (exit 2)', async () => {
    const q = 'CONSTRUCT { ?s <http://xmlns.com/foaf/0.1/name> ?n } WHERE { ?s <http://xmlns.com/foaf/0.1/name> ?n }';
    const xml = (await cli(['query', out, q, '--format', 'rdfxml'])).stdout;
    const doc = await parseDocument(xml, { kind: 'rdf', mediaType: 'application/rdf+xml' }, 'http://base.example/');
    expect(doc.quads.map((t) => t.object.value).sort()).toEqual(['Alice', 'Bob']);
    expect(await runCli(['query', out, q, '--format', 'csv'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--format csv cannot carry the result of a CONSTRUCT or DESCRIBE query \(a graph\); use one of: nquads, turtle/),
    });
  });

  it('refuses an update with a clear message (exit 1)', async () => {
    expect(await runCli(['query', out, 'DELETE WHERE { ?s ?p ?o }'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/read-only|update/i) });
  });

  it('serves the crawl at /sparql until interrupted; a query past its memory cap fails alone', async () => {
    const child = startCli(['serve', out, '--port', '0', '--max-query-memory', '32', '--timeout-ms', '120000']);
    try {
      const url = (await child.waitFor(/SPARQL endpoint: (\S+)/, { stream: 'stdout' }))[1] as string;
      const res = await fetch(`${url}?query=${encodeURIComponent('ASK { ?s <http://xmlns.com/foaf/0.1/name> "Alice" }')}`, { headers: { accept: 'application/sparql-results+json' } });
      expect(await res.json()).toEqual({ head: {}, boolean: true });
      // A query that outgrows --max-query-memory: 503 with the error code, and the endpoint answers the next query.
      const big = await fetch(`${url}?query=${encodeURIComponent(memoryBomb())}`);
      expect(big.status).toBe(503);
      expect(big.headers.get('x-rdfscout-error')).toBe('RDFSCOUT_QUERY_MEMORY');
      expect(await big.text()).toMatch(/memory cap of 32 MB/);
      const again = await fetch(`${url}?query=${encodeURIComponent('ASK { ?s <http://xmlns.com/foaf/0.1/name> "Bob" }')}`, { headers: { accept: 'application/sparql-results+json' } });
      expect(await again.json()).toEqual({ head: {}, boolean: true });
    } finally {
      child.signal('SIGINT');
      await child.ended('serve to exit on SIGINT');
    }
  });
});
