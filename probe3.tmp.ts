import { readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser, Writer } from 'n3';
import { IndexKeyStager } from './src/state/index-keys.ts';
import { openState } from './src/state/open-state.ts';
import { twoStepsQuadWriter as tw } from 'quadstore/dist/serialization/quads.js';
const text = await readFile('/tmp/w34a/report.ttl', 'utf8');
const graph = 'http://127.0.0.1/large.ttl';
const quads = new Parser({ format: 'text/turtle', baseIRI: graph }).parse(text);
const wr = new Writer({ format: 'N-Triples' });
const nt = quads.map((q) => wr.quadToString(q.subject, q.predicate, q.object)).join('');
quads.length = 0;
const state = await openState(await mkdtemp(join(tmpdir(), 'probe-')));
const qs = state.quadstore as any;
const cpu = (c0: NodeJS.CpuUsage) => { const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; };
const empty = new Uint8Array(0); const opts = { keyEncoding: 'utf8', valueEncoding: 'view' };
let sink = 0;
const writers: Record<string, any> = {
  scan: { _batchPut() {} },
  keys: { _batchPut(q: any) { tw.ingest(q, qs.prefixes); for (const i of qs.indexes) sink += tw.write(i.prefix, i.terms).length; } },
  'keys+rawput': { _batchPut(q: any, b: any) { tw.ingest(q, qs.prefixes); for (const i of qs.indexes) b._put(tw.write(i.prefix, i.terms), empty, opts); } },
  'keys+put': qs,
};
for (const round of [0, 1, 2]) for (const [name, w] of Object.entries(writers)) {
  const c0 = process.cpuUsage();
  const stager = new IndexKeyStager(w, state.dataFactory);
  for (let from = 0; from < nt.length; ) { const b = qs.db.batch(); const r = stager.stage(b, graph, nt, from, 250); from = r.next; await b.close(); }
  if (round > 0) console.log(name, cpu(c0).toFixed(0));
}
await state.close();
