// **bench/store** measures the crawl store (quadstore on LevelDB) against an N3.js in-memory Store: load, export, queries.
// Run: node_modules/.bin/node bench/store.ts [--docs 10000] [--people-per-doc 10] [--virtuoso]   (≈ 1.2 M quads by default)
// --virtuoso: the same N-Quads are then bulk-loaded into Debian's Virtuoso (ld_dir + rdf_loader_run), whose
// virtuoso-t CPU (from /proc) gives the anchor's quads per CPU second beside rdfscout's.
// Rates are given per wall second and per CPU second of this process (all its threads: LevelDB's compaction
// included): on a shared machine the CPU rates are the ones to compare.
// Fairness: both sides get their input built before the clock starts (rdfscout the documents' quads and
// records, N3 the same quads as one N-Quads text), both count the same quads (the documents' plus the crawl graph's,
// which rdfscout stores as records and serves as a graph), N3 loads first (no LevelDB compaction left running
// in its CPU), a forced GC precedes each timed load, and rdfscout's load CPU includes the compaction LevelDB is
// still doing after the index is flushed (until the process is quiet), as work the load caused.
import { Prng } from '../src/random/prng.ts';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { QueryEngine } from '@comunica/query-sparql-rdfjs';
import type { Quad } from '@rdfjs/types';
import { Parser, Store, Writer } from 'n3';
import type { CrawlRecord } from '../src/crawl-log/record.ts';
import { runQuery } from '../src/sparql/query-engine.ts';
import { recordToQuads } from '../src/crawl-log/crawl-vocab.ts';
import { stageRecordWrite } from '../src/crawl-log/record-store.ts';
import { exportNQuads, stageDocument } from '../src/rdf/index.ts';
import { flushMemtable } from '../src/state/level-options.ts';
import { openState } from '../src/state/open-state.ts';
import { virtuosoLoad } from './lib/virtuoso-load.ts';

const { values } = parseArgs({ options: { docs: { type: 'string', default: '10000' }, 'people-per-doc': { type: 'string', default: '10' }, virtuoso: { type: 'boolean', default: false } } });
const DOCS = Number(values.docs);
const PEOPLE_PER_DOC = Number(values['people-per-doc']);
const PEOPLE = Math.max(1, Math.floor((DOCS * PEOPLE_PER_DOC) / 2)); // each person appears in ~2 documents
const BASE = 'http://bench.example/';
const FOAF = 'http://xmlns.com/foaf/0.1/';
const DCT = 'http://purl.org/dc/terms/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** The shared mulberry32 generator as a function: every run generates the same data. */
const prng = (seed: number): (() => number) => {
  const g = new Prng(seed);
  return () => g.next();
};

type DF = Awaited<ReturnType<typeof openState>>['dataFactory'];

/** The quads of document `i` (FOAF people with names, ages, mboxes, acquaintances; dcterms about the document) and its crawl record. */
function generateDoc(i: number, df: DF): { url: string; quads: Quad[]; record: CrawlRecord } {
  const rand = prng(i + 1);
  const url = `${BASE}doc/${i}`;
  const g = df.namedNode(url);
  const n = (s: string) => df.namedNode(s);
  const quads: Quad[] = [];
  const add = (s: string, p: string, o: Quad['object']) => quads.push(df.quad(n(s), n(p), o, g));
  add(url, `${DCT}title`, df.literal(`Document ${i}`, 'en'));
  add(url, `${DCT}created`, df.literal(`2024-01-${String((i % 28) + 1).padStart(2, '0')}`, n(`${XSD}date`)));
  for (let k = 0; k < PEOPLE_PER_DOC; k++) {
    const p = Math.floor(rand() * PEOPLE);
    const person = `${BASE}person/${p}`;
    add(person, RDF_TYPE, n(`${FOAF}Person`));
    add(person, `${FOAF}name`, df.literal(`Person ${p}`));
    add(person, `${FOAF}age`, df.literal(String(18 + (p % 60)), n(`${XSD}integer`)));
    add(person, `${FOAF}mbox`, n(`mailto:person${p}@bench.example`));
    for (let f = 0; f < 4; f++) add(person, `${FOAF}knows`, n(`${BASE}person/${Math.floor(rand() * PEOPLE)}`));
    add(person, `${DCT}isReferencedBy`, g);
  }
  const record: CrawlRecord = {
    seq: i + 1, url, finalUrl: url, status: 200, outcome: 'ok', contentType: 'text/turtle', detectedType: 'rdf', rdfFormat: 'text/turtle',
    parent: i === 0 ? null : `${BASE}doc/${Math.floor(rand() * i)}`, depth: i === 0 ? 0 : 1 + (i % 5), pld: 'bench.example', triples: quads.length,
    linksQueued: 3, error: null, errorMessage: null, label: i === 0 ? null : 'R', rules: ['r1'], redirects: [], ms: 12, fetchedAt: '2024-01-01T00:00:00.000Z',
  };
  return { url, quads, record };
}

const QUERIES: Array<[string, string]> = [
  ['count per graph (top 10)', 'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY DESC(?n) LIMIT 10'],
  // DISTINCT: rdfscout's default graph is the RDF merge (each triple once); N3's unionDefaultGraph repeats a triple per
  // graph stating it, so without it the two sides returned 14 and 18 rows
  ['lookup by subject', `SELECT DISTINCT ?p ?o WHERE { <${BASE}person/123> ?p ?o }`],
  ['provenance GRAPH ?g { ?s foaf:name "…" }', `SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s <${FOAF}name> "Person 123" } }`],
  ['join: names of friends of friends', `SELECT DISTINCT ?name WHERE { <${BASE}person/123> <${FOAF}knows> ?f . ?f <${FOAF}knows> ?ff . ?ff <${FOAF}name> ?name }`],
  ['join: people over 70 named in doc/42', `SELECT DISTINCT ?s ?age WHERE { GRAPH <${BASE}doc/42> { ?s <${FOAF}age> ?age } FILTER(?age > 70) }`],
];

setFlagsFromString('--expose-gc');
/** A full GC before a timed part, so that neither side pays for the garbage of what ran before it. */
const gc = runInNewContext('gc') as () => void;

/**
 * CPU ms this process spends after `flush` while LevelDB finishes compacting what the load wrote: sampled every
 * 250 ms until a 500 ms window uses less than 10 ms (the main thread is idle meanwhile), at most 60 s.
 */
async function settleCpuMs(): Promise<number> {
  const c0 = process.cpuUsage();
  let last = 0;
  for (let waited = 0; waited < 60_000; waited += 500) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMs(c0);
    if (now - last < 10) return now;
    last = now;
  }
  return last;
}

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
/** CPU ms of this process (user + system, every thread) since `c0`. */
const cpuMs = (c0: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const rate = (n: number, t: number): string => `${Math.round((n / t) * 1000).toLocaleString('en')}/s`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rdfscout-bench-'));
  const state = await openState(dir);
  const df = state.dataFactory;
  const rows: Array<[string, string, string, string]> = [];
  try {
    // ---- inputs, built before any clock starts: every document's quads and record; the same quads (and the crawl
    // graph's, from the records) as N-Quads for N3 ----
    const docs = Array.from({ length: DOCS }, (_, i) => generateDoc(i, df));
    const writer = new Writer({ format: 'N-Quads' });
    const lines: string[] = [];
    for (const { quads, record } of docs) {
      for (const q of [...quads, ...recordToQuads(record, df)]) lines.push(writer.quadToString(q.subject, q.predicate, q.object, q.graph));
    }
    const nquads = lines.join('');
    lines.length = 0;

    // ---- reference first: N3.js Store, parse + add (its load from text), then add alone (from parsed quads) ----
    gc();
    let t0 = process.hrtime.bigint();
    let c0 = process.cpuUsage();
    let n3 = new Store();
    n3.addQuads(new Parser({ format: 'N-Quads' }).parse(nquads));
    const loadN3 = ms(t0);
    const loadN3Cpu = cpuMs(c0);
    const total = n3.size; // document quads + crawl graph quads
    const parsed = new Parser({ format: 'N-Quads' }).parse(nquads);
    n3 = new Store();
    gc();
    t0 = process.hrtime.bigint();
    c0 = process.cpuUsage();
    n3.addQuads(parsed);
    const addN3 = ms(t0);
    const addN3Cpu = cpuMs(c0);
    parsed.length = 0;
    n3 = new Store();

    // ---- load into the crawl store: one Txn per document, as the crawler commits: the document stored once
    // (stageDocument) with its record; then the background indexer's SPARQL indexes, waited for ----
    gc();
    let stored = 0; // document quads (distinct within each document)
    t0 = process.hrtime.bigint();
    c0 = process.cpuUsage();
    for (let i = 0; i < DOCS; i++) {
      const { url, quads, record } = docs[i] as (typeof docs)[number];
      const txn = state.txn();
      record.triples = stageDocument(state, txn, url, quads);
      stageRecordWrite(state, txn, record);
      await txn.commit();
      stored += record.triples;
      if (i % 1000 === 999) process.stderr.write(`  stored ${i + 1} docs, ${stored} quads, ${rate(stored, ms(t0))}\n`);
    }
    const storeQs = ms(t0);
    const storeCpu = cpuMs(c0);
    await state.indexer.flush();
    const loadQs = ms(t0);
    // The memtable is written out too (state/level-options.ts: a close does it): a larger write buffer leaves more of
    // the load in it, work the load caused.
    const c1 = process.cpuUsage();
    await flushMemtable(state.db);
    const settle = cpuMs(c1) + (await settleCpuMs());
    const loadCpu = cpuMs(c0); // includes the memtable written out and the compaction after the flush (settle)
    docs.length = 0;
    process.stderr.write(`  indexed: ${rate(total, loadQs)} stored and indexed (${rate(total, loadCpu)} per CPU second; ${settle.toFixed(0)} CPU ms of memtable written out and compaction after the flush)\n`);

    // ---- export: every quad as N-Quads to /dev/null (documents from their stored values, then the crawl graph) ----
    t0 = process.hrtime.bigint();
    const exported = await exportNQuads(state, createWriteStream('/dev/null'), { withCrawlGraph: true });
    const exportQs = ms(t0);
    if (exported !== total) throw new Error(`rdfscout exported ${exported} quads, N3 loaded ${total}`);

    // ---- N3 again, for export and queries (untimed load) ----
    n3.addQuads(new Parser({ format: 'N-Quads' }).parse(nquads));
    t0 = process.hrtime.bigint();
    let exportedN3 = 0;
    const out2 = createWriteStream('/dev/null');
    let buf = '';
    for (const q of n3.match()) {
      buf += writer.quadToString(q.subject, q.predicate, q.object, q.graph);
      if (++exportedN3 % 1000 === 0) {
        if (!out2.write(buf)) await new Promise<void>((r) => out2.once('drain', () => r()));
        buf = '';
      }
    }
    out2.end(buf);
    const exportN3 = ms(t0);

    const ratio = (a: number, b: number): string => (a / b).toFixed(2);
    if (values.virtuoso) {
      // The anchor: the same N-Quads (documents and crawl graph) through Virtuoso's bulk loader, its CPU from /proc.
      const file = join(dir, 'bench.nq');
      await writeFile(file, nquads);
      const v = await virtuosoLoad(file);
      if (v.quads !== total) process.stderr.write(`  Virtuoso holds ${v.quads} quads after the load, rdfscout ${total}\n`);
      const vCpu = v.loadCpuMs + v.checkpointCpuMs;
      rows.push(['anchor: Virtuoso bulk load + checkpoint (quads per CPU s)', rate(total, loadCpu), `${rate(v.quads, vCpu)} (Virtuoso)`, ratio(vCpu / v.quads, loadCpu / total)]);
      process.stderr.write(`  Virtuoso: ${v.quads} quads, ${v.loadCpuMs} CPU ms rdf_loader_run + ${v.checkpointCpuMs} checkpoint, ${v.wallMs.toFixed(0)} ms wall\n`);
    }
    // Both sides count `total` quads: the documents' (stored as values, indexed) and the crawl graph's (stored as records).
    rows.push(['crawl path: documents stored (quads/s)', rate(total, storeQs), `${rate(total, loadN3)} (parse+add)`, ratio(loadN3, storeQs)]);
    rows.push(['bulk load: stored + indexed (quads/s)', rate(total, loadQs), `${rate(total, loadN3)} (parse+add)`, ratio(loadN3, loadQs)]);
    rows.push(['crawl path: stored (quads per CPU s)', rate(total, storeCpu), rate(total, loadN3Cpu), ratio(loadN3Cpu, storeCpu)]);
    rows.push(['bulk load: stored + indexed (quads per CPU s)', rate(total, loadCpu), rate(total, loadN3Cpu), ratio(loadN3Cpu, loadCpu)]);
    rows.push(['  (N3 add alone, quads given: per CPU s)', rate(total, loadCpu), `${rate(total, addN3Cpu)} (add)`, ratio(addN3Cpu, loadCpu)]);
    rows.push(['  (N3 add alone, quads given: per wall s)', rate(total, loadQs), `${rate(total, addN3)} (add)`, ratio(addN3, loadQs)]);
    rows.push(['export N-Quads (quads/s)', rate(exported, exportQs), rate(exportedN3, exportN3), (exported / exportQs / (exportedN3 / exportN3)).toFixed(2)]);

    // ---- queries ----
    const engine = new QueryEngine();
    for (const [name, sparql] of QUERIES) {
      t0 = process.hrtime.bigint();
      c0 = process.cpuUsage();
      const r = await runQuery(state, sparql, { timeoutMs: 600_000 });
      let n = 0;
      if (r.kind === 'bindings') for await (const _ of r.rows) n++;
      const tq = ms(t0);
      const cq = cpuMs(c0);
      t0 = process.hrtime.bigint();
      c0 = process.cpuUsage();
      const bs = await engine.queryBindings(sparql, { sources: [n3], unionDefaultGraph: true });
      const m = (await bs.toArray()).length;
      const tn = ms(t0);
      const cn = cpuMs(c0);
      rows.push([`${name} [${n}${n === m ? '' : ` vs ${m}!`} rows] (ms wall / CPU)`, `${tq.toFixed(0)} / ${cq.toFixed(0)}`, `${tn.toFixed(0)} / ${cn.toFixed(0)}`, `${(tq / tn).toFixed(2)} / ${(cq / cn).toFixed(2)}`]);
      process.stderr.write(`  ${name}: ${tq.toFixed(0)} ms (CPU ${cq.toFixed(0)}) vs ${tn.toFixed(0)} ms (CPU ${cn.toFixed(0)})\n`);
    }
    const header: [string, string, string, string] = ['measure', 'quadstore (LevelDB)', 'N3 Store (memory)', 'ratio'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
    const fmt = (r: readonly string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ');
    console.log(`\n${total.toLocaleString('en')} quads in ${DOCS.toLocaleString('en')} document graphs (+ crawl graph), Node ${process.version}`);
    console.log(fmt(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
    for (const r of rows) console.log(fmt(r));
    console.log('ratio: quadstore ÷ N3 (rates: >1 = quadstore faster; times: >1 = quadstore slower)');
  } finally {
    await state.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
