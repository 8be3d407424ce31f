// The held-out profiles: each one's defining behaviour, through real HTTP requests to the proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELD_OUT_PROFILES, META_PROFILES, PROFILES, SCHEDULING_PROFILES, type SimWeb, startSimweb, TUNING_PROFILES, type TruthRecord } from '../../src/simweb/index.ts';
import { countTriples, followChain, hrefs, proxyGet } from './helpers.ts';

const RDF_ACCEPT = 'application/rdf+xml, text/turtle;q=0.9, text/html;q=0.5';
const HTML_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8';

describe('tuning / held-out split', () => {
  it('puts every profile in exactly one of the sets (tuning, held-out, scheduling)', () => {
    const all = [...TUNING_PROFILES, ...HELD_OUT_PROFILES, ...SCHEDULING_PROFILES];
    expect(new Set(all).size).toBe(all.length);
    expect([...PROFILES.keys()].sort()).toEqual([...all].sort());
    expect(HELD_OUT_PROFILES.length).toBeGreaterThanOrEqual(4);
    expect(META_PROFILES['held-out']).toEqual(HELD_OUT_PROFILES);
  });
});

describe('held-out simweb profiles over HTTP', () => {
  let web: SimWeb;
  let truth: TruthRecord[];
  const ofHost = (part: string): TruthRecord[] => truth.filter((r) => r.host.includes(part));
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'held-out', seed: 5, scale: 0.2 });
    truth = web.truth();
  });
  afterAll(() => web?.close());

  it('ckan-like: DCAT exports by ?format= behind format badges; download buttons known only by their classes', async () => {
    const exports = ofHost('ckan').filter((r) => r.label === 'R' && /\/export\?format=(rdf|ttl)$/.test(r.url));
    expect(exports.length).toBeGreaterThan(5);
    const dataset = exports[0]?.url.replace(/\/export\?format=.*$/, '') as string;
    const page = (await proxyGet(web.proxyUrl, dataset)).body.toString();
    expect(page).toMatch(/<span class="format-label" data-format="rdf">RDF<\/span>/);
    const resource = ofHost('ckan').find((r) => r.label === 'HR' && /\/resource\/[^/]+$/.test(r.url)) as TruthRecord;
    const html = (await proxyGet(web.proxyUrl, resource.url)).body.toString();
    expect(html).toMatch(/<a class="btn btn-primary resource-url" href="[^"]*\/download\/data\.(ttl|rdf)">Go to resource<\/a>/);
    const file = ofHost('ckan').find((r) => r.label === 'R' && r.url.endsWith('/data.rdf')) as TruthRecord;
    expect(file.contentType).toBe('application/octet-stream');
    const got = await proxyGet(web.proxyUrl, file.url, RDF_ACCEPT);
    expect(await countTriples(got.body.toString(), 'rdfxml', file.url)).toBe(file.triples);
  });

  it('museum-like: JSON-LD in object pages, Turtle alternates, RDF/XML served as application/xml', async () => {
    const objects = ofHost('museum').filter((r) => /\/collection\/object\/\d+$/.test(r.url));
    expect(objects.every((r) => r.embedded === 'jsonld')).toBe(true);
    const xml = ofHost('museum').find((r) => r.label === 'R' && r.url.endsWith('/rdf.xml')) as TruthRecord;
    expect(xml.contentType).toBe('application/xml');
    const got = await proxyGet(web.proxyUrl, xml.url, RDF_ACCEPT);
    expect(got.headers['content-type']).toBe('application/xml');
    expect(await countTriples(got.body.toString(), 'rdfxml', xml.url)).toBe(xml.triples);
    const ttl = ofHost('museum').find((r) => r.label === 'R' && r.url.endsWith('.ttl')) as TruthRecord;
    const page = (await proxyGet(web.proxyUrl, ttl.url.replace(/\.ttl$/, ''))).body.toString();
    expect(page).toContain(`<link rel="alternate" type="text/turtle" href="${new URL(ttl.url).pathname}">`);
    expect(page).toContain('<script type="application/ld+json">');
  });

  it('university-like: FOAF files under people pages, and a calendar that never ends', async () => {
    const foaf = ofHost('univ').filter((r) => r.label === 'R');
    expect(foaf.every((r) => /\/(people\/|~)[^/]+\/(foaf\.rdf|card\.ttl)$/.test(r.url))).toBe(true);
    const card = foaf.find((r) => r.url.endsWith('/card.ttl')) as TruthRecord;
    const person = (await proxyGet(web.proxyUrl, card.url.replace(/\/card\.ttl$/, ''))).body.toString();
    expect(person).toMatch(/<a href="[^"]*card\.ttl">Personal profile<\/a>/);
    const far = await proxyGet(web.proxyUrl, 'http://www.univ-sim.edu/events/calendar?month=2099-01');
    expect(far.status).toBe(200);
    expect(hrefs(far.body.toString())).toContain('/events/calendar?month=2099-02');
  });

  it('ontology-like: term URIs answer 303 to Turtle, or to HTML when HTML is preferred; terms are listed on HTML only', async () => {
    const term = ofHost('onto').find((r) => r.status === 303 && /\/ns\/[^/]+\/[A-Z]/.test(r.url)) as TruthRecord;
    const rdf = await followChain(web.proxyUrl, term.url, RDF_ACCEPT);
    expect(rdf.map((h) => h.status)).toEqual([303, 200]);
    expect(rdf[1]?.headers['content-type']).toBe('text/turtle');
    const html = await followChain(web.proxyUrl, term.url, HTML_ACCEPT);
    expect(html[1]?.url).toMatch(/\.html$/);
    const vocabHtml = term.redirectToHtml?.replace(/\/[^/]+$/, '.html') as string;
    const links = hrefs((await proxyGet(web.proxyUrl, vocabHtml)).body.toString());
    expect(links).toContain(new URL(term.url).pathname);
    expect(links.some((h) => h.endsWith('.owl'))).toBe(true);
  });
});
