// BeeBot's tables on a real LevelDB: internal/external links by site, the site list, Not Available.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markNotAvailable, readSites, stageLinkTables, stageSites } from '../../src/beebot/index.ts';
import { parseSiteList } from '../../src/crawl/seed-list.ts';
import { pldOf } from '../../src/links/normalize-url.ts';
import type { LinkFeatures } from '../../src/links/types.ts';
import type { CrawlState } from '../../src/state/open-state.ts';
import { tempState } from '../frontier/helpers.ts';

const link = (url: string, anchor = '', context = ''): LinkFeatures => ({ url, tag: 'a', anchor, title: '', type: '', rel: '', context });

describe('link tables', () => {
  let state: CrawlState;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ state, dispose } = await tempState());
  });
  afterEach(() => dispose());

  it('splits a page’s links into internal and external rows, keyed for browsing by site', async () => {
    const txn = state.txn();
    const page = { url: 'http://www.spbu.ru/about', site: 'spbu.ru', level: 1 };
    const internal = (u: string) => pldOf(u) === 'spbu.ru';
    const counts = stageLinkTables(state, txn, page, [
      link('http://www.spbu.ru/staff'),
      link('http://library.spbu.ru/'),
      link('http://www.partner.org/x', 'Partner', 'our partner in science'),
      link('http://other.com/', 'Other'),
    ], internal);
    await txn.commit();
    expect(counts).toEqual({ internal: 2, external: 2 });
    const ext = await state.sub.extlinks.values({ gt: 'spbu.ru!', lt: 'spbu.ru!\uffff' }).all();
    expect(ext).toHaveLength(2);
    expect(ext).toContainEqual({ url: 'http://www.partner.org/x', site: 'spbu.ru', page: page.url, level: 1, anchor: 'Partner', context: 'our partner in science' });
    const int = await state.sub.links.values({ gt: 'spbu.ru!', lt: 'spbu.ru!\uffff' }).all();
    expect(int.map((r: { url: string }) => r.url).sort()).toEqual(['http://library.spbu.ru/', 'http://www.spbu.ru/staff']);
  });

  it('keeps the first (least-level) row of an internal link, and one external row per page', async () => {
    const internal = (u: string) => pldOf(u) === 'a.org';
    for (const [url, level] of [['http://a.org/', 0], ['http://a.org/deep', 3]] as const) {
      const txn = state.txn();
      stageLinkTables(state, txn, { url, site: 'a.org', level }, [link('http://a.org/x'), link('http://b.org/y', 'B')], internal);
      await txn.commit();
    }
    expect(await state.sub.links.get('a.org!http://a.org/x')).toEqual({ url: 'http://a.org/x', site: 'a.org', page: 'http://a.org/', level: 0 });
    const ext = await state.sub.extlinks.values().all();
    expect(ext.map((r: { page: string }) => r.page).sort()).toEqual(['http://a.org/', 'http://a.org/deep']);
  });

  it('writes the site list and marks a site Not Available', async () => {
    const rows = parseSiteList('1,Saint Petersburg State University,spbu,http://www.spbu.ru\n2,Polytechnic,spbstu,www.spbstu.ru\n');
    await stageSites(state, null, rows);
    expect(await markNotAvailable(state, 'spbstu')).toBe(1);
    expect(await markNotAvailable(state, 'unknown.org')).toBe(0);
    const sites = await readSites(state);
    expect(sites.map((s) => [s.number, s.site, s.available])).toEqual([
      [1, 'spbu.ru', true],
      [2, 'spbstu.ru', false],
    ]);
    const txn = state.txn();
    await stageSites(state, txn, [{ ...rows[0]!, number: 3, site: 'x.org', start: 'http://x.org/' }]);
    expect(await readSites(state)).toHaveLength(2); // staged, not written
    await txn.commit();
    expect(await readSites(state)).toHaveLength(3);
  });
});

describe('parseSiteList', () => {
  it('reads CSV rows with a header, quotes and separators', () => {
    const rows = parseSiteList('number;full name;short name;start address\n10;"Komarov Botanical Institute, RAS";binran;http://www.binran.ru/\n');
    expect(rows).toEqual([{ number: 10, name: 'Komarov Botanical Institute, RAS', shortName: 'binran', start: 'http://www.binran.ru/', site: 'binran.ru', available: true }]);
  });

  it('reads plain URLs and domains, numbering them and naming them by host', () => {
    const rows = parseSiteList('# RAS\nhttp://www.zin.ru/\n\nwww.pushkinskijdom.ru\n');
    expect(rows.map((r) => [r.number, r.name, r.shortName, r.start, r.site])).toEqual([
      [1, 'www.zin.ru', 'zin', 'http://www.zin.ru/', 'zin.ru'],
      [2, 'www.pushkinskijdom.ru', 'pushkinskijdom', 'http://www.pushkinskijdom.ru/', 'pushkinskijdom.ru'],
    ]);
  });

  it('refuses a row without an address and a repeated number', () => {
    expect(() => parseSiteList('http://a.org/\nno address here\n')).toThrow(/line 2: no URL or domain name/);
    expect(() => parseSiteList('1,A,a,http://a.org/\n1,B,b,http://b.org/\n')).toThrow(/used twice/);
  });
});
