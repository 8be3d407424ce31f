// The campus-like tuning profile: a university with an endless events calendar and a research-data
// repository full of traps, through real HTTP requests to the proxy, and the oracle on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlTemplate } from '../../src/links/url-template.ts';
import { buildWeb, HELD_OUT_PROFILES, oracleCurve, type SimWeb, startSimweb, truthRecords, TUNING_PROFILES, type TruthRecord } from '../../src/simweb/index.ts';
import { countTriples, hrefs, proxyGet } from './helpers.ts';

const HOST = 'http://www.campus-sim.edu';

describe('campus-like (tuning) over HTTP', () => {
  let web: SimWeb;
  let truth: TruthRecord[];
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'campus-like', seed: 2, scale: 0.2 });
    truth = web.truth();
  });
  afterAll(() => web?.close());

  it('is a tuning profile', () => {
    expect(TUNING_PROFILES).toContain('campus-like');
    expect(HELD_OUT_PROFILES).not.toContain('campus-like');
  });

  it('has an events calendar grid whose next month never ends, linked from month listings that list events', async () => {
    const list = truth.find((r) => r.url.startsWith(`${HOST}/events/list?month=`)) as TruthRecord;
    const listLinks = hrefs((await proxyGet(web.proxyUrl, list.url)).body.toString());
    expect(listLinks.some((h) => h.startsWith('/events/calendar?month='))).toBe(true);
    expect(listLinks.some((h) => /^\/events\/\d{4}\/.+-seminar-/.test(h))).toBe(true);
    // Far beyond the materialised months: still served, still a "next month" (the trap), nothing else but home.
    const far = await proxyGet(web.proxyUrl, `${HOST}/events/calendar?month=2090-05`);
    expect(far.status).toBe(200);
    expect(hrefs(far.body.toString())).toEqual(['/events/calendar?month=2090-04', '/', '/events/calendar?month=2090-06']);
    const grid = truth.filter((r) => r.url.includes('/events/calendar?month='));
    expect(grid.length).toBe(36);
    expect(grid.every((r) => r.label === 'H')).toBe(true);
  });

  it('serves FOAF for some people: in the head as RDF/XML, or as Turtle behind "Personal profile"', async () => {
    const foaf = truth.filter((r) => r.label === 'R' && r.url.startsWith(`${HOST}/people/`));
    expect(foaf.some((r) => r.url.endsWith('.rdf'))).toBe(true);
    const ttl = foaf.find((r) => r.url.endsWith('/foaf')) as TruthRecord;
    const person = ttl.url.replace(/\/foaf$/, '');
    const page = (await proxyGet(web.proxyUrl, person)).body.toString();
    expect(page).toContain('>Personal profile</a>');
    const got = await proxyGet(web.proxyUrl, ttl.url, 'text/turtle');
    expect(await countTriples(got.body.toString(), 'turtle', ttl.url)).toBe(ttl.triples);
    // Publications pages share the FOAF link's URL template (/people/{x}/{x}) and hold no RDF.
    const pubs = truth.find((r) => r.url === `${person}/publications`) as TruthRecord;
    expect(urlTemplate(pubs.url)).toBe(urlTemplate(ttl.url));
    expect(pubs.label).not.toBe('R');
  });

  it('surrounds DCAT exports with barren traps: extension-less JSON API records, activity, history, ?tab=/?lang= duplicates', async () => {
    const rdf = truth.find((r) => r.label === 'R' && /\/data\/dataset\/[^/]+\.rdf$/.test(r.url)) as TruthRecord;
    const dataset = rdf.url.replace(/\.rdf$/, '');
    const html = (await proxyGet(web.proxyUrl, dataset)).body.toString();
    expect(html).toContain(`<link rel="alternate" type="application/rdf+xml" title="RDF" href="${new URL(rdf.url).pathname}">`);
    const links = hrefs(html);
    const slug = dataset.split('/').pop() as string;
    expect(links).toContain(`/data/api/action/dataset?id=${slug}`);
    const api = await proxyGet(web.proxyUrl, `${HOST}/data/api/action/dataset?id=${slug}`);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    for (const tail of ['/activity', '/history']) expect(links).toContain(`/data/dataset/${slug}${tail}`);
    const alias = truth.find((r) => r.url.startsWith(`${dataset}?`));
    if (alias !== undefined) {
      // A duplicate: the same links as the dataset page, under another URL.
      expect(hrefs((await proxyGet(web.proxyUrl, alias.url)).body.toString())).toEqual(links);
    }
    const barren = truth.filter((r) => /\/(activity|history)(\?.*|\/.*)?$|\/api\/action\//.test(new URL(r.url).pathname + new URL(r.url).search));
    expect(barren.length).toBeGreaterThan(truth.filter((r) => r.label === 'R' && r.url.includes('/data/')).length);
    expect(barren.every((r) => r.label !== 'R' && r.label !== 'HR')).toBe(true);
  });

  it('hides some RDF files behind "Go to resource" buttons, some served as application/octet-stream', async () => {
    const files = truth.filter((r) => r.label === 'R' && r.url.includes('/resource/'));
    expect(files.some((r) => r.contentType === 'text/turtle')).toBe(true);
    expect(files.some((r) => r.contentType === 'application/octet-stream')).toBe(true);
    const file = files[0] as TruthRecord;
    const resource = file.url.replace(/\/download\/.*$/, '');
    const html = (await proxyGet(web.proxyUrl, resource)).body.toString();
    expect(html).toContain(`<a class="btn btn-primary resource-url" href="${new URL(file.url).pathname}">Go to resource</a>`);
  });

  it('lets the oracle reach every RDF document without walking the endless calendar', () => {
    const rdf = truth.filter((r) => r.label === 'R' && r.status === 200 && r.depth >= 0 && !r.disallowed).length;
    const curve = oracleCurve(web, 4 * truth.length);
    const k = curve.indexOf(rdf);
    expect(k).toBeGreaterThan(0);
    // The oracle needs far fewer fetches than the site has documents: it skips the calendar, news and barren pages.
    expect(k).toBeLessThan(truth.length / 2);
  });
});

describe('campus-like builds at every seed', () => {
  it('gives a resource API URL the dataset when two datasets draw the same resource id (seed 4, scale 0.5: was a duplicate path)', () => {
    for (const [seed, scale] of [[4, 0.5], [7, 0.5], [5, 1]] as const) {
      const web = buildWeb({ profiles: 'campus-like', seed, scale });
      const apis = [...truthRecords(web)].filter((r) => r.url.includes('/data/api/action/resource?id='));
      expect(apis.some((r) => r.url.includes('&dataset=')), `seed ${seed} scale ${scale}`).toBe(true);
      expect(new Set(apis.map((r) => r.url)).size).toBe(apis.length);
    }
  });
});
