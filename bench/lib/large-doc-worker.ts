// **large-doc-worker** stores and indexes one large Turtle document with the rdfscout checkout at ROOT, and prints its
// CPU ms (this process, every thread: LevelDB's included) as JSON. Child of bench/large-doc-cost.ts.
// With WARMUP > 0 the same document is stored and indexed that many times first, under other graph IRIs, and only
// the last time is measured: a crawl's process that has met large documents before (its code compiled by V8, its
// store not empty), where a fresh process pays V8's compilation of the whole path on this one document.
// Run: node_modules/.bin/node bench/lib/large-doc-worker.ts ROOT FILE.ttl [WARMUP]
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Parser } from 'n3';
import { threadCpuMs } from './thread-cpu.ts';

const [root, file, warmup = '0'] = process.argv.slice(2) as [string, string, string?];
const { openState } = (await import(resolve(root, 'src/state/open-state.ts'))) as typeof import('../../src/state/open-state.ts');
const { DocumentWriter } = (await import(resolve(root, 'src/rdf/document-writer.ts'))) as typeof import('../../src/rdf/document-writer.ts');
const text = await readFile(file, 'utf8');
const dir = await mkdtemp(join(tmpdir(), 'rdfscout-large-'));
const state = await openState(dir);
const cpu = (c0: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
/**
 * Waits until LevelDB's background compaction is done: three 200 ms windows in a row in which the process uses under
 * 5 CPU ms (at most 30 s). One quiet window was not enough on a loaded machine, where a compaction starved of CPU
 * may look idle for a while.
 */
async function settle(): Promise<void> {
  let quiet = 0;
  for (let waited = 0; waited < 30_000 && quiet < 3; waited += 200) {
    const c0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 200));
    quiet = cpu(c0) < 5 ? quiet + 1 : 0;
  }
}

try {
  const graph = 'http://127.0.0.1/large.ttl';
  const quads = new Parser({ format: 'text/turtle', baseIRI: graph }).parse(text);
  /** Stores the document under `iri` as a crawl does, then waits for the index. */
  const load = async (iri: string): Promise<{ n: number; stored: number; indexed: number }> => {
    const c0 = process.cpuUsage();
    const g = state.dataFactory.namedNode(iri);
    const writer = new DocumentWriter(state, iri);
    const SLICE = 2000; // the crawl hands quads over as the parser produces them, waiting for the spilled chunks
    for (let i = 0; i < quads.length; i += SLICE) {
      for (let k = i; k < Math.min(quads.length, i + SLICE); k++) {
        const q = quads[k]!;
        writer.add(iri === graph ? q : state.dataFactory.quad(q.subject, q.predicate, q.object, g));
      }
      await writer.drained();
    }
    const txn = state.txn();
    const n = writer.stage(txn);
    await txn.commit();
    const stored = cpu(c0);
    await state.indexer.flush();
    // What the load left in LevelDB's memtable is written out, and the compactions it started are waited for: work
    // the load caused, whatever a checkout's write buffer (a larger one would otherwise leave more of it unmeasured).
    await state.db.compactRange('\u0000', '\u0000'); // a key range that holds no key: the memtable only
    await settle();
    return { n, stored, indexed: cpu(c0) };
  };
  for (let w = 0; w < Number(warmup); w++) await load(`http://127.0.0.1/warmup/${w}/large.ttl`);
  const before = state.indexer.indexedQuads;
  const t0 = threadCpuMs();
  const { n, stored, indexed } = await load(graph);
  const t1 = threadCpuMs();
  const threads = Object.fromEntries(Object.entries(t1).map(([k, v]) => [k, v - (t0[k] ?? 0)]).filter(([, v]) => (v as number) > 0));
  process.stdout.write(`${JSON.stringify({ triples: n, storeMs: stored, totalMs: indexed, indexed: state.indexer.indexedQuads - before, threads })}\n`);
} finally {
  await state.close();
  await rm(dir, { recursive: true, force: true });
}
