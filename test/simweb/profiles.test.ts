// Each profile's defining behaviour, seen through real HTTP requests to the proxy.
import { ProxyAgent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimWeb, startSimweb, type TruthRecord } from '../../src/simweb/index.ts';
import { countTriples, followChain, hrefs, proxyGet } from './helpers.ts';

const RDF_ACCEPT = 'application/rdf+xml, text/turtle;q=0.9, text/html;q=0.5';

describe('simweb profiles over HTTP', () => {
  let web: SimWeb;
  let truth: TruthRecord[];
  const ofHost = (prefix: string): TruthRecord[] => truth.filter((r) => r.host.includes(prefix));
  beforeAll(async () => {
    web = await startSimweb({ profiles: ['thesis', 'modern-like'], seed: 3, scale: 0.1 });
    truth = web.truth();
  });
  afterAll(() => web?.close());

  it('dbtune-like: a legacy 301 then a 303 to .rdf (RDF/XML), or to .html when HTML is preferred', async () => {
    const legacy = ofHost('dbtune').find((r) => r.status === 301) as TruthRecord;
    expect(legacy.url).toMatch(/\/music\//);
    const hops = await followChain(web.proxyUrl, legacy.url, RDF_ACCEPT);
    expect(hops.map((h) => h.status)).toEqual([301, 303, 200]);
    const last = hops[2] as (typeof hops)[number];
    expect(last.url).toMatch(/\.rdf$/);
    expect(last.headers['content-type']).toBe('application/rdf+xml');
    const rec = web.truthFor(last.url) as TruthRecord;
    expect(rec.label).toBe('R');
    expect(await countTriples(last.body.toString(), 'rdfxml', last.url)).toBe(rec.triples);
    const html = await followChain(web.proxyUrl, hops[1]?.url as string, 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(html.map((h) => h.status)).toEqual([303, 200]);
    expect(html[1]?.url).toMatch(/\.html$/);
    // Most dbtune resource links redirect (thesis Table 4-3: 76% of fetches).
    expect(ofHost('dbtune').filter((r) => r.status === 303).length).toBeGreaterThan(ofHost('dbtune').length / 4);
  });

  it('deri-like: FOAF files ending in .xml, served as application/xml, parse as RDF/XML', async () => {
    const foaf = ofHost('deri').filter((r) => r.label === 'R' && r.url.endsWith('.xml'));
    expect(foaf.length).toBeGreaterThan(10);
    const rec = foaf[0] as TruthRecord;
    expect(rec.url).toMatch(/\/foaf\//);
    const got = await proxyGet(web.proxyUrl, rec.url, RDF_ACCEPT);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/xml');
    expect(await countTriples(got.body.toString(), 'rdfxml', rec.url)).toBe(rec.triples);
    expect(got.body.toString()).toContain('rdf:resource="http://xmlns.com/foaf/0.1/Person"');
  });

  it('rossetti-like: RDF at depth 4 under alike depth-3 index pages', async () => {
    const site = ofHost('rossetti');
    const rdf = site.filter((r) => r.label === 'R');
    const atDepth4 = rdf.filter((r) => r.depth === 4).length;
    expect(atDepth4 / rdf.length).toBeGreaterThan(0.85);
    expect(site.filter((r) => r.depth >= 5).every((r) => r.label !== 'R')).toBe(true);
    const parents = site.filter((r) => r.label === 'HR' && r.depth === 3);
    expect(parents.length).toBeGreaterThan(20);
    // r1 shape: /docs/<id>, two segments differing only in the last.
    expect(parents.filter((p) => /^http:\/\/[^/]+\/docs\/[a-z]\d+$/.test(p.url)).length / parents.length).toBeGreaterThan(0.9);
    const page = await proxyGet(web.proxyUrl, (parents[0] as TruthRecord).url);
    const rdfLink = hrefs(page.body.toString()).find((h) => h.endsWith('.rdf')) as string;
    expect(web.truthFor(new URL(rdfLink, web.sites[3]?.startUrl).href)?.depth).toBe(4);
    expect(page.body.toString()).toContain('type="application/rdf+xml"');
  });

  it('openlylocal-like: alternates by <link rel=alternate> and anchor "RDF"; alike siblings without RDF', async () => {
    const site = ofHost('openlylocal');
    const members = site.filter((r) => /\/members\/\d+-[a-z-]+$/.test(r.url) && r.status === 200);
    const withRdf = members.filter((r) => r.label === 'HR');
    expect(withRdf.length).toBeGreaterThan(members.length * 0.3);
    expect(members.length - withRdf.length).toBeGreaterThan(members.length * 0.3);
    const got = await proxyGet(web.proxyUrl, (withRdf[0] as TruthRecord).url);
    const html = got.body.toString();
    expect(html).toMatch(/<link rel="alternate" type="application\/rdf\+xml" title="RDF" href="\/members\/\d+\.rdf">/);
    expect(html).toMatch(/<a href="\/members\/\d+\.rdf">RDF<\/a>/);
    expect(html).toMatch(/\/members\/\d+\.json/);
    const plain = await proxyGet(web.proxyUrl, (members.find((r) => r.label === 'H') as TruthRecord).url);
    expect(plain.body.toString()).not.toContain('.rdf');
  });

  it('modern-like: JSON-LD inside HTML, Turtle alternates, sitemap named in robots.txt', async () => {
    const site = ofHost('modern');
    const host = site[0]?.host as string;
    const robots = await proxyGet(web.proxyUrl, `http://${host}/robots.txt`);
    expect(robots.body.toString()).toContain(`Sitemap: http://${host}/sitemap.xml`);
    const sitemap = await proxyGet(web.proxyUrl, `http://${host}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.body.toString()).toContain('<urlset');
    const product = site.find((r) => r.embedded === 'jsonld' && r.label === 'HR') as TruthRecord;
    const html = (await proxyGet(web.proxyUrl, product.url)).body.toString();
    const script = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] as string;
    expect(await countTriples(script, 'jsonld', product.url)).toBe(product.triples);
    const ttl = /<link rel="alternate" type="(text\/turtle|application\/ld\+json)" href="([^"]+)">/.exec(html);
    expect(ttl).not.toBeNull();
    const alt = new URL(ttl?.[2] as string, product.url).href;
    const altRec = web.truthFor(alt) as TruthRecord;
    const body = (await proxyGet(web.proxyUrl, alt)).body.toString();
    expect(await countTriples(body, altRec.format as string, alt)).toBe(altRec.triples);
    expect(site.some((r) => r.embedded === 'rdfa')).toBe(true);
  });

  it('answers by Host header too, through an undici ProxyAgent, and 502 for unknown hosts', async () => {
    const start = web.sites[0]?.startUrl as string;
    const agent = new ProxyAgent({ uri: web.proxyUrl, proxyTunnel: false });
    try {
      const res = await request(start, { dispatcher: agent });
      expect(res.statusCode).toBe(200);
      expect(await res.body.text()).toContain('<!DOCTYPE html>');
    } finally {
      await agent.close();
    }
    const byHost = await request(`${web.proxyUrl}/`, { headers: { host: new URL(start).host } });
    expect(byHost.statusCode).toBe(200);
    await byHost.body.dump();
    expect((await proxyGet(web.proxyUrl, 'http://www.partner1-sim.org/x')).status).toBe(502);
    expect((await proxyGet(web.proxyUrl, `${start}no/such/page`)).status).toBe(404);
    expect(web.stats().proxyRequests).toBeGreaterThan(0);
  });

  it('has the real web’s mess: errors near 7%, robots disallows and Crawl-delay, a calendar trap', async () => {
    const errors = truth.filter((r) => r.status >= 400).length / truth.length;
    expect(errors).toBeGreaterThan(0.04);
    expect(errors).toBeLessThan(0.12);
    expect(truth.some((r) => r.disallowed)).toBe(true);
    expect(truth.some((r) => r.duplicateOf)).toBe(true);
    expect(truth.some((r) => r.label === 'N' && r.contentType === 'application/pdf')).toBe(true);
    const deri = web.sites.find((s) => s.host.includes('deri')) as { startUrl: string };
    const robots = (await proxyGet(web.proxyUrl, `${deri.startUrl}robots.txt`)).body.toString();
    expect(robots).toMatch(/Crawl-delay: /);
    expect(robots).toMatch(/Disallow: \/private\//);
    const months = truth.filter((r) => r.trap);
    const last = months[months.length - 1] as TruthRecord;
    const page = (await proxyGet(web.proxyUrl, last.url)).body.toString();
    const next = new URL(hrefs(page).find((h) => h.includes('month=') && !months.some((m) => m.url.endsWith(h))) as string, last.url).href;
    expect(web.truthFor(next)).toMatchObject({ trap: true, depth: last.depth + 1 });
    expect((await proxyGet(web.proxyUrl, next)).status).toBe(200);
  });
});
