// The institute-like tuning profile: people several hops deep in a staff directory, FOAF
// under three URL shapes and content negotiation, most people without; through real HTTP requests to the proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELD_OUT_PROFILES, oracleCurve, type SimWeb, startSimweb, TUNING_PROFILES, type TruthRecord } from '../../src/simweb/index.ts';
import { countTriples, hrefs, proxyGet } from './helpers.ts';

const HOST = 'http://www.institute-sim.org';
const PERSON = /^\/(people\/[a-z]+-[a-z]+-\d+|~[a-z]+\d+\/|staff\/profile\?id=\d+)$/;

describe('institute-like (tuning) over HTTP', () => {
  let web: SimWeb;
  let truth: TruthRecord[];
  const path = (r: TruthRecord) => r.url.slice(HOST.length);
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'institute-like', seed: 2, scale: 0.2 });
    truth = web.truth();
  });
  afterAll(() => web?.close());

  it('is a tuning profile', () => {
    expect(TUNING_PROFILES).toContain('institute-like');
    expect(HELD_OUT_PROFILES).not.toContain('institute-like');
  });

  it('reaches people only through the directory: faculty → department → lists and groups, an A–Z index, modules', async () => {
    const people = truth.filter((r) => PERSON.test(path(r)));
    expect(people.length).toBeGreaterThan(100);
    // Nobody is linked from the start page or a section page: two hops at least, most three or more.
    expect(Math.min(...people.map((r) => r.depth))).toBeGreaterThanOrEqual(3);
    const az = truth.find((r) => /^\/staff\/a-z\/[a-z]$/.test(path(r))) as TruthRecord;
    expect(hrefs((await proxyGet(web.proxyUrl, az.url)).body.toString()).filter((h) => PERSON.test(h)).length).toBeGreaterThan(0);
    const members = truth.find((r) => /^\/research\/groups\/[^/]+\/members$/.test(path(r))) as TruthRecord;
    expect(members.depth).toBeGreaterThanOrEqual(4);
    const staffList = truth.find((r) => /^\/research\/faculties\/[^/]+\/[^/]+\/staff$/.test(path(r))) as TruthRecord;
    expect(hrefs((await proxyGet(web.proxyUrl, staffList.url)).body.toString()).some((h) => PERSON.test(h))).toBe(true);
  });

  it('serves FOAF under three URL shapes (CMS, home page, legacy format badge) to fewer than half of the people', async () => {
    const people = truth.filter((r) => PERSON.test(path(r)));
    const parents = people.filter((r) => r.label === 'HR');
    expect(parents.length).toBeGreaterThan(people.length * 0.15);
    expect(parents.length).toBeLessThan(people.length * 0.5);
    const shapes: Array<[RegExp, string, string]> = [
      [/^\/people\/[^/]+\/foaf\.rdf$/, 'rdfxml', 'application/rdf+xml'],
      [/^\/~[a-z0-9]+\/card\.ttl$/, 'turtle', 'text/turtle'],
      [/^\/staff\/profile\?id=\d+&format=rdf$/, 'rdfxml', 'application/rdf+xml'],
    ];
    for (const [re, format, type] of shapes) {
      const doc = truth.find((r) => r.label === 'R' && r.status === 200 && re.test(path(r))) as TruthRecord;
      expect(doc, String(re)).toBeDefined();
      const got = await proxyGet(web.proxyUrl, doc.url, type);
      expect(got.status).toBe(200);
      expect(await countTriples(got.body.toString(), format, doc.url)).toBe(doc.triples);
    }
    // The legacy badge's neighbour: a vCard under the same URL template, not RDF.
    const vcf = truth.find((r) => /&format=vcf$/.test(r.url)) as TruthRecord;
    expect(vcf.label).toBe('N');
  });

  it('negotiates some people URIs: 303 to RDF, or to the person page for HTML', async () => {
    const uri = truth.find((r) => /^\/id\/person\/\d+$/.test(path(r))) as TruthRecord;
    expect(uri.status).toBe(303);
    expect(uri.label).toBe('R');
    const rdf = await proxyGet(web.proxyUrl, uri.url, 'application/rdf+xml');
    expect(rdf.status).toBe(303);
    expect(rdf.headers.location).toMatch(/\/id\/person\/\d+\.rdf$/);
    const html = await proxyGet(web.proxyUrl, uri.url, 'text/html');
    expect(String(html.headers.location)).toMatch(/\/people\/[a-z]+-[a-z]+-\d+$/);
  });

  it('gives every person a barren publications list', () => {
    const lists = truth.filter((r) => /^\/(people\/[^/]+\/publications|~[a-z0-9]+\/papers\.html|staff\/publications\?id=\d+)$/.test(path(r)));
    expect(lists.length).toBe(truth.filter((r) => PERSON.test(path(r))).length);
    expect(lists.every((r) => r.label === 'H')).toBe(true);
  });

  it('lets the oracle reach every RDF document with fewer fetches than the site has documents', () => {
    const rdf = truth.filter((r) => r.label === 'R' && r.status === 200 && r.depth >= 0 && !r.disallowed).length;
    const curve = oracleCurve(web, 4 * truth.length);
    const k = curve.indexOf(rdf);
    expect(k).toBeGreaterThan(rdf);
    expect(k).toBeLessThan(truth.length / 2);
  });
});
