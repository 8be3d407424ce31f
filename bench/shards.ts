// **bench/shards** measures SPARQL over several crawl folders read as one: COUNT(*) over two shards vs each shard alone.
// Run: npm run bench:shards [-- --documents 2500 --triples 100 --shards 2 --seed 7 --repeat 2 --max-query-memory 512 --keep DIR]
// Method: one generated crawl (test/helpers/shard-data.ts; ~documents × triples quads, 30% of the triples shared
// between documents, every tenth document also fetched earlier by the other shard) is stored in one folder and
// split over two (`--shards`) shard folders whose namespace ids differ. Each query is a CLI child process (`rdfscout query …`),
// as a user runs it; CPU is the process's user + system time (every thread, start-up included), RSS its peak.
// Prints, per run, the answer, CPU and peak RSS, then the goal ratio: CPU of `query A B` ÷ (CPU of `query A` + CPU
// of `query B`), goal ≤ 1.5, and the peak RSS of the shards read as one, goal < --max-query-memory.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeShardedCrawl } from '../test/helpers/shard-data.ts';

const { values } = parseArgs({
  options: {
    documents: { type: 'string', default: '2500' },
    triples: { type: 'string', default: '100' },
    seed: { type: 'string', default: '7' },
    shards: { type: 'string', default: '2' },
    repeat: { type: 'string', default: '2' },
    'max-query-memory': { type: 'string', default: '512' },
    keep: { type: 'string' },
  },
});
const CLI = join(import.meta.dirname, '../bin/rdfscout.js');
const PRELOAD = join(import.meta.dirname, 'lib/cpu-on-exit.ts');
const COUNT = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';
const MEMORY = values['max-query-memory'];

interface Run {
  answer: string;
  cpuMs: number;
  maxRssMb: number;
}

/** `rdfscout query DIRS… COUNT --format csv` in a child process: its answer, CPU time and peak RSS. */
async function query(dirs: readonly string[], cpuFile: string): Promise<Run> {
  const child = spawn(process.execPath, [CLI, 'query', ...dirs, COUNT, '--format', 'csv', '--max-query-memory', MEMORY, '--timeout-ms', '600000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim(), RDFSCOUT_CPU_FILE: cpuFile },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`rdfscout query ${dirs.join(' ')} exited with ${code}: ${err}`);
  const usage = JSON.parse(await readFile(cpuFile, 'utf8')) as { cpuMs: number; maxRssMb: number };
  await rm(cpuFile, { force: true });
  return { answer: out.trim().split('\n').slice(1).join(' '), ...usage };
}

const SHARDS = Number(values.shards);
const root = values.keep ?? (await mkdtemp(join(tmpdir(), 'rdfscout-bench-shards-')));
const t0 = performance.now();
// `--keep DIR` keeps the data for the next run, which reads it again when the same options wrote it.
const options = { seed: Number(values.seed), documents: Number(values.documents), triplesPerDocument: Number(values.triples), shards: SHARDS };
const made = join(root, 'options.json');
const kept = existsSync(made) && (await readFile(made, 'utf8')) === JSON.stringify(options);
const crawl = kept
  ? { single: join(root, 'single'), shards: Array.from({ length: SHARDS }, (_, i) => join(root, `shard-${i}`)), quads: Number.NaN }
  : await writeShardedCrawl(root, options);
if (!kept) await writeFile(made, JSON.stringify(options));
console.log(`data: ${kept ? 'kept' : crawl.quads} quads in one folder, split over ${SHARDS} shards (${((performance.now() - t0) / 1000).toFixed(0)} s to write, ${root})`);

const cpuFile = join(root, 'cpu.json');
const show = (label: string, r: Run): void => console.log(`${label.padEnd(22)} n=${r.answer.padEnd(8)} CPU ${(r.cpuMs / 1000).toFixed(2)} s  peak RSS ${r.maxRssMb.toFixed(0)} MB`);
const names = crawl.shards.map((_, i) => String.fromCharCode(65 + i));
const ratios: number[] = [];
let peak = 0;
for (let i = 0; i < Number(values.repeat); i++) {
  // The figures of one round are measured back to back, so they see the same load from other work.
  const one = await query([crawl.single], cpuFile);
  show('query single', one);
  let alone = 0;
  for (const [k, dir] of crawl.shards.entries()) {
    const r = await query([dir], cpuFile);
    show(`query ${names[k]}`, r);
    alone += r.cpuMs;
  }
  const all = await query(crawl.shards, cpuFile);
  show(`query ${names.join(' ')}`, all);
  if (all.answer !== one.answer) throw new Error(`${SHARDS} shards answered ${all.answer}, the single folder ${one.answer}`);
  ratios.push(all.cpuMs / alone);
  peak = Math.max(peak, all.maxRssMb);
}
const worst = Math.max(...ratios);
console.log(`${SHARDS}-shard COUNT CPU ÷ (${names.join(' + ')}): ${ratios.map((r) => r.toFixed(2)).join(', ')} (worst ${worst.toFixed(2)}; goal ≤ 1.5)`);
console.log(`${SHARDS}-shard peak RSS: ${peak.toFixed(0)} MB (goal < ${MEMORY} MB, --max-query-memory); load average ${loadavg()[0]?.toFixed(1)}`);
if (values.keep === undefined) await rm(root, { recursive: true, force: true });
