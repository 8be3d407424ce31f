// opendata-like and solid-like (written blind in session 8): determinism, RDF that parses, truth that
// agrees with the served graph and the oracle, no broken links but the intended ones, and each profile's own traits.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  breadthFirstCurve,
  buildWeb,
  HELD_OUT_PROFILES,
  oracleCurve,
  respond,
  type SimWeb,
  startSimweb,
  TUNING_PROFILES,
  type TruthRecord,
  truthLines,
} from '../../src/simweb/index.ts';
import { countTriples, followChain, hrefs, proxyGet } from './helpers.ts';

const RDF_ACCEPT = 'text/turtle, application/rdf+xml;q=0.9, application/ld+json;q=0.8, text/html;q=0.5';
const HTML_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8';
const SCALE = 0.2;

/** Errors the profile means: addNoise's broken links and server errors, and (solid-like) 401s of access control. */
const INTENDED_ERRORS: Record<string, (path: string, status: number) => boolean> = {
  'opendata-like': () => false,
  'solid-like': (path, status) => status === 401 && (/^\/[a-z0-9]+\/$/.test(path) || /\/\.acl$/.test(path) || /^\/[a-z0-9]+\/(private|settings|inbox)\/$/.test(path)),
};
const isNoiseError = (path: string): boolean => /\/old-\d+$/.test(path) || /^\/cgi-bin\/search\?q=\d+$/.test(path);

function digest(lines: Iterable<string>): string {
  const h = createHash('sha256');
  for (const l of lines) h.update(`${l}\n`);
  return h.digest('hex');
}

it('registers both profiles as held out, not as tuning', () => {
  for (const p of ['opendata-like', 'solid-like']) {
    expect(HELD_OUT_PROFILES).toContain(p);
    expect(TUNING_PROFILES).not.toContain(p);
  }
});

describe.each(['opendata-like', 'solid-like'])('%s', (profile) => {
  let web: SimWeb;
  let truth: TruthRecord[];
  let byUrl: Map<string, TruthRecord>;
  const pathOf = (url: string): string => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };
  beforeAll(async () => {
    web = await startSimweb({ profiles: profile, seed: 7, scale: SCALE });
    truth = web.truth();
    byUrl = new Map(truth.map((r) => [r.url, r]));
  });
  afterAll(() => web?.close());

  it('is deterministic by seed (graph and bodies), and another seed gives another site', () => {
    const again = buildWeb({ profiles: profile, seed: 7, scale: SCALE });
    const other = buildWeb({ profiles: profile, seed: 8, scale: SCALE });
    expect(digest(truthLines(again))).toBe(digest(truthLines(web.model)));
    expect(digest(truthLines(other))).not.toBe(digest(truthLines(web.model)));
    const sample = truth.filter((_, i) => i % 37 === 0).map((r) => r.url);
    for (const url of sample) {
      const [a, b] = [respond(web.model, url, RDF_ACCEPT), respond(again, url, RDF_ACCEPT)];
      expect(a.status, url).toBe(b.status);
      expect(a.body.equals(b.body), url).toBe(true);
    }
  });

  it('scales: three times the size at scale 3 × 0.2 as at 0.2, every document reachable', () => {
    const big = buildWeb({ profiles: profile, seed: 7, scale: SCALE * 3 });
    const ratio = (big.sites[0]?.docs.length ?? 0) / truth.length;
    expect(ratio).toBeGreaterThan(2.4);
    expect(ratio).toBeLessThan(3.6);
    expect(truth.every((r) => r.depth >= 0)).toBe(true);
  });

  it('renders every R document so that a real parser finds the triples its truth records', async () => {
    const rdf = truth.filter((r) => r.label === 'R' && r.status === 200);
    expect(rdf.length).toBeGreaterThan(100);
    for (const rec of rdf) {
      const res = respond(web.model, rec.url, RDF_ACCEPT);
      expect(res.headers['content-type'], rec.url).toBe(rec.contentType);
      expect(await countTriples(res.body.toString(), rec.format as string, rec.url), rec.url).toBe(rec.triples);
    }
  });

  it('serves R documents over HTTP (a sample of each format and content type) as the truth says', async () => {
    const rdf = truth.filter((r) => r.label === 'R' && r.status === 200);
    const kinds = new Map<string, TruthRecord[]>();
    for (const r of rdf) kinds.set(`${r.format} ${r.contentType}`, [...(kinds.get(`${r.format} ${r.contentType}`) ?? []), r]);
    const sample = [...kinds.values()].flatMap((rs) => rs.filter((_, i) => i % Math.max(1, Math.floor(rs.length / 6)) === 0));
    expect(sample.length).toBeGreaterThan(20);
    for (const rec of sample) {
      const got = await proxyGet(web.proxyUrl, rec.url, RDF_ACCEPT);
      expect(got.status, rec.url).toBe(200);
      expect(got.headers['content-type'], rec.url).toBe(rec.contentType);
      expect(await countTriples(got.body.toString(), rec.format as string, rec.url), rec.url).toBe(rec.triples);
    }
  });

  it('labels pages HR exactly when they link an R document, and serves the links the truth has', async () => {
    const pages = truth.filter((r) => r.status === 200 && (r.label === 'H' || r.label === 'HR'));
    for (const rec of pages) expect(web.links(rec.url).some((u) => byUrl.get(u)?.label === 'R'), rec.url).toBe(rec.label === 'HR');
    expect(pages.filter((r) => r.label === 'HR').length).toBeGreaterThan(30);
    expect(pages.filter((r) => r.label === 'H').length).toBeGreaterThan(10);
    for (const rec of pages.filter((_, i) => i % 20 === 0)) {
      const html = (await proxyGet(web.proxyUrl, rec.url)).body.toString();
      const served = [...new Set(hrefs(html).map((h) => new URL(h, rec.url).href))].sort();
      expect(served, rec.url).toEqual([...new Set(web.links(rec.url))].sort());
    }
  });

  it('has no broken links but addNoise’s and the intended ones; every link inside the site has a truth record', () => {
    const host = web.sites[0]?.host as string;
    let external = 0;
    for (const rec of truth.filter((r) => r.status === 200 && (r.label === 'H' || r.label === 'HR'))) {
      for (const url of web.links(rec.url)) {
        if (new URL(url).host === host) expect(byUrl.has(url), `${rec.url} → ${url}`).toBe(true);
        else external++;
      }
    }
    expect(external).toBeGreaterThan(0);
    const errors = truth.filter((r) => r.status >= 400);
    const unintended = errors.filter((r) => !isNoiseError(pathOf(r.url)) && !INTENDED_ERRORS[profile]?.(pathOf(r.url), r.status));
    expect(unintended.map((r) => `${r.status} ${r.url}`)).toEqual([]);
    // addNoise's share of errors (≈ 5%), plus solid-like's 401s.
    const noise = errors.filter((r) => isNoiseError(pathOf(r.url))).length / truth.length;
    expect(noise).toBeGreaterThan(0.02);
    expect(noise).toBeLessThan(0.08);
  });

  it('lets the oracle and breadth-first reach every RDF document; the oracle is ahead at every budget', () => {
    const reachable = truth.filter((r) => r.label === 'R' && r.status === 200 && !r.disallowed).length;
    const maxK = truth.length + 10;
    const oracle = oracleCurve(web, maxK, { htmlVariants: true });
    const bfs = breadthFirstCurve(web, maxK, { htmlVariants: true });
    expect(oracle[maxK]).toBe(reachable);
    expect(bfs[maxK]).toBe(reachable);
    for (let k = 0; k <= maxK; k += 25) {
      expect(oracle[k] as number, `k=${k}`).toBeGreaterThanOrEqual(bfs[k] as number);
      expect(oracle[k] as number).toBeLessThanOrEqual(k);
    }
    // Neither trivial nor hopeless: at a budget of a third of the site, breadth-first has some but far from all.
    const k = Math.round(truth.length / 3);
    expect(bfs[k] as number).toBeGreaterThan(0);
    expect(bfs[k] as number).toBeLessThan(oracle[k] as number);
  });
});

describe('opendata-like traits', () => {
  const web = buildWeb({ profiles: 'opendata-like', seed: 3, scale: 0.5 });
  const site = web.sites[0] as NonNullable<(typeof web.sites)[number]>;
  const docs = site.docs;

  it('is mostly non-RDF: few of the links, many near-duplicate listings', () => {
    let links = 0;
    let rdfLinks = 0;
    for (const d of docs) {
      if (d.kind !== 'html' || d.status !== 200) continue;
      for (const l of d.links) {
        links++;
        if (docs[Math.floor(l / 16)]?.label === 'R') rdfLinks++;
      }
    }
    expect(rdfLinks / links).toBeGreaterThan(0.01);
    expect(rdfLinks / links).toBeLessThan(0.08);
    const listings = docs.filter((d) => d.path.startsWith('/browse')).length;
    const landings = docs.filter((d) => /^\/[a-z-]+\/[a-z0-9-]+\/[a-z0-9]{4}-[a-z0-9]{4}$/.test(d.path)).length;
    expect(listings).toBeGreaterThan(landings);
    expect(docs.some((d) => /^\/browse\?category=[a-z-]+&tags=/.test(d.path))).toBe(true);
    expect(docs.some((d) => /sortby=alpha&page=2$/.test(d.path))).toBe(true);
  });

  it('offers DCAT per dataset in three serialisations, some under generic types, and a dump as application/xml', () => {
    const dcat = docs.filter((d) => d.path.startsWith('/api/dcat/'));
    const types = new Set(dcat.map((d) => `${d.format} ${d.contentType}`));
    expect(types).toEqual(new Set(['rdfxml application/rdf+xml', 'turtle text/turtle', 'turtle text/plain; charset=utf-8', 'jsonld application/json']));
    const dump = docs[site.byPath.get('/catalog.xml') as number];
    expect(dump).toMatchObject({ kind: 'rdf', format: 'rdfxml', contentType: 'application/xml' });
    expect(docs.some((d) => d.kind === 'rdf' && d.contentType === 'application/octet-stream' && d.path.startsWith('/download/'))).toBe(true);
    expect(docs.some((d) => d.kind === 'rdf' && /\/rows\.rdf$/.test(d.path))).toBe(true);
  });

  it('answers the short dataset URL /d/<id> with a 301 to the landing page', async () => {
    const w = await startSimweb({ profiles: 'opendata-like', seed: 3, scale: 0.2 });
    try {
      const short = w.truth().find((r) => /\/d\/[a-z0-9]{4}-[a-z0-9]{4}$/.test(r.url)) as TruthRecord;
      const hops = await followChain(w.proxyUrl, short.url, HTML_ACCEPT);
      expect(hops.map((h) => h.status)).toEqual([301, 200]);
      const landing = hops[1]?.body.toString() ?? '';
      expect(landing).toMatch(/<link rel="alternate" type="application\/rdf\+xml" title="RDF" href="\/api\/dcat\/[a-z0-9-]+\.rdf">|data-format="csv"/);
    } finally {
      await w.close();
    }
  });
});

describe('solid-like traits', () => {
  let web: SimWeb;
  let truth: TruthRecord[];
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'solid-like', seed: 4, scale: 0.3 });
    truth = web.truth();
  });
  afterAll(() => web?.close());

  it('serves WebID cards as Turtle about #me, directly or only by content negotiation', async () => {
    const cards = truth.filter((r) => r.url.endsWith('/profile/card'));
    const direct = cards.find((r) => r.status === 200) as TruthRecord;
    const got = await proxyGet(web.proxyUrl, direct.url, HTML_ACCEPT);
    expect(got.headers['content-type']).toBe('text/turtle');
    expect(got.body.toString()).toContain(`<${direct.url}#me>`);
    const negotiated = cards.find((r) => r.status === 303) as TruthRecord;
    expect((await followChain(web.proxyUrl, negotiated.url, RDF_ACCEPT)).map((h) => [h.status, new URL(h.url).pathname.split('/').pop()])).toEqual([
      [303, 'card'],
      [200, 'card.ttl'],
    ]);
    const html = await followChain(web.proxyUrl, negotiated.url, HTML_ACCEPT);
    expect(html[1]?.url).toMatch(/\/profile\/card\.html$/);
    expect(html[1]?.body.toString()).toContain('vocab="http://schema.org/"');
    expect(cards.filter((r) => r.status === 303).length).toBeGreaterThan(3);
    expect(cards.filter((r) => r.status === 200).length).toBeGreaterThan(cards.length / 2);
  });

  it('shows containers as HTML views with their Turtle listing as rel=alternate, ACL badges mostly 401', async () => {
    const container = truth.find((r) => /\/public\/notes\/$/.test(r.url) && r.status === 200) as TruthRecord;
    const html = (await proxyGet(web.proxyUrl, container.url)).body.toString();
    expect(html).toContain(`<link rel="alternate" type="text/turtle" href="${new URL(container.url).pathname}index.ttl">`);
    expect(html).toContain('data-format="acl"');
    const acls = truth.filter((r) => r.url.endsWith('/.acl'));
    const denied = acls.filter((r) => r.status === 401).length;
    expect(denied).toBeGreaterThan(acls.length / 2);
    expect(denied).toBeLessThan(acls.length);
    expect(truth.some((r) => r.url.endsWith('/.meta') && r.label === 'R')).toBe(true);
    // Resources stored without an extension are Turtle too.
    expect(truth.some((r) => /\/public\/notes\/[a-z]+-\d+$/.test(r.url) && r.label === 'R' && r.contentType === 'text/turtle')).toBe(true);
  });

  it('links pods by foaf:knows to other WebIDs, and dokieli articles to annotations and other articles', () => {
    const podOf = (url: string): string => new URL(url).pathname.split('/')[1] as string;
    const knows = truth
      .filter((r) => r.status === 200 && r.label !== 'R' && r.label !== 'N')
      .flatMap((r) => web.links(r.url).filter((u) => u.endsWith('/profile/card') && podOf(u) !== podOf(r.url) && !/\/directory/.test(r.url)));
    expect(knows.length).toBeGreaterThan(20);
    const articles = truth.filter((r) => /\/articles\/[^/]+\.html$/.test(r.url));
    expect(articles.length).toBeGreaterThan(5);
    const annotationLinks = articles.flatMap((r) => web.links(r.url).filter((u) => u.includes('/annotations/')));
    expect(annotationLinks.length).toBeGreaterThan(0);
    expect(articles.every((r) => r.embedded === 'rdfa')).toBe(true);
  });
});
