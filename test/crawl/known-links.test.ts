// Links the frontier will ignore are planned without a label (breadth-first): `LevelFrontier.ignores` says exactly when
// `add` leaves a link as it is, and a crawl plans, records and queues the same as one that judges every link.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentAnalysis } from '../../src/crawl/analyse-document.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import { localCoordination } from '../../src/crawl/local-coordination.ts';
import { type DocumentContext, processDocument } from '../../src/crawl/process-document.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import type { FetchResult } from '../../src/fetch/types.ts';
import { LevelFrontier } from '../../src/frontier/level-frontier.ts';
import { compileScope } from '../../src/frontier/scope.ts';
import type { FrontierEntry, NewEntry } from '../../src/frontier/types.ts';
import type { LinkFeatures } from '../../src/links/types.ts';
import type { Strategy } from '../../src/relevance/types.ts';
import { createStrategy } from '../../src/strategies/index.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';
import { tempState } from '../frontier/helpers.ts';

const A = 'http://a.example';
const link = (url: string): LinkFeatures => ({ url, tag: 'a', anchor: 'data', title: '', type: '', rel: '', context: 'an rdf dump' });
const newEntry = (url: string, priority: number): NewEntry => ({ url, parent: `${A}/`, depth: 1, priority, label: 'H', rules: [], link: link(url) });

describe('LevelFrontier.ignores', () => {
  let dispose: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await dispose?.();
    dispose = null;
  });

  it('is true exactly where add() leaves a URL as it is: done, reserved, in flight, or queued at least as urgently', async () => {
    const t = await tempState();
    dispose = t.dispose;
    const f = await LevelFrontier.open(t.state);
    expect(f.ignores(`${A}/new`, 5)).toBe(false); // absent: queued
    await f.add([newEntry(`${A}/q`, 3), newEntry(`${A}/fly`, 1), newEntry(`${A}/done`, 2)]);
    expect([2, 3, 4].map((p) => f.ignores(`${A}/q`, p))).toEqual([false, true, true]); // queued at 3: only 2 upgrades
    const fly = f.next('a.example') as FrontierEntry;
    expect(fly.url).toBe(`${A}/fly`);
    expect(f.ignores(`${A}/fly`, 0)).toBe(true); // in flight: never re-prioritised
    const done = f.next('a.example') as FrontierEntry;
    const txn = t.state.txn();
    f.complete(done, txn);
    await f.add([newEntry(`${A}/pending`, 1)], txn);
    expect(f.ignores(`${A}/pending`, 0)).toBe(true); // reserved by a transaction not committed yet
    await txn.commit();
    expect(f.ignores(`${A}/done`, 0)).toBe(true);
    // What it said is what add() does: the ignored offers change nothing, the one it did not ignore is upgraded.
    const before = f.size();
    expect(await f.add([newEntry(`${A}/done`, 0), newEntry(`${A}/pending`, 0), newEntry(`${A}/fly`, 0), newEntry(`${A}/q`, 3)])).toBe(0);
    expect(f.size()).toEqual(before);
    expect(f.next('a.example')?.url).toBe(`${A}/pending`); // priority 1 before q's 3
    await f.add([newEntry(`${A}/q`, 0)]);
    expect(f.ignores(`${A}/q`, 0)).toBe(true);
  });
});

/** bfs, counting the links it labels. */
function countingBfs(): { strategy: Strategy; judged: string[] } {
  const inner = createStrategy('bfs');
  const judged: string[] = [];
  const strategy: Strategy = {
    name: inner.name,
    seedPriority: inner.seedPriority,
    judge: (l, s) => {
      judged.push(l.url);
      return inner.judge(l, s);
    },
    priorityOf: (l, s) => inner.priorityOf?.(l, s) ?? null,
    learn: (d) => inner.learn(d),
    snapshot: () => inner.snapshot(),
    restore: (s) => inner.restore(s),
  };
  return { strategy, judged };
}

describe('processDocument with the frontier’s ignores', () => {
  const entry: FrontierEntry = { url: `${A}/`, parent: null, depth: 0, priority: 0, label: null, rules: [], link: null, pld: 'a.example', host: 'a.example', seq: 1, attempts: 0, notBefore: 0 };
  const result = { kind: 'ok', url: `${A}/`, finalUrl: `${A}/`, status: 200, redirects: [], contentType: 'text/html', headers: {}, body: Buffer.from(''), charset: null } as unknown as FetchResult;
  const urls = [`${A}/x.rdf`, `${A}/seen.html`, `${A}/logo.png`, `${A}/y.ttl`, `${A}/z.html`];
  const doc = { detectedType: 'html', linkSource: 'html', links: urls.map(link), sitemaps: [], bad: [], triples: 0, partialCount: 0, error: null, errorMessage: null, recovery: null, storedAlready: false, document: null, text: '', voidPoints: { dumps: [], endpoints: [] } } as unknown as DocumentAnalysis;
  const ctx = (strategy: Strategy, extra: Partial<DocumentContext>): DocumentContext => ({
    strategy,
    options: { maxDepth: 10, stayOnSite: false, probeWellKnown: false, linkTables: false },
    scope: compileScope({ scope: 'seeds', offsiteHops: 1, include: [], exclude: [] } as unknown as Parameters<typeof compileScope>[0], new Set(['a.example'])),
    rejudge: false,
    robotsSitemaps: [],
    seq: 1,
    ms: 1,
    fetchedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  });
  const known = new Set([`${A}/x.rdf`, `${A}/seen.html`, `${A}/logo.png`]);
  const ignores = (url: string) => known.has(url);
  const planned = (p: ReturnType<typeof processDocument>) => p.enqueue.map((e) => [e.url, e.priority]);

  it('labels only the links the frontier will take, and plans the same links at the same priorities', () => {
    const all = countingBfs();
    const plain = processDocument(entry, result, doc, ctx(all.strategy, {}));
    const some = countingBfs();
    const skipping = processDocument(entry, result, doc, ctx(some.strategy, { ignores }));
    expect(planned(skipping)).toEqual(planned(plain));
    expect([...skipping.notQueued]).toEqual([...plain.notQueued]); // NF still drops the .png
    expect(plain.notQueued.get(`${A}/logo.png`)).toBe('filtered');
    expect(all.judged).toEqual(urls);
    expect(some.judged).toEqual([`${A}/logo.png`, `${A}/y.ttl`, `${A}/z.html`]); // the .png: NF, judged as before
    // The links the frontier takes keep their labels.
    const labels = (p: ReturnType<typeof processDocument>) => p.enqueue.filter((e) => !known.has(e.url)).map((e) => [e.url, e.label, e.rules]);
    expect(labels(skipping)).toEqual(labels(plain));
  });

  it('judges every link with re-judging or link tables on', () => {
    for (const extra of [{ rejudge: true }, { options: { maxDepth: 10, stayOnSite: false, probeWellKnown: false, linkTables: true } }]) {
      const c = countingBfs();
      processDocument(entry, result, doc, ctx(c.strategy, { ignores, ...extra }));
      expect(c.judged).toEqual(urls);
    }
  });
});

describe('a breadth-first crawl with and without labelling ignored links', () => {
  const folder = useTempDir({ per: 'file' });
  let site: TinySite;
  let dir: string;
  beforeAll(async () => {
    site = await startTinySite();
    dir = folder.dir;
  });
  afterAll(async () => {
    await site.close();
  });

  /** The records of a bfs crawl, without their timings. The memory frontier has no `ignores`: it labels every link. */
  async function records(backend: 'level' | 'memory'): Promise<Array<Omit<CrawlRecord, 'ms' | 'fetchedAt'>>> {
    const crawler = await Crawler.open({ out: join(dir, backend), seeds: [`${site.base}/`], strategy: 'bfs', allowPrivate: true, delayMs: 0, concurrency: 1 }, { coordination: localCoordination({ backend }) });
    try {
      await crawler.run();
      const out: Array<Omit<CrawlRecord, 'ms' | 'fetchedAt'>> = [];
      for await (const { ms: _ms, fetchedAt: _at, ...r } of readRecords(crawler.state)) out.push(r);
      return out;
    } finally {
      await crawler.close();
    }
  }

  it('records the same fetches, labels, rules and queued-link counts', async () => {
    const level = await records('level');
    expect(level.length).toBeGreaterThan(5);
    expect(level.some((r) => r.label === 'R')).toBe(true);
    expect(await records('memory')).toEqual(level);
  }, 60_000);
});
