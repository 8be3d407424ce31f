import { mkdtemp } from 'node:fs/promises';
import { openState } from '/work/wt/sparql/src/state/open-state.ts';
import { runQuery } from '/work/wt/sparql/src/sparql/query-engine.ts';
const dir = await mkdtemp('/tmp/sp/db-');
const state = await openState(dir);
const df = state.dataFactory;
const quads = [];
for (let i = 0; i < 40; i++) for (let j = 0; j < 40; j++) quads.push(df.quad(df.namedNode(`http://ex.org/h${i}`), df.namedNode(`http://ex.org/hp${j}`), df.literal(String(i * j)), df.namedNode(`http://ex.org/heavy`)));
await state.txn().putQuads(quads).commit();
const q = process.argv[2];
const t0 = performance.now();
try {
  const r = await runQuery(state, q, { timeoutMs: Number(process.argv[3] ?? 20000), maxQueryMemoryMb: 32 });
  let n = 0; const tick = setInterval(() => console.log("n", n, process.memoryUsage().rss/1e6|0), 1000);
  if (r.kind !== 'boolean') for await (const _ of (r.kind === 'bindings' ? r.rows : r.quads)) n++;
  clearInterval(tick); console.log("rows", n);
} catch (e) { console.log((e as any).code, (e as Error).message); }
console.log('ms', performance.now() - t0);
await state.close();
