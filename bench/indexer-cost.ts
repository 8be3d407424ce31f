// **indexer-cost** times the background indexer on the RDF documents of a simulated web (issue 18): a document
// committed in this process indexed from the values handed over at commit (`Indexer.offer`) against the same documents
// read back from LevelDB and parsed again (what a pass does after a restart, and what every pass did before). Alternated
// rounds in one process, each in a fresh store; CPU time of the indexing alone (the commits are not timed).
// Run: node_modules/.bin/node bench/indexer-cost.ts [--profiles modern-like] [--docs 800] [--rounds 6]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Quad } from '@rdfjs/types';
import { parseDocument, stageDocument } from '../src/rdf/index.ts';
import { detectType } from '../src/rdf/sniff.ts';
import { buildWeb, respond } from '../src/simweb/index.ts';
import { Indexer } from '../src/state/indexer.ts';
import { openState } from '../src/state/open-state.ts';

const { values } = parseArgs({ options: { profiles: { type: 'string', default: 'modern-like' }, docs: { type: 'string', default: '800' }, rounds: { type: 'string', default: '6' } } });
const MAX = Number(values.docs);

// The RDF documents (and HTML pages with embedded RDF) of the web, parsed once.
const web = buildWeb({ profiles: values.profiles as string, seed: 1, scale: 1 });
const docs: Array<{ url: string; quads: Quad[] }> = [];
outer: for (const site of web.sites) {
  for (const doc of site.docs) {
    if (doc.status !== 200 || (doc.kind !== 'rdf' && doc.kind !== 'html')) continue;
    const url = `http://${site.host}${doc.path}`;
    const r = respond(web, url, 'application/rdf+xml,text/turtle;q=0.9,text/html;q=0.8');
    if (r.status !== 200) continue;
    const ct = String(r.headers['content-type']);
    const parsed = await parseDocument(r.body.toString('utf8'), detectType(r.body, ct, url), url);
    if (parsed.quads.length === 0) continue;
    docs.push({ url, quads: parsed.quads });
    if (docs.length >= MAX) break outer;
  }
}
const quads = docs.reduce((n, d) => n + d.quads.length, 0);

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU ms to index every document, in a fresh store: from the offered values, or read back. */
async function round(fromMemory: boolean): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'rdfscout-indexer-cost-'));
  const state = await openState(dir);
  try {
    await state.indexer.close(); // the state's own indexer stays out: the one timed here does every pass
    const indexer = new Indexer({ quadstore: state.quadstore, dataFactory: state.dataFactory, docs: state.docs, unindexed: state.sub.unindexed }, { batchQuads: 250, recentChars: 1e9 });
    for (const d of docs) {
      const txn = state.txn();
      stageDocument(state, txn, d.url, d.quads);
      await txn.commit();
      if (fromMemory) {
        const stored = (await state.docs.values({ gte: d.url, lt: `${d.url}\u0001` }).all()) as string[];
        indexer.offer(d.url, stored);
      }
    }
    const t = cpuMs();
    await indexer.flush();
    const ms = cpuMs() - t;
    if (indexer.indexedQuads !== quads) throw new Error(`indexed ${indexer.indexedQuads} quads, expected ${quads}`);
    if (indexer.indexedFromMemory !== (fromMemory ? docs.length : 0)) throw new Error(`from memory: ${indexer.indexedFromMemory}`);
    return ms;
  } finally {
    await state.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const times: Record<string, number[]> = { 'read back': [], 'from memory': [] };
await round(true); // warm-up
for (let r = 0; r < Number(values.rounds); r++) {
  for (const m of r % 2 === 0 ? [false, true] : [true, false]) times[m ? 'from memory' : 'read back']?.push(await round(m));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
console.log(`${values.profiles}: ${docs.length} documents, ${quads} quads; CPU ms to index them all (${values.rounds} rounds, alternated)`);
for (const [k, xs] of Object.entries(times)) console.log(`  ${k.padEnd(12)} median ${median(xs).toFixed(0)} ms (${((median(xs) / docs.length) * 1000).toFixed(0)} µs a document)  [${xs.map((x) => x.toFixed(0)).join(' ')}]`);
console.log(`from memory / read back ${(median(times['from memory'] as number[]) / median(times['read back'] as number[])).toFixed(3)}`);
