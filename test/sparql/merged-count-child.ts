// Child process of shard-memory.test.ts: counts the default graph's quads over shard folders read as one, under the heap it was given.
import { getHeapStatistics } from 'node:v8';
import { planShardMerge } from '../../src/crawl-log/shard-merge.ts';
import { GuardedSource } from '../../src/sparql/guarded-source.ts';
import { openState } from '../../src/state/open-state.ts';

const states = [];
for (const dir of process.argv.slice(2)) states.push(await openState(dir, { index: false }));
const source = new GuardedSource({ states, plan: await planShardMerge(states) });
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}, 10);
const df = states[0]?.dataFactory;
let count = 0;
for await (const _ of source.match(null, null, null, df?.defaultGraph()) as AsyncIterable<unknown>) {
  count++;
  if (count % 5000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
}
clearInterval(sampler);
for (const s of states) await s.close();
console.log(JSON.stringify({ count, peakHeapMb: Math.round(peak / 1e5) / 10, heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 1e6) }));
