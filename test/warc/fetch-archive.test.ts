// FetchArchive: a fetch's records are written in the background after `finish`, which waits only when more than
// `maxPending` fetches are waiting to be written (a bounded queue); `close` writes everything finished.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HttpExchange } from '../../src/fetch/types.ts';
import { FetchArchive, readArchive, WarcWriter } from '../../src/warc/index.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const exchange = (i: number): HttpExchange => ({
  fetchId: String(i),
  url: `http://a.example/doc/${i}`,
  requestHeaders: { accept: 'text/turtle' },
  date: '2026-11-23T14:00:00.000Z',
  status: 200,
  statusText: 'OK',
  headers: { 'content-type': 'text/turtle' },
  body: [Buffer.from(`<http://a.example/s${i}> <http://a.example/p> "o" .\n`)],
  truncated: null,
});

let tmp: string;
const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  tmp = folder.dir;
});

/** Whether `p` has settled once the current microtasks ran (not waiting for the event loop). */
async function settledNow(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('FetchArchive', () => {
  it('returns from finish at once up to maxPending fetches queued, then waits for the write; close writes them all in order', async () => {
    const file = join(tmp, 'bounded.warc.gz');
    const archive = new FetchArchive(await WarcWriter.open({ target: file }), { maxPending: 3 });
    const waits: boolean[] = [];
    const finishes: Promise<void>[] = [];
    for (let i = 1; i <= 5; i++) {
      archive.onExchange(exchange(i));
      const p = archive.finish(String(i), `http://a.example/doc/${i}`, { outcome: 'recorded', seq: i });
      finishes.push(p);
      waits.push(!(await settledNow(p)));
    }
    expect(waits).toEqual([false, false, false, true, true]); // the 4th and 5th wait for their own write
    expect(archive.pending).toBe(5); // nothing written yet: that happens on the next turn of the event loop
    await Promise.all(finishes);
    expect(archive.pending).toBe(0);
    archive.onExchange(exchange(6));
    void archive.finish('6', 'http://a.example/doc/6', { outcome: 'recorded', seq: 6 });
    await archive.close();
    const seqs: number[] = [];
    for await (const item of readArchive([file])) if (item.kind === 'fetch') seqs.push((item.meta as { seq: number }).seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('records a fetch whose records cannot be built as the archive\'s error, without ending the process; later fetches still wait for nothing', async () => {
    const file = join(tmp, 'unbuildable.warc.gz');
    const archive = new FetchArchive(await WarcWriter.open({ target: file }));
    archive.onExchange(exchange(1));
    // JSON cannot hold a BigInt: building the metadata record throws inside the archive's setImmediate
    await archive.finish('1', 'http://a.example/doc/1', { outcome: 'recorded', size: 1n });
    await new Promise((resolve) => setImmediate(resolve));
    expect(archive.pending).toBe(0);
    expect(archive.error).toMatchObject({ code: 'RDFSCOUT_WARC_FAILED' });
    expect(archive.error?.message).toContain('http://a.example/doc/1');
    await archive.close();
  });
});
