// CrawlGraphView over a real store: quads per record, lookups by document and redirect hop, malformed records.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageRecordWrite } from '../../src/crawl-log/record-store.ts';
import { CrawlGraphView } from '../../src/crawl-log/crawl-graph-view.ts';
import { CRAWL_TERMS, recordToQuads } from '../../src/crawl-log/crawl-vocab.ts';
import type { CrawlState } from '../../src/state/open-state.ts';
import { tempState } from '../frontier/helpers.ts';
import { EX, makeRecord } from '../sparql/fixture.ts';

let state: CrawlState;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ state, dispose } = await tempState());
});
afterEach(() => dispose());

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('CrawlGraphView', () => {
  it('gives recordToQuads of every record; a document or hop reads only its own records', async () => {
    const records = [
      makeRecord({ seq: 1, url: `${EX}a`, finalUrl: `${EX}a` }),
      makeRecord({ seq: 2, url: `${EX}old`, finalUrl: `${EX}b`, redirects: [{ from: `${EX}old`, to: `${EX}b`, status: 301 }] }),
      makeRecord({ seq: 3, url: `${EX}b2`, finalUrl: `${EX}b`, status: 404, outcome: 'http-error' }), // a second fetch of b
    ];
    const txn = state.txn();
    for (const r of records) stageRecordWrite(state, txn, r);
    await txn.commit();
    const view = new CrawlGraphView(state);
    const df = state.dataFactory;
    const all = await collect(view.match());
    expect(all).toHaveLength(records.flatMap((r) => recordToQuads(r, df)).length);
    const aboutB = await collect(view.match(df.namedNode(`${EX}b`), df.namedNode(CRAWL_TERMS.status)));
    expect(aboutB.map((q) => q.object.value).sort()).toEqual(['200', '404']);
    expect(await view.count(df.namedNode(`${EX}b`), df.namedNode(CRAWL_TERMS.status))).toBe(2);
    const hop = await collect(view.match(df.namedNode('urn:rdfscout:redirect:2:1'), df.namedNode(CRAWL_TERMS.redirectFrom)));
    expect(hop.map((q) => q.object.value)).toEqual([`${EX}old`]);
    expect(await collect(view.match(df.namedNode('urn:rdfscout:redirect:9:1')))).toEqual([]);
    expect(await collect(view.match(df.namedNode(`${EX}nothing`)))).toEqual([]);
    expect(await collect(view.match(df.literal('x')))).toEqual([]);
    // A pattern without a subject scans: every record's depth
    expect(await view.count(null, df.namedNode(CRAWL_TERMS.depth))).toBe(3);
  });

  it('a malformed record is a clear RDFSCOUT_STORE_FAILED, not a TypeError', async () => {
    await state.sub.records.put('000000000001', { url: 'http://x/' });
    await expect(collect(new CrawlGraphView(state).match())).rejects.toMatchObject({ code: 'RDFSCOUT_STORE_FAILED', message: expect.stringMatching(/malformed/) });
  });
});
