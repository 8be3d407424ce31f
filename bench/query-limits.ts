// **bench/query-limits** measures how close to its limits a pathological SPARQL query is stopped.
// Run: node_modules/.bin/node bench/query-limits.ts [--quads 300000] [--timeout-ms 3000] [--http-timeout-ms 2000] [--memory-mb 64]
// Prints, per case: the limit, the time from the call until the error, its ratio to the limit, and the process's peak RSS.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Quad } from '@rdfjs/types';
import { RdfscoutError } from '../src/errors.ts';
import { stageDocument } from '../src/rdf/index.ts';
import { startEndpoint } from '../src/sparql/endpoint.ts';
import { runQuery } from '../src/sparql/query-engine.ts';
import { openState } from '../src/state/open-state.ts';

const { values } = parseArgs({
  options: {
    quads: { type: 'string', default: '300000' },
    'timeout-ms': { type: 'string', default: '3000' },
    'http-timeout-ms': { type: 'string', default: '2000' },
    'memory-mb': { type: 'string', default: '64' },
  },
});
const QUADS = Number(values.quads);
const TIMEOUT = Number(values['timeout-ms']);
const HTTP_TIMEOUT = Number(values['http-timeout-ms']);
const MEMORY = Number(values['memory-mb']);
const BASE = 'http://bench.example/';
const PER_DOC = 100;

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
const mb = (b: number): string => `${(b / 1e6).toFixed(0)} MB`;

const dir = await mkdtemp(join(tmpdir(), 'rdfscout-bench-qlimits-'));
const state = await openState(dir);
const df = state.dataFactory;
let batch: Quad[] = [];
for (let i = 0; i < QUADS; i++) {
  const doc = Math.floor(i / PER_DOC);
  // every triple is stated by two documents (as vocabularies are), so the default graph's merge has work to do
  const t = Math.floor(i / 2);
  batch.push(df.quad(df.namedNode(`${BASE}s${t % 5000}`), df.namedNode(`${BASE}p${t % 37}`), df.literal(`v${t}`), df.namedNode(`${BASE}doc${doc}`)));
  if (i % PER_DOC === PER_DOC - 1 || i === QUADS - 1) {
    // one document per transaction, as a crawl stores them
    const txn = state.txn();
    stageDocument(state, txn, `${BASE}doc${doc}`, batch);
    await txn.commit();
    batch = [];
  }
}
console.log(`store: ${QUADS} quads in ${Math.ceil(QUADS / PER_DOC)} documents (${dir})`);

const CROSS = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }';
const SORTED = 'SELECT * WHERE { ?a ?p ?b . ?c ?q ?d } ORDER BY ?b ?d';
/** Each solution holds a 2^18-fold concatenation that ORDER BY materialises: memory grows by MBs per solution. */
const BOMB = `SELECT ?x18 WHERE { ?a ?p ?b . ?c ?q ?d BIND(CONCAT(STR(?b), STR(?d)) AS ?x0) ${Array.from({ length: 18 }, (_, i) => `BIND(CONCAT(?x${i}, ?x${i}) AS ?x${i + 1})`).join(' ')} } ORDER BY ?x18`;

async function drain(p: Promise<Awaited<ReturnType<typeof runQuery>>>): Promise<void> {
  const r = await p;
  if (r.kind === 'bindings') for await (const _ of r.rows);
  if (r.kind === 'quads') for await (const _ of r.quads);
}

async function timed(label: string, limit: string, limitMs: number | null, run: () => Promise<string>): Promise<void> {
  peakRss = process.memoryUsage().rss;
  const t0 = performance.now();
  const outcome = await run().catch((err: unknown) => (err instanceof RdfscoutError ? err.code : String(err)));
  const ms = performance.now() - t0;
  const ratio = limitMs === null ? '' : ` (${(ms / limitMs).toFixed(3)} × the limit)`;
  console.log(`${label}: limit ${limit} → ${outcome} after ${ms.toFixed(0)} ms${ratio}; peak RSS ${mb(peakRss)}`);
}

// A first query loads Comunica into a worker; the limits count from the moment a loaded worker takes a query.
await drain(runQuery(state, 'ASK { ?s ?p ?o }', { maxQueryMemoryMb: MEMORY }));
await drain(runQuery(state, 'ASK { ?s ?p ?o }'));

await timed('in-process cross product', `--timeout-ms ${TIMEOUT}`, TIMEOUT, async () => {
  await drain(runQuery(state, CROSS, { timeoutMs: TIMEOUT }));
  return 'finished';
});
await timed('in-process ORDER BY over a cross product', `--max-query-memory ${MEMORY}`, null, async () => {
  await drain(runQuery(state, SORTED, { timeoutMs: 600_000, maxQueryMemoryMb: MEMORY }));
  return 'finished';
});
await timed('in-process string-doubling ORDER BY', `--max-query-memory ${MEMORY}`, null, async () => {
  await drain(runQuery(state, BOMB, { timeoutMs: 600_000, maxQueryMemoryMb: MEMORY }));
  return 'finished';
});
await timed('next query after all three', 'none', null, async () => {
  const r = await runQuery(state, `SELECT (COUNT(*) AS ?n) WHERE { <${BASE}s1> ?p ?o }`);
  if (r.kind !== 'bindings') return r.kind;
  for await (const row of r.rows) return `answered n=${row.n?.value}`;
  return 'no row';
});

const endpoint = await startEndpoint(state, { port: 0, timeoutMs: HTTP_TIMEOUT });
await new Promise((r) => setTimeout(r, 100));
await fetch(`${endpoint.url}?query=${encodeURIComponent('ASK {}')}`).then((r) => r.text()); // the warm worker is ready
await timed('HTTP cross product', `timeout ${HTTP_TIMEOUT} ms`, HTTP_TIMEOUT, async () => {
  const res = await fetch(`${endpoint.url}?query=${encodeURIComponent(CROSS)}`, { headers: { Accept: 'application/sparql-results+json' } });
  await res.text();
  return `HTTP ${res.status} ${res.headers.get('x-rdfscout-error') ?? ''}`.trim();
});
await endpoint.close();
clearInterval(sampler);
await state.close();
await rm(dir, { recursive: true, force: true });
