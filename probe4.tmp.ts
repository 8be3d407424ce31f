import { readFile } from 'node:fs/promises';
import { Parser, Writer } from 'n3';
import { hash64 } from './src/hash/hash64.ts';
import { FingerprintSet } from './src/rdf/fingerprint-set.ts';
const text = await readFile('/tmp/w34a/report.ttl', 'utf8');
const quads = new Parser({ format: 'text/turtle', baseIRI: 'http://x/' }).parse(text);
const wr = new Writer({ format: 'N-Triples' });
const cpu = (c0: NodeJS.CpuUsage) => { const c = process.cpuUsage(c0); return ((c.user + c.system) / 1000).toFixed(0); };
for (let k = 0; k < 3; k++) {
  let c0 = process.cpuUsage();
  const lines = quads.map((q) => wr.quadToString(q.subject, q.predicate, q.object));
  console.log('toString', cpu(c0));
  c0 = process.cpuUsage();
  for (const l of lines) hash64(l);
  console.log('hash cons', cpu(c0));
  c0 = process.cpuUsage();
  for (const l of lines) hash64(l);
  console.log('hash again', cpu(c0));
  c0 = process.cpuUsage();
  const s = new FingerprintSet(); for (const l of lines) s.add(l);
  console.log('set', cpu(c0));
  c0 = process.cpuUsage();
  const j = lines.join('');
  console.log('join', cpu(c0), j.length);
}
