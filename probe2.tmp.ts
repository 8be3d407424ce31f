import { readFile } from 'node:fs/promises';
import { Parser, Writer } from 'n3';
import { DataFactory } from 'rdf-data-factory';
import { IndexKeyStager } from './src/state/index-keys.ts';
const text = await readFile('/tmp/w34a/report.ttl', 'utf8');
const graph = 'http://127.0.0.1/large.ttl';
const quads = new Parser({ format: 'text/turtle', baseIRI: graph }).parse(text);
const wr = new Writer({ format: 'N-Triples' });
const nt = quads.map((q) => wr.quadToString(q.subject, q.predicate, q.object)).join('');
quads.length = 0;
const cpu = (c0: NodeJS.CpuUsage) => { const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; };
for (let k = 0; k < 5; k++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const stager = new IndexKeyStager({ _batchPut() {} }, new DataFactory());
  let n = 0;
  for (let from = 0; from < nt.length; ) { const r = stager.stage(null, graph, nt, from, 250); from = r.next; n += r.quads; }
  console.log('scan', n, cpu(c0).toFixed(0), (performance.now() - t0).toFixed(0));
}
const lines = nt.split('\n').filter(Boolean);
const st = new IndexKeyStager({ _batchPut() {} }, new DataFactory()) as any;
let bad = 0; const ex: string[] = [];
for (const l of lines) { const r = st.stage(null, graph, l + '\n', 0, 1); }
console.log('fallback', (globalThis as any).FALLBACK);
