// The pattern oracle: template values known by hand on small webs, its curve, and never above the oracle.
import { describe, expect, it } from 'vitest';
import { urlTemplate } from '../../src/links/url-template.ts';
import {
  buildWeb,
  fetchTree,
  formatTemplate,
  linksOf,
  META_PROFILES,
  type OracleSource,
  oracleCurve,
  patternOracleCurve,
  templateValues,
  truthRecords,
} from '../../src/simweb/index.ts';
import { tinyWeb } from './tiny-web.ts';

// People pages without a FOAF file are listed first; a listing links three RDF files.
const people = (): OracleSource =>
  tinyWeb({
    '/': ['H', ['/people/3', '/people/4', '/people/1', '/people/2', '/news/1', '/news/2', '/list']],
    '/people/1': ['HR', ['/people/1/foaf.rdf']],
    '/people/2': ['HR', ['/people/2/foaf.rdf']],
    '/people/3': ['H', []],
    '/people/4': ['H', []],
    '/people/1/foaf.rdf': ['R', []],
    '/people/2/foaf.rdf': ['R', []],
    '/news/1': ['H', []],
    '/news/2': ['H', []],
    '/list': ['HR', ['/data/a.ttl', '/data/b.ttl', '/data/c.ttl']],
    '/data/a.ttl': ['R', []],
    '/data/b.ttl': ['R', []],
    '/data/c.ttl': ['R', []],
  });

describe('templateValues', () => {
  it('is RDF documents per fetch, a page counting what it leads to (rate), or per page (reach), or the useful share', () => {
    const tree = fetchTree(people());
    const rate = templateValues(tree, 'rate');
    // people: 2 FOAF files for 4 pages + 2 FOAF fetches; the listing: 3 files for itself + 3 fetches.
    expect(rate.get('t.org/people/{x}')).toBeCloseTo(2 / 6);
    expect(rate.get('t.org/people/{x}/{x}.rdf')).toBe(1);
    expect(rate.get('t.org/{x}')).toBeCloseTo(3 / 4);
    expect(rate.get('t.org/data/{x}.ttl')).toBe(1);
    expect(rate.get('t.org/news/{x}')).toBe(0);
    expect(rate.get('t.org/')).toBeCloseTo(5 / 9); // itself and the 8 pages on the way to the 5 RDF documents
    const reach = templateValues(tree, 'reach');
    expect(reach.get('t.org/people/{x}')).toBeCloseTo(2 / 4);
    expect(reach.get('t.org/{x}')).toBe(3);
    expect(templateValues(tree, 'useful').get('t.org/people/{x}')).toBeCloseTo(1 / 2);
  });
});

describe('patternOracleCurve', () => {
  it('orders by template, ties in discovery order: it cannot tell a person page with FOAF from one without', () => {
    const web = people();
    // / ; list (3/4), its three files (1 each); people/3, people/4 (no FOAF), people/1, its FOAF, people/2, its FOAF; news.
    expect(patternOracleCurve(web, 13)).toEqual([0, 0, 0, 1, 2, 3, 3, 3, 3, 4, 4, 5, 5, 5]);
    // The oracle knows each page: both FOAF files two fetches each, after the listing.
    expect(oracleCurve(web, 13)).toEqual([0, 0, 0, 1, 2, 3, 3, 4, 4, 5, 5, 5, 5, 5]);
    // Ordered by the share of useful pages, the listing (1) still goes first, people (1/2) before news (0).
    expect(patternOracleCurve(web, 13, { value: 'useful' })).toEqual([0, 0, 0, 1, 2, 3, 3, 3, 3, 4, 4, 5, 5, 5]);
  });

  it('takes a followed redirect at no cost and queues its targets by their own templates', () => {
    const web = tinyWeb({
      '/': ['H', ['/about', '/res/1']],
      '/about': ['H', []],
      '/res/1': ['R', [], { status: 303, redirectTo: 'http://t.org/res/1.rdf', redirectToHtml: 'http://t.org/res/1.html' }],
      '/res/1.rdf': ['R', []],
      '/res/1.html': ['H', ['/res/2.rdf']],
      '/res/2.rdf': ['R', []],
    });
    expect(patternOracleCurve(web, 4)).toEqual([0, 0, 1, 1, 1]);
    expect(patternOracleCurve(web, 4, { htmlVariants: true })).toEqual([0, 0, 1, 1, 2]);
    // A crawler that queues redirect targets pays for the hop (the 303's template has the RDF below it: before /about).
    expect(patternOracleCurve(web, 4, { followsRedirects: false })).toEqual([0, 0, 0, 1, 1]);
  });

  it('tells format names in query values apart, other query values not', () => {
    expect(formatTemplate('http://t.org/d/7?format=TTL&page=2')).toBe('t.org/d/{x}?format=ttl&page={x}');
    expect(formatTemplate('http://t.org/search?q=linked')).toBe('t.org/{x}?q={x}');
    expect(formatTemplate('http://t.org/d/7.rdf')).toBe(urlTemplate('http://t.org/d/7.rdf'));
    const web = tinyWeb({
      '/': ['H', ['/d/1?format=csv', '/d/2?format=csv', '/d/1?format=ttl', '/d/2?format=ttl']],
      '/d/1?format=csv': ['N', []],
      '/d/2?format=csv': ['N', []],
      '/d/1?format=ttl': ['R', []],
      '/d/2?format=ttl': ['R', []],
    });
    expect(patternOracleCurve(web, 3)).toEqual([0, 0, 1, 2]);
    expect(patternOracleCurve(web, 3, { templateOf: urlTemplate })).toEqual([0, 0, 0, 0]); // one template, 1/2 each
  });

  it('is never above the oracle at any k, nor above k, on every simulated-web profile', () => {
    const profiles = [...(META_PROFILES.tuning ?? []), ...(META_PROFILES['held-out'] ?? [])];
    expect(profiles.length).toBeGreaterThanOrEqual(14);
    let compared = 0;
    let below = 0;
    for (const profile of profiles) {
      for (const seed of [1, 2]) {
        const model = buildWeb({ profiles: profile, seed, scale: 0.3 });
        const truth = [...truthRecords(model)];
        const site = model.sites[0]!;
        const source: OracleSource = { sites: [{ host: site.host, startUrl: site.startUrl }], truth: () => truth, links: (u) => linksOf(model, u) };
        const options = { hosts: [site.host], htmlVariants: true };
        const maxK = 800;
        const oracle = oracleCurve(source, maxK, options);
        for (const templateOf of [formatTemplate, urlTemplate]) {
          const pattern = patternOracleCurve(source, maxK, { ...options, templateOf });
          expect(pattern).toHaveLength(maxK + 1);
          for (let k = 0; k <= maxK; k++) {
            expect(pattern[k] as number, `${profile} seed ${seed} k=${k}`).toBeLessThanOrEqual(oracle[k] as number);
            expect(pattern[k] as number).toBeLessThanOrEqual(k);
          }
          compared++;
          if ((pattern[200] as number) < (oracle[200] as number)) below++;
        }
      }
    }
    expect(compared).toBe(profiles.length * 4);
    expect(below).toBeGreaterThan(0); // knowing templates only costs RDF somewhere
  });
});
