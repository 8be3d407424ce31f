// BeeBot's link tables as the dashboard serves them (real LevelDB): filters by site, kind and anchor text, and CSV.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageLinkTables } from '../../src/beebot/index.ts';
import { linkKind } from '../../src/dashboard/index.ts';
import { readLinkTable } from '../../src/dashboard/link-table-api.ts';
import { pldOf } from '../../src/links/normalize-url.ts';
import type { LinkFeatures } from '../../src/links/types.ts';
import type { CrawlState } from '../../src/state/open-state.ts';
import { tempState } from '../frontier/helpers.ts';

const link = (url: string, anchor = ''): LinkFeatures => ({ url, tag: 'a', anchor, title: '', type: '', rel: '', context: `near ${anchor}` });
type Rows = { total: number; rows: Array<{ site: string; url: string; kind: string; anchor: string }> };

describe('dashboard link tables', () => {
  let state: CrawlState;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ state, dispose } = await tempState());
    const txn = state.txn();
    for (const site of ['spbu.ru', 'zin.ru']) {
      stageLinkTables(state, txn, { url: `http://www.${site}/`, site, level: 0 }, [
        link(`http://www.${site}/staff`),
        link('http://data.partner.org/people.rdf', 'People data'),
        link('http://www.partner.org/report.pdf', 'Annual report'),
        link(`http://www.other-${site}.com/`, 'Other site'),
      ], (u) => pldOf(u) === site);
    }
    await txn.commit();
  });
  afterEach(() => dispose());

  const ask = async (q: string, format: 'json' | 'csv' = 'json') => readLinkTable(state, new URLSearchParams(q), format);

  it('filters the external table by site, kind and anchor', async () => {
    const all = JSON.parse((await ask('table=external')).body) as Rows;
    expect(all.total).toBe(6);
    const zin = JSON.parse((await ask('site=zin.ru')).body) as Rows;
    expect(zin.rows.map((r) => r.url).sort()).toEqual(['http://data.partner.org/people.rdf', 'http://www.other-zin.ru.com/', 'http://www.partner.org/report.pdf']);
    const rdf = JSON.parse((await ask('kind=rdf')).body) as Rows;
    expect(rdf.rows.map((r) => `${r.site} ${r.url}`)).toEqual(['spbu.ru http://data.partner.org/people.rdf', 'zin.ru http://data.partner.org/people.rdf']);
    const other = JSON.parse((await ask('kind=other&anchor=REPORT&site=spbu.ru')).body) as Rows;
    expect(other.rows.map((r) => r.url)).toEqual(['http://www.partner.org/report.pdf']);
    const html = JSON.parse((await ask('kind=html')).body) as Rows;
    expect(html.total).toBe(2);
  });

  it('writes CSV with every matching row; bad filters are a 400 with a message', async () => {
    const csv = await ask('table=internal', 'csv');
    expect(csv.type).toMatch(/text\/csv/);
    expect(csv.body.trim().split('\n')).toEqual([
      'site,url,page,level,processed,reason',
      'spbu.ru,http://www.spbu.ru/staff,http://www.spbu.ru/,0,false,queued (budget or stop came first)',
      'zin.ru,http://www.zin.ru/staff,http://www.zin.ru/,0,false,queued (budget or stop came first)',
    ]);
    const bad = await ask('kind=pdf');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/kind must be rdf, html or other/);
    expect((await ask('table=bad')).status).toBe(400);
  });

  it('sorts links by extension', () => {
    expect(['http://a.org/x.ttl', 'http://a.org/', 'http://a.org/p.php?id=1', 'http://a.org/f.pdf', 'nonsense'].map(linkKind)).toEqual(['rdf', 'html', 'html', 'other', 'other']);
  });
});
