// An idle endpoint answers every query (no 503 once some have run, graph-led or not) and logs one line per request.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Endpoint, startEndpoint } from '../../src/sparql/endpoint.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { stageTypedDocuments } from '../helpers/typed-documents.ts';

const EX = 'http://ex.org/';
let dir: string;
let state: CrawlState;
let endpoint: Endpoint;
const lines: string[] = [];

const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  dir = folder.dir;
  state = await openState(dir);
  await stageTypedDocuments(state, { ex: EX, docs: 3, subjects: 300, classes: 5, label: (i) => `a label long enough to fill slices ${i}` });
  endpoint = await startEndpoint(state, { port: 0, timeoutMs: 8_000, log: (line) => lines.push(line), verbose: true });
}, 60_000);

afterAll(async () => {
  await endpoint.close();
  await state.close();
});

async function ask(query: string, accept: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${endpoint.url}?query=${encodeURIComponent(query)}`, { headers: { Accept: accept }, signal: AbortSignal.timeout(15_000) });
  return { status: res.status, body: await res.text() };
}

it('answers 14 graph-led SELECTs, CONSTRUCTs and COUNTs in a row with 200, each logged with its status, ms and rows', async () => {
  const queries = [
    [`SELECT ?s ?c WHERE { GRAPH <${EX}doc1> { ?s a ?c } }`, 'text/csv', 301],
    [`CONSTRUCT { ?s a ?c } WHERE { GRAPH <${EX}doc2> { ?s a ?c } }`, 'application/n-triples', 300],
    [`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${EX}doc0> { ?s ?p ?o } }`, 'text/csv', 2],
  ] as const;
  for (let i = 0; i < 14; i++) {
    const [q, accept, lineCount] = queries[i % queries.length] as (typeof queries)[number];
    const { status, body } = await ask(q, accept);
    expect(status, `request ${i}: ${body.slice(0, 200)}`).toBe(200);
    expect(body.trim().split('\n'), `request ${i}`).toHaveLength(lineCount);
  }
  const requests = lines.filter((l) => !l.startsWith('  '));
  expect(requests).toHaveLength(14);
  expect(requests[0]).toMatch(/^GET 200 \d+ ms rows=300 SELECT \?s \?c WHERE/);
  expect(requests[2]).toMatch(/^GET 200 \d+ ms rows=1 SELECT \(COUNT/);
  // --verbose: each query's phases, in order
  const phases = lines.filter((l) => l.startsWith('  query 1 ')).map((l) => l.split(' ')[4]);
  expect(phases).toEqual(['indexed', 'worker', 'head', 'done']);
}, 120_000);

it('logs a failing request with its status and error code', async () => {
  const { status } = await ask('SELECT WHERE {', 'text/csv');
  expect(status).toBe(400);
  expect(lines.at(-1)).toMatch(/^GET 400 \d+ ms rows=0 RDFSCOUT_QUERY_FAILED SELECT WHERE \{$/);
});
