// `rdfscout links` over a real LevelDB state filled by the BeeBot stage functions.
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { stageLinkTables, stageSites } from '../../src/beebot/index.ts';
import { parseSiteList } from '../../src/crawl/seed-list.ts';
import { LINKS_USAGE, runLinksCommand } from '../../src/commands/links.ts';
import { recordKey } from '../../src/crawl-log/record-store.ts';
import { ArgumentError } from '../../src/errors.ts';
import { pldOf } from '../../src/links/normalize-url.ts';
import type { LinkFeatures } from '../../src/links/types.ts';
import { openState } from '../../src/state/open-state.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const link = (url: string, anchor = '', context = ''): LinkFeatures => ({ url, tag: 'a', anchor, title: '', type: '', rel: '', context });

async function run(argv: string[]): Promise<string> {
  let text = '';
  const out = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  expect(await runLinksCommand(argv, out)).toBe(0);
  return text;
}

describe('rdfscout links', () => {
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    dir = folder.dir;
    const state = await openState(dir);
    await stageSites(state, null, parseSiteList('1,State University,spbu,http://www.spbu.ru/\n2,Zoological Institute,zin,http://www.zin.ru/\n'));
    const txn = state.txn();
    const internalTo = (site: string) => (u: string) => pldOf(u) === site;
    stageLinkTables(state, txn, { url: 'http://www.spbu.ru/', site: 'spbu.ru', level: 0 }, [
      link('http://www.spbu.ru/news'),
      link('http://www.spbu.ru/staff'),
      link('http://www.hermitage.ru/', 'The Hermitage', 'visit the Hermitage museum with students'),
    ], internalTo('spbu.ru'));
    stageLinkTables(state, txn, { url: 'http://www.zin.ru/links', site: 'zin.ru', level: 2 }, [
      link('http://www.gbif.org/', 'GBIF', 'biodiversity data, "global"'),
      link('http://www.zin.ru/'),
    ], internalTo('zin.ru'));
    // One record: the crawl fetched spbu's /news (so that internal link is processed).
    txn.put(state.sub.records, recordKey(1), { seq: 1, url: 'http://www.spbu.ru/news', finalUrl: 'http://www.spbu.ru/news' });
    txn.put(state.sub.badlinks, `${recordKey(1)}!0`, { href: 'javascript:void(0)', page: 'http://www.spbu.ru/news', reason: 'scheme:javascript' });
    await txn.commit();
    await state.close();
  });

  it('lists external links as JSON objects with url, site, page, level, anchor and context', async () => {
    const rows = JSON.parse(await run([dir, '--external', '--format', 'json']));
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual(expect.objectContaining({ url: 'http://www.hermitage.ru/', site: 'spbu.ru', page: 'http://www.spbu.ru/', level: 0, anchor: 'The Hermitage', context: 'visit the Hermitage museum with students' }));
  });

  it('filters by site (PLD, short name or number) and by text', async () => {
    const bySite = JSON.parse(await run([dir, '--external', '--site', 'zin.ru', '--format', 'json']));
    expect(bySite.map((r: { url: string }) => r.url)).toEqual(['http://www.gbif.org/']);
    expect(JSON.parse(await run([dir, '--external', '--site', 'spbu', '--format', 'json']))).toHaveLength(1);
    expect(JSON.parse(await run([dir, '--external', '--site', '2', '--format', 'json']))[0].site).toBe('zin.ru');
    const byText = JSON.parse(await run([dir, '--external', '--grep', 'MUSEUM', '--format', 'json']));
    expect(byText.map((r: { anchor: string }) => r.anchor)).toEqual(['The Hermitage']);
  });

  it('derives "processed" of internal links from the crawl records', async () => {
    const rows = JSON.parse(await run([dir, '--internal', '--site', 'spbu.ru', '--format', 'json']));
    const processed = Object.fromEntries(rows.map((r: { url: string; processed: boolean }) => [r.url, r.processed]));
    expect(processed).toEqual({ 'http://www.spbu.ru/news': true, 'http://www.spbu.ru/staff': false });
    const table = await run([dir, '--internal', '--site', 'spbu.ru']);
    expect(table).toMatch(/http:\/\/www\.spbu\.ru\/staff\s+http:\/\/www\.spbu\.ru\/\s+0\s+no/);
    expect(table).toContain('(2 internal links)');
  });

  it('lists bad links with their reason, and writes CSV with quoting', async () => {
    const bad = JSON.parse(await run([dir, '--bad', '--format', 'json']));
    expect(bad).toEqual([expect.objectContaining({ url: 'javascript:void(0)', site: 'spbu.ru', reason: 'scheme:javascript' })]);
    const csv = (await run([dir, '--external', '--site', 'zin.ru', '--format', 'csv'])).trim().split('\n');
    expect(csv[0]).toBe('site,url,page,level,anchor,context');
    expect(csv[1]).toBe('zin.ru,http://www.gbif.org/,http://www.zin.ru/links,2,GBIF,"biodiversity data, ""global"""');
  });

  it('asks for exactly one table', async () => {
    await expect(runLinksCommand([dir])).rejects.toThrow(ArgumentError);
    await expect(runLinksCommand([dir, '--external', '--bad'])).rejects.toThrow(/exactly one/);
    expect(LINKS_USAGE).toContain('--format table|csv|json');
  });
});
