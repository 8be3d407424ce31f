// **bench/large-doc-cost** compares the CPU of storing and indexing one large document between rdfscout checkouts,
// side by side: each round runs every checkout once (a fresh process each, in rotating order), and the median of
// each checkout's rounds is printed with its ratio to the first. CPU is the child's (every thread: LevelDB's writes
// in libuv's pool and V8's GC helpers included); on a loaded machine absolute times are noise, the ratios are not.
// Run: npm run bench:large-doc -- [--file doc.ttl] [--triples 50000] [--rounds 5] [--warmup N] ROOT_A ROOT_B …  (a ROOT: a
// checkout with node_modules, e.g. `git worktree add /tmp/base REV` + a node_modules symlink)
//   (no --file: a ~2 MB Turtle document of 50,000 triples is generated, as a test-suite report)
//   --warmup N: each process stores and indexes the document N times first (other graphs) and measures the next
//   time, as in a crawl that has met large documents before; 0 (the default) measures a fresh process, V8's
//   compilation of the whole path included.
//   --virtuoso: the same triples (as N-Triples) are then bulk-loaded into Debian's Virtuoso (ld_dir + rdf_loader_run,
//   then a checkpoint), whose virtuoso-t CPU gives the anchor's triples per CPU second beside ours.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Parser, Writer } from 'n3';
import { reportTurtle } from './lib/report-turtle.ts';
import { median } from './lib/stats.ts';
import { virtuosoLoad } from './lib/virtuoso-load.ts';

const { values, positionals } = parseArgs({ options: { file: { type: 'string' }, warmup: { type: 'string', default: '0' }, virtuoso: { type: 'boolean', default: false }, rounds: { type: 'string', default: '5' }, triples: { type: 'string', default: '50000' } }, allowPositionals: true });
const roots = positionals.length > 0 ? positionals : ['.'];

const file = values.file ?? join(mkdtempSync(join(tmpdir(), 'rdfscout-large-')), 'report.ttl');
if (values.file === undefined) writeFileSync(file, reportTurtle(Number(values.triples)));
const worker = resolve(import.meta.dirname, 'lib/large-doc-worker.ts');
const runs = new Map<string, number[]>(roots.map((r) => [r, []]));
let triples = 0;
const load0 = loadavg()[0] ?? 0;
for (let round = 0; round < Number(values.rounds); round++) {
  const order = roots.map((_, i) => roots[(i + round) % roots.length] as string);
  for (const root of order) {
    const out = JSON.parse(execFileSync(process.execPath, [worker, resolve(root), file, values.warmup], { encoding: 'utf8' })) as { triples: number; totalMs: number; indexed: number };
    if (out.indexed !== out.triples) throw new Error(`${root}: ${out.triples} triples stored, ${out.indexed} indexed`);
    triples = out.triples;
    runs.get(root)?.push(out.totalMs);
    process.stderr.write(`  round ${round + 1} ${root}: ${out.totalMs.toFixed(0)} CPU ms\n`);
  }
}
const first = median(runs.get(roots[0] as string) ?? []);
console.log(`${triples.toLocaleString('en')} triples stored and indexed (${file}); ${values.rounds} rounds, ${values.warmup} warm-up loads a process; load average ${load0.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`);
for (const [root, xs] of runs) {
  const m = median(xs);
  console.log(`${root.padEnd(24)} median ${m.toFixed(0)} CPU ms  ${Math.round((triples / m) * 1000).toLocaleString('en')} triples per CPU s  ×${(first / m).toFixed(2)} of the first`);
}
if (values.virtuoso) {
  // The anchor: the document's triples as N-Triples (what rdfscout stores), through Virtuoso's bulk loader.
  const graph = 'http://127.0.0.1/large.ttl';
  const quads = new Parser({ format: 'text/turtle', baseIRI: graph }).parse(readFileSync(file, 'utf8'));
  const nt = join(mkdtempSync(join(tmpdir(), 'rdfscout-large-nt-')), 'doc.nt');
  const writer = new Writer({ format: 'N-Triples' });
  writeFileSync(nt, quads.map((q) => writer.quadToString(q.subject, q.predicate, q.object)).join(''));
  const v = await virtuosoLoad(nt, graph);
  const cpu = v.loadCpuMs + v.checkpointCpuMs;
  console.log(`${'Virtuoso bulk load'.padEnd(24)} ${cpu.toFixed(0)} CPU ms (rdf_loader_run ${v.loadCpuMs}, checkpoint ${v.checkpointCpuMs}; ${v.quads.toLocaleString('en')} triples)  ${Math.round((v.quads / cpu) * 1000).toLocaleString('en')} triples per CPU s`);
}
