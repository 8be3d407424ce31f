import { describe, expect, it } from 'vitest';
import { RdfscoutError } from '../../src/errors.ts';
import type { LinkFeatures } from '../../src/links/types.ts';
import { TOPICAL_HR_TIE_SPAN, TopicalHrStrategy, TopicalStrategy, createStrategy } from '../../src/relevance/strategies/index.ts';
import type { FetchedDocument, Strategy } from '../../src/relevance/types.ts';
import { htmlSource, link } from '../relevance/helpers.ts';

const SITE = 'http://lab.example';

function fetched(url: string, parent: string | null, type: FetchedDocument['type']): FetchedDocument {
  return { url, finalUrl: url, parent, status: 200, type, contentType: null, label: null, rules: [] };
}

/** Feeds a strategy a small crawl, as the engine would: observePage, then learn, per fetched document. */
function simulate(s: Strategy): void {
  const page = (url: string, depth: number, text: string, links: LinkFeatures[]) => s.observePage!({ url, depth, type: 'html', text, links });
  page(`${SITE}/`, 0, 'Welcome to the lab. News, people and projects.', [
    link(`${SITE}/people/`, { anchor: 'People', context: 'our members and their FOAF profiles' }),
    link(`${SITE}/news/`, { anchor: 'News', context: 'latest football results and events' }),
  ]);
  s.learn(fetched(`${SITE}/`, null, 'html'));
  page(`${SITE}/people/`, 1, 'Members of the lab with FOAF profiles in RDF', [
    link(`${SITE}/people/alice/foaf`, { anchor: 'Alice', context: 'FOAF profile in RDF' }),
    link(`${SITE}/people/bob/foaf`, { anchor: 'Bob', context: 'FOAF profile in RDF' }),
  ]);
  s.learn(fetched(`${SITE}/people/`, `${SITE}/`, 'html'));
  page(`${SITE}/news/`, 1, 'Football match results and the weather', [link(`${SITE}/news/1`, { anchor: 'Match report', context: 'the team won' })]);
  s.learn(fetched(`${SITE}/news/`, `${SITE}/`, 'html'));
  s.learn(fetched(`${SITE}/people/alice/foaf`, `${SITE}/people/`, 'rdf'));
  s.learn(fetched(`${SITE}/news/1`, `${SITE}/news/`, 'html'));
  page(`${SITE}/news/1`, 2, 'The team won the match', []);
}

const PROBES = [
  link(`${SITE}/people/carol/foaf`, { anchor: 'Carol', context: 'FOAF profile in RDF' }),
  link(`${SITE}/news/2`, { anchor: 'Match report', context: 'football results' }),
  link(`${SITE}/data/x.rdf`),
  link(`${SITE}/about.html`, { anchor: 'About us' }),
];

describe('createStrategy: topical and topical+hr', () => {
  it('constructs both by name; seeds at 0; both observe pages', () => {
    for (const name of ['topical', 'topical+hr']) {
      const s = createStrategy(name);
      expect(s.name).toBe(name);
      expect(s.seedPriority).toBe(0);
      expect(typeof s.observePage).toBe('function');
    }
    expect(createStrategy('topical')).toBeInstanceOf(TopicalStrategy);
    expect(createStrategy('topical+hr')).toBeInstanceOf(TopicalHrStrategy);
  });
  it('refuses unknown options but accepts agent options', () => {
    expect(() => createStrategy('topical', { foo: 1 } as never)).toThrow(/Unknown strategy option "foo"/);
    expect(() => createStrategy('topical', { agent: { graph: { bogus: 1 } } } as never)).toThrow(/Unknown graph score option "bogus"/);
    expect(new TopicalStrategy({ agent: { filter: { size: 10 } } }).name).toBe('topical');
  });
});

describe('topical', () => {
  it('drops NF links, sends N links last (10), keeps R/H labels for the metrics, priorities in [1, 3]', () => {
    const s = createStrategy('topical');
    const src = htmlSource(`${SITE}/`);
    expect(s.judge(link(`${SITE}/pic.png`), src)).toEqual({ label: 'N', rules: ['nf'], priority: null });
    expect(s.judge(link(`${SITE}/data.xml`), src).priority).toBe(10);
    const r = s.judge(link(`${SITE}/x.rdf`), src);
    expect(r.label).toBe('R');
    expect(r.rules).toEqual(['ex1']);
    for (const l of PROBES) {
      const p = s.judge(l, src).priority!;
      expect(p).toBeGreaterThanOrEqual(1);
      expect(p).toBeLessThanOrEqual(3);
    }
  });
  it('simulation: after RDF is found under /people/, an RDF-ish link on a relevant page outranks a news link, and priorities move', () => {
    const s = createStrategy('topical') as TopicalStrategy;
    const carol = PROBES[0]!;
    const news = PROBES[1]!;
    // Before anything is learned, both links found on a fresh page are judged alike (no core, no LR counts).
    const fresh = createStrategy('topical');
    const before = fresh.judge(carol, htmlSource(`${SITE}/people/`)).priority!;
    expect(fresh.judge(news, htmlSource(`${SITE}/people/`)).priority).toBeCloseTo(before, 12);
    simulate(s);
    const agent = s.topicalAgent;
    expect(agent.tree.probability(agent.graph.idOf(`${SITE}/people/`)!)).toBe(1); // an RDF parent
    expect(agent.filter.terms.map(([t]) => t)).toContain('foaf');
    const onPeople = s.judge(carol, htmlSource(`${SITE}/people/`)).priority!;
    const onNews = s.judge(news, htmlSource(`${SITE}/news/`)).priority!;
    expect(onPeople).toBeLessThan(onNews);
    expect(onPeople).toBeLessThan(before); // learning made it more urgent
    // The same link text on the same page: the FOAF context beats the football one (IR and LR).
    expect(s.judge(carol, htmlSource(`${SITE}/news/`)).priority!).toBeLessThan(onNews);
  });
});

describe('topical+hr', () => {
  it('keeps the thesis bands (R → [1, 1.45], HR → [2, 2.45], H → [3, 3.45]) and breaks ties by the agent', () => {
    const s = createStrategy('topical+hr');
    simulate(s);
    const src = htmlSource(`${SITE}/people/`);
    const r = s.judge(link(`${SITE}/data/x.rdf`), src);
    expect(r.label).toBe('R');
    expect(r.priority!).toBeGreaterThanOrEqual(1);
    expect(r.priority!).toBeLessThanOrEqual(1 + TOPICAL_HR_TIE_SPAN);
    const a = s.judge(link(`${SITE}/projects/one.html`, { anchor: 'FOAF profiles in RDF' }), htmlSource(`${SITE}/people/`));
    const b = s.judge(link(`${SITE}/sport/two.html`, { anchor: 'football results' }), htmlSource(`${SITE}/news/`));
    expect(a.label).toBe('R'); // an2: the anchor names RDF
    expect(b.label).toBe('H');
    expect(b.priority!).toBeGreaterThanOrEqual(3);
    expect(b.priority!).toBeLessThanOrEqual(3 + TOPICAL_HR_TIE_SPAN);
    const h1 = s.judge(link(`${SITE}/people/list.html`, { context: 'profiles of lab members' }), src).priority!;
    const h2 = s.judge(link(`${SITE}/news/list.html`, { context: 'football weather' }), htmlSource(`${SITE}/news/`)).priority!;
    expect(Math.floor(h1)).toBe(3);
    expect(Math.floor(h2)).toBe(3);
    expect(h1).toBeLessThan(h2);
  });
  it('learns C_HR(t): a link like a known RDF parent is HR', () => {
    const s = createStrategy('topical+hr') as TopicalHrStrategy;
    s.learn(fetched(`${SITE}/d/one.rdf`, `${SITE}/members/member1/`, 'rdf'));
    const j = s.judge(link(`${SITE}/members/member2/`), htmlSource(`${SITE}/`));
    expect(j.label).toBe('HR');
    expect(j.rules).toEqual(['r1']);
    expect(j.priority!).toBeGreaterThanOrEqual(2);
    expect(j.priority!).toBeLessThanOrEqual(2 + TOPICAL_HR_TIE_SPAN);
    expect(s.parents.size).toBe(1);
  });
});

describe('snapshot / restore', () => {
  for (const name of ['topical', 'topical+hr']) {
    it(`${name}: a JSON round-trip judges identically and snapshots equal`, () => {
      const trained = createStrategy(name);
      simulate(trained);
      const restored = createStrategy(name);
      restored.restore(JSON.parse(JSON.stringify(trained.snapshot())));
      for (const src of [htmlSource(`${SITE}/people/`), htmlSource(`${SITE}/news/`), htmlSource('http://other.example/')]) {
        for (const l of PROBES) expect(restored.judge(l, src), l.url).toEqual(trained.judge(l, src));
      }
      expect(restored.snapshot()).toEqual(trained.snapshot());
      // And both keep learning alike.
      for (const s of [trained, restored]) s.learn(fetched(`${SITE}/people/bob/foaf`, `${SITE}/people/`, 'rdf'));
      expect(restored.snapshot()).toEqual(trained.snapshot());
    });
  }
  it('restore(null) forgets; a snapshot of another strategy is refused', () => {
    const s = createStrategy('topical');
    simulate(s);
    s.restore(null);
    expect((s as TopicalStrategy).topicalAgent.graph.size).toBe(0);
    expect(() => s.restore(createStrategy('topical+hr').snapshot())).toThrow(RdfscoutError);
    expect(() => s.restore(createStrategy('fc-r+hr').snapshot())).toThrow(/belongs to strategy "fc-r\+hr"/);
  });
});
