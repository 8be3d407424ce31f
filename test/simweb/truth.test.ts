// Ground truth agrees with what the server serves: labels, triple counts, depths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimWeb, startSimweb, type TruthRecord } from '../../src/simweb/index.ts';
import { countTriples, hrefs, proxyGet } from './helpers.ts';

describe('simweb ground truth', () => {
  let web: SimWeb;
  let truth: TruthRecord[];
  let byUrl: Map<string, TruthRecord>;
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'mixed', seed: 5, scale: 0.04 });
    truth = web.truth();
    byUrl = new Map(truth.map((r) => [r.url, r]));
  });
  afterAll(() => web?.close());

  it('labels every HTML page HR exactly when it links at least one R (thesis §2)', () => {
    let hr = 0;
    for (const rec of truth.filter((r) => r.status === 200 && (r.label === 'HR' || r.label === 'H'))) {
      const linksR = web.links(rec.url).some((u) => byUrl.get(u)?.label === 'R');
      expect(linksR, rec.url).toBe(rec.label === 'HR');
      if (rec.label === 'HR') hr++;
    }
    expect(hr).toBeGreaterThan(50);
  });

  it('serves HTML whose links are exactly the link graph', async () => {
    const pages = truth.filter((r) => r.status === 200 && r.label === 'HR').filter((_, i) => i % 25 === 0);
    for (const rec of pages) {
      const html = (await proxyGet(web.proxyUrl, rec.url)).body.toString();
      const served = [...new Set(hrefs(html).map((h) => new URL(h, rec.url).href))].sort();
      expect(served, rec.url).toEqual([...new Set(web.links(rec.url))].sort());
    }
  });

  it('records the triple count a real parser finds, for a sample of R documents', async () => {
    const rdf = truth.filter((r) => r.label === 'R' && r.status === 200);
    const formats = new Set(rdf.map((r) => r.format));
    expect([...formats].sort()).toEqual(['jsonld', 'ntriples', 'rdfxml', 'turtle']);
    const sample = [...formats].flatMap((f) => rdf.filter((r) => r.format === f).slice(0, 8));
    for (const rec of sample) {
      const got = await proxyGet(web.proxyUrl, rec.url, 'application/rdf+xml');
      expect(got.status).toBe(200);
      expect(await countTriples(got.body.toString(), rec.format as string, rec.url), rec.url).toBe(rec.triples);
    }
  });

  it('gives depths equal to a BFS from each start page over the served links', () => {
    for (const site of web.sites) {
      const depth = new Map<string, number>([[site.startUrl, 0]]);
      const queue = [site.startUrl];
      for (let i = 0; i < queue.length; i++) {
        const url = queue[i] as string;
        const rec = byUrl.get(url);
        if (!rec || !(rec.status === 200 || (rec.status >= 300 && rec.status < 400))) continue;
        for (const next of web.links(url)) {
          if (!byUrl.has(next) || depth.has(next)) continue;
          depth.set(next, (depth.get(url) as number) + 1);
          queue.push(next);
        }
      }
      for (const rec of truth.filter((r) => r.host === site.host)) expect(rec.depth, rec.url).toBe(depth.get(rec.url) ?? -1);
    }
  });

  it('gives redirects the label of their target, and every redirect target a record', () => {
    for (const rec of truth.filter((r) => r.redirectTo)) {
      const target = byUrl.get(rec.redirectTo as string) as TruthRecord;
      expect(target).toBeDefined();
      if (target.status === 200) expect(rec.label).toBe(target.label);
    }
  });
});
