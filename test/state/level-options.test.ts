// The crawl's LevelDB: a close writes the memtable out (the next open replays no log), and a crash loses nothing of it.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { countQuads, stageDocument } from '../../src/rdf/index.ts';
import { useTempState } from '../helpers/temp-state.ts';

const t = useTempState();
const df = new DataFactory();

/** Bytes of LevelDB's write-ahead logs in the store: what the next open replays into a memtable. */
async function logBytes(dir: string): Promise<number> {
  const db = join(dir, 'db');
  let n = 0;
  for (const f of await readdir(db)) if (f.endsWith('.log')) n += (await stat(join(db, f))).size;
  return n;
}

/** Stores and indexes one document of `n` triples under `graph`. */
async function store(graph: string, n: number): Promise<void> {
  const g = df.namedNode(graph);
  const quads = Array.from({ length: n }, (_, i) => df.quad(df.namedNode(`http://ex.example/s/${i}`), df.namedNode('http://ex.example/vocab/p'), df.literal(`value ${i}`), g));
  const txn = t.state.txn();
  stageDocument(t.state, txn, graph, quads);
  await txn.commit();
  await t.state.indexer.flush();
}

describe('the crawl LevelDB', () => {
  it('writes its memtable out when it closes: the log left for the next open is empty, and every quad is there', async () => {
    await store('http://ex.example/doc/1', 2000);
    expect(await logBytes(t.dir)).toBeGreaterThan(100_000); // the writes are in the log (and the memtable) until then
    await t.close();
    expect(await logBytes(t.dir)).toBe(0);
    await t.open();
    expect(await countQuads(t.state)).toBe(2000);
  });

  it('after a crash (no close), the next open replays the log: nothing is lost', async () => {
    await store('http://ex.example/doc/1', 2000);
    await t.reopen({ crash: true });
    expect(await countQuads(t.state)).toBe(2000);
    await store('http://ex.example/doc/2', 10);
    expect(await countQuads(t.state)).toBe(2010);
  });
});
