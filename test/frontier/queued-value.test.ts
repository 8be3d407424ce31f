// The queued value: every entry LevelFrontier makes comes back from its stored form as it went in, and stores
// written before the short form (whole objects) are read and drained as before.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelFrontier } from '../../src/frontier/level-frontier.ts';
import { queueKey, sortKeyOf } from '../../src/frontier/queue-keys.ts';
import { decodeQueued, encodeQueued } from '../../src/frontier/queued-value.ts';
import type { FrontierEntry } from '../../src/frontier/types.ts';
import { hostOf, pldOf } from '../../src/links/normalize-url.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { levelTxn } from '../../src/state/txn.ts';
import { tempDir } from './helpers.ts';

function made(url: string, extra: Partial<FrontierEntry> = {}): FrontierEntry {
  return {
    url,
    parent: 'http://www.a.org/list?page=2',
    depth: 2,
    priority: 3.5,
    label: 'H',
    rules: ['an1', 'ty2'],
    link: { url, tag: 'a', anchor: 'Data dump', title: 'the "dump"', type: 'text/turtle', rel: 'alternate', context: 'words around it', domPath: 'li a.btn' },
    offsiteHops: 1,
    pld: pldOf(url),
    host: hostOf(url),
    seq: 41,
    attempts: 0,
    notBefore: 0,
    ...extra,
  };
}

/** What the store gives back: the stored value through JSON (the sublevel's encoding), decoded with its key. */
function roundTrip(e: FrontierEntry): FrontierEntry {
  const key = queueKey(e.pld, sortKeyOf(e.priority, e.seq));
  return decodeQueued(key, JSON.parse(JSON.stringify(encodeQueued(e))));
}

describe('encodeQueued / decodeQueued', () => {
  const url = 'http://Data.B.example.co.uk:8080/x/y.ttl?q=1#f';
  const cases: Array<[string, FrontierEntry]> = [
    ['every field', made(url)],
    ['no offsiteHops key', (({ offsiteHops: _, ...e }) => e)(made(url))],
    ['a link without domPath', made(url, { link: { url, tag: 'rdf', anchor: '', title: '', type: '', rel: 'http://xmlns.com/foaf/0.1/knows', context: '' } })],
    ['a seed (no parent, link, label)', made('http://seed.org/', { parent: null, link: null, label: null, rules: [], depth: 0, priority: 0 })],
    ['retried', made(url, { attempts: 2, notBefore: 1_764_400_000_123, seq: 99_001 })],
    ['only notBefore set', made(url, { notBefore: 5 })],
    ['a link of another URL', made(url, { link: { url: 'http://other.org/', tag: 'a', anchor: 'x', title: '', type: '', rel: '', context: '' } })],
    ['a negative, fractional priority', made(url, { priority: -0.125 })],
  ];
  it.each(cases)('%s comes back equal, fields in the same order', (_name, e) => {
    const back = roundTrip(e);
    expect(back).toStrictEqual(e);
    expect(Object.keys(back)).toEqual(Object.keys(e));
    if (e.link !== null && back.link !== null) expect(Object.keys(back.link)).toEqual(Object.keys(e.link));
  });

  it('is shorter than the object for a typical entry (the derivable fields and the keys are not stored)', () => {
    const e = made('http://www.binran-sim.ru/structure/project-13/summary-49.html');
    expect(JSON.stringify(encodeQueued(e)).length).toBeLessThan(0.7 * JSON.stringify(e).length);
  });

  it('stores an entry or link with a field it does not know as the object, which reads back as it was', () => {
    const odd = { ...made(url), note: 'kept' } as FrontierEntry;
    expect(encodeQueued(odd)).toBe(odd);
    expect(roundTrip(odd)).toStrictEqual(odd);
    const oddLink = made(url, { link: { ...made(url).link!, extra: 1 } as FrontierEntry['link'] });
    expect(roundTrip(oddLink)).toStrictEqual(oddLink);
    expect(Array.isArray(encodeQueued(oddLink))).toBe(true);
  });
});

describe('LevelFrontier over values of both forms', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let state: CrawlState;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    state = await openState(dir);
  });
  afterEach(async () => {
    await state.close();
    await remove();
  });

  it('a store whose queue holds whole objects (written before the short form) reopens and drains in order, each entry as written', async () => {
    let f = await LevelFrontier.open(state);
    const urls = Array.from({ length: 6 }, (_, i) => `http://www.a.org/p${i}`);
    await f.add(urls.map((u, i) => ({ url: u, parent: 'http://www.a.org/', depth: 1, priority: 6 - i, label: 'H', rules: [], link: null, offsiteHops: 0 })));
    // Rewrite half the queue's values as the objects older stores hold.
    const objects = new Map<string, FrontierEntry>();
    const rows = (await state.sub.frontier.iterator({ gte: 'q!', lt: 'q"' }).all()) as Array<[string, unknown]>;
    const t = state.txn();
    rows.forEach(([key, value], i) => {
      const e = decodeQueued(key, value);
      objects.set(e.url, e);
      if (i % 2 === 0) levelTxn(t).put(state.sub.frontier, key, e);
    });
    await t.commit();
    await state.close();
    state = await openState(dir);
    f = await LevelFrontier.open(state);
    const got: FrontierEntry[] = [];
    for (let e = f.next('a.org'); e !== null || f.loading; e = f.next('a.org')) {
      if (e === null) {
        await f.settled();
        continue;
      }
      got.push(e);
      const done = state.txn();
      f.complete(e, done);
      await done.commit();
    }
    expect(got.map((e) => e.url)).toEqual([...urls].reverse());
    for (const e of got) expect(e).toStrictEqual(objects.get(e.url));
  });
});
