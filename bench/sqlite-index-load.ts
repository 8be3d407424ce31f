// **sqlite-index-load** is a feasibility probe for issue 18's store target (bulk load ≥ 1.0× N3.js Store's in-memory
// parse-and-add, per CPU second): could another embedded, durable store hold the SPARQL indexes fast enough, where
// LevelDB with quadstore's three keys a quad reaches ~0.5 of N3.js even with no JavaScript cost (README, "Three
// indexes")? It loads the same N-Quads text into an N3.js Store and into SQLite (Node's built-in `node:sqlite`, a file
// in a temp folder, WAL, synchronous=NORMAL: durable against a killed process), each parsing the text with n3's
// Parser. SQLite keeps a term dictionary (term → integer id, cached in a Map) and one row of four ids a quad in a
// WITHOUT ROWID table ordered SPOG, with two more indexes POGS and OGSP (the orders of the crawl's quadstore), one
// transaction per 100 documents. Only the load is measured: nothing here answers SPARQL (Comunica would need an
// RDF/JS source over these tables), so this says whether a store swap could meet the target, not that one does.
// Run: node_modules/.bin/node --expose-gc bench/sqlite-index-load.ts [--docs 10000] [--people-per-doc 10] [--runs 3]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import type { Quad, Term } from '@rdfjs/types';
import { Parser, Store } from 'n3';
import { Prng } from '../src/random/prng.ts';

const { values } = parseArgs({
  options: { docs: { type: 'string', default: '10000' }, 'people-per-doc': { type: 'string', default: '10' }, runs: { type: 'string', default: '3' } },
});
const DOCS = Number(values.docs);
const PEOPLE_PER_DOC = Number(values['people-per-doc']);
const RUNS = Number(values.runs);
const PEOPLE = Math.max(1, Math.floor((DOCS * PEOPLE_PER_DOC) / 2));
const BASE = 'http://bench.example/';
const FOAF = 'http://xmlns.com/foaf/0.1/';

/** One document's N-Quads (FOAF people, as bench/store.ts generates them), its graph the document's URL. */
function docText(i: number): string {
  const g = new Prng(i + 1);
  const url = `${BASE}doc/${i}`;
  const lines = [`<${url}> <http://purl.org/dc/terms/title> "Document ${i}"@en <${url}> .`];
  for (let k = 0; k < PEOPLE_PER_DOC; k++) {
    const p = Math.floor(g.next() * PEOPLE);
    const person = `<${BASE}person/${p}>`;
    lines.push(`${person} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${FOAF}Person> <${url}> .`);
    lines.push(`${person} <${FOAF}name> "Person ${p}" <${url}> .`);
    lines.push(`${person} <${FOAF}age> "${20 + (p % 60)}"^^<http://www.w3.org/2001/XMLSchema#integer> <${url}> .`);
    lines.push(`${person} <${FOAF}knows> <${BASE}person/${Math.floor(g.next() * PEOPLE)}> <${url}> .`);
  }
  return `${lines.join('\n')}\n`;
}

const cpuMs = (c0: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** A term as the dictionary keys it (N-Triples-like; literals with their datatype or language). */
function termKey(t: Term): string {
  switch (t.termType) {
    case 'NamedNode':
      return `<${t.value}`;
    case 'BlankNode':
      return `_${t.value}`;
    case 'Literal':
      return t.language !== '' ? `"${t.value}@${t.language}` : `"${t.value}^${t.datatype.value}`;
    default:
      return `d`;
  }
}

function loadN3(texts: readonly string[]): { quads: number; cpu: number } {
  gc();
  const c0 = process.cpuUsage();
  const store = new Store();
  for (const t of texts) store.addQuads(new Parser({ format: 'N-Quads' }).parse(t));
  return { quads: store.size, cpu: cpuMs(c0) };
}

async function loadSqlite(texts: readonly string[]): Promise<{ quads: number; cpu: number; dbBytes: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'rdfscout-sqlite-'));
  try {
    gc();
    const c0 = process.cpuUsage();
    const db = new DatabaseSync(join(dir, 'index.db'));
    db.exec(`PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
      CREATE TABLE terms (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
      CREATE TABLE quads (s INTEGER, p INTEGER, o INTEGER, g INTEGER, PRIMARY KEY (s, p, o, g)) WITHOUT ROWID;
      CREATE INDEX pogs ON quads (p, o, g, s);
      CREATE INDEX ogsp ON quads (o, g, s, p);`);
    const insertTerm = db.prepare('INSERT INTO terms (id, key) VALUES (?, ?)');
    const insertQuad = db.prepare('INSERT OR IGNORE INTO quads (s, p, o, g) VALUES (?, ?, ?, ?)');
    const ids = new Map<string, number>();
    const idOf = (t: Term): number => {
      const k = termKey(t);
      let id = ids.get(k);
      if (id === undefined) {
        id = ids.size + 1;
        ids.set(k, id);
        insertTerm.run(id, k);
      }
      return id;
    };
    let quads = 0;
    for (let i = 0; i < texts.length; i += 100) {
      db.exec('BEGIN');
      for (const t of texts.slice(i, i + 100)) {
        for (const q of new Parser({ format: 'N-Quads' }).parse(t) as Quad[]) {
          const r = insertQuad.run(idOf(q.subject), idOf(q.predicate), idOf(q.object), idOf(q.graph));
          quads += Number(r.changes);
        }
      }
      db.exec('COMMIT');
    }
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const dbBytes = Number((db.prepare('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()').get() as { n: number }).n);
    db.close();
    return { quads, cpu: cpuMs(c0), dbBytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const texts = Array.from({ length: DOCS }, (_, i) => docText(i));
console.log(`sqlite-index-load: ${DOCS} documents, ${texts.reduce((n, t) => n + t.split('\n').length - 1, 0)} quads; ${RUNS} runs, alternating; per CPU second of this process`);
loadN3(texts.slice(0, 200)); // warm-up of both paths (JIT), untimed
await loadSqlite(texts.slice(0, 200));
const ratios: number[] = [];
for (let r = 1; r <= RUNS; r++) {
  const first = r % 2 === 1 ? 'n3' : 'sqlite';
  const n3 = first === 'n3' ? loadN3(texts) : null;
  const sq = await loadSqlite(texts);
  const n3b = n3 ?? loadN3(texts);
  if (n3b.quads !== sq.quads) throw new Error(`N3 holds ${n3b.quads} quads, SQLite ${sq.quads}`);
  const n3Rate = n3b.quads / (n3b.cpu / 1000);
  const sqRate = sq.quads / (sq.cpu / 1000);
  ratios.push(sqRate / n3Rate);
  console.log(
    `  run ${r} (${first} first): N3.js parse+add ${Math.round(n3Rate)} quads/CPU s; SQLite parse+index ${Math.round(sqRate)} quads/CPU s (${(sq.dbBytes / 2 ** 20).toFixed(1)} MB); SQLite / N3.js ${(sqRate / n3Rate).toFixed(2)}`,
  );
}
ratios.sort((a, b) => a - b);
const median = ratios.length % 2 === 1 ? (ratios[(ratios.length - 1) / 2] as number) : ((ratios[ratios.length / 2 - 1] as number) + (ratios[ratios.length / 2] as number)) / 2;
console.log(`median SQLite / N3.js: ${median.toFixed(2)} (issue 18's store target: 1.0; quadstore on LevelDB: 0.41-0.56 stored and indexed, README)`);
