// Several shards read as one stream the default graph's merge: a child process with a 20 MB old space counts ~60k
// triples over two shards (a merge that collected them, e.g. one set of every triple, dies of heap exhaustion there).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeShardedCrawl, type ShardedCrawl } from '../helpers/shard-data.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';

const run = promisify(execFile);
const CHILD = new URL('./merged-count-child.ts', import.meta.url).pathname;
/** Old space of the child, MB: the streaming merge peaks at ~15 MB of heap here; collecting 60k triples needs more than 32. */
const HEAP_MB = 20;

let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let crawl: ShardedCrawl;

beforeAll(async () => {
  tmp = await makeTempDir();
  crawl = await writeShardedCrawl(tmp.dir, { seed: 11, documents: 800, triplesPerDocument: 100, shards: 2, single: false });
}, 120_000);

afterAll(async () => {
  await tmp?.remove();
});

it(`counts the default graph of two shards in a ${HEAP_MB} MB heap, each triple once`, async () => {
  expect(crawl.triples).toBeGreaterThan(50_000);
  const { stdout } = await run(process.execPath, [`--max-old-space-size=${HEAP_MB}`, CHILD, ...crawl.shards], { timeout: 120_000 }).catch((err: { stderr?: string; signal?: string }) => {
    throw new Error(`the merge over two shards did not finish in a ${HEAP_MB} MB heap (signal ${err.signal}): ${err.stderr?.slice(-400)}`);
  });
  const out = JSON.parse(stdout) as { count: number; peakHeapMb: number };
  expect(out.count).toBe(crawl.triples);
}, 180_000);
