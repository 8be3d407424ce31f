// The portal-like tuning profile: an open-data portal whose dataset pages link a few RDF exports among
// many barren links, through real HTTP requests to the proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlTemplate } from '../../src/links/url-template.ts';
import { type SimWeb, startSimweb, TUNING_PROFILES, type TruthRecord } from '../../src/simweb/index.ts';
import { countTriples, hrefs, proxyGet } from './helpers.ts';

describe('portal-like (tuning) over HTTP', () => {
  let web: SimWeb;
  let truth: TruthRecord[];
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'portal-like', seed: 3, scale: 0.1 });
    truth = web.truth();
  });
  afterAll(() => web?.close());

  it('is a tuning profile', () => {
    expect(TUNING_PROFILES).toContain('portal-like');
  });

  it('serves DCAT exports by ?format= behind format badges, JSON under the same URL template', async () => {
    const rdf = truth.filter((r) => r.label === 'R' && /\/metadata\?format=(rdf|ttl)$/.test(r.url));
    expect(rdf.length).toBeGreaterThan(5);
    const dataset = rdf[0]?.url.replace(/\/metadata\?format=.*$/, '') as string;
    const page = (await proxyGet(web.proxyUrl, dataset)).body.toString();
    expect(page).toMatch(/<span class="format-label" data-format="(rdf|ttl)">(RDF|TTL)<\/span>/);
    const json = truth.find((r) => r.url === `${dataset}/metadata?format=json`) as TruthRecord;
    expect(json.label).toBe('N');
    expect(urlTemplate(json.url)).toBe(urlTemplate(rdf[0]?.url as string));
    const got = await proxyGet(web.proxyUrl, rdf[0]?.url as string, 'application/rdf+xml, text/turtle;q=0.9');
    expect(await countTriples(got.body.toString(), rdf[0]?.url.endsWith('ttl') ? 'turtle' : 'rdfxml', rdf[0]?.url as string)).toBe(rdf[0]?.triples);
  });

  it('surrounds them with barren pages: revisions, embeds, visualisations, comments, API JSON, activity streams', async () => {
    const dataset = truth.find((r) => /\/datasets\/[^/]+$/.test(r.url) && r.depth >= 0) as TruthRecord;
    const links = hrefs((await proxyGet(web.proxyUrl, dataset.url)).body.toString());
    for (const tail of ['/revisions', '/embed', '/visualization', '/comments']) expect(links).toContain(`${new URL(dataset.url).pathname}${tail}`);
    expect(links.some((h) => /^\/api\/views\/.+\.json$/.test(h))).toBe(true);
    const barren = truth.filter((r) => /\/(revisions|embed|visualization|comments|activity)/.test(r.url));
    expect(barren.length).toBeGreaterThan(truth.filter((r) => r.label === 'R').length);
    expect(barren.every((r) => r.label !== 'R' && r.label !== 'HR')).toBe(true);
  });
});
