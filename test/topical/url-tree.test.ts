import { describe, expect, it } from 'vitest';
import { LocationScore, locationFeatures } from '../../src/topical/location-score.ts';
import { UrlTree } from '../../src/topical/url-tree.ts';

describe('UrlTree P(v) (topical §3 steps 2 and 5)', () => {
  it('start URLs have P = 1; an observed page its estimate; an unknown node 0.5', () => {
    const t = new UrlTree();
    t.addStart(0);
    t.setEstimate(1, 0.3);
    expect(t.probability(0)).toBe(1);
    expect(t.probability(1)).toBe(0.3);
    expect(t.probability(9)).toBe(0.5);
  });
  it('checked links move P(v) by (1 + links⁺)/(1 + links⁺ + links⁻)', () => {
    const t = new UrlTree();
    t.addStart(0);
    t.recordFetch(1, 0, 'html');
    expect(t.counts(0)).toEqual({ plus: 0, minus: 1 });
    expect(t.probability(0)).toBe(1 / 2);
    t.recordFetch(2, 0, 'html');
    expect(t.probability(0)).toBe(1 / 3);
    t.recordFetch(3, 0, 'dead');
    expect(t.probability(0)).toBe(1 / 4);
    expect(t.probability(3)).toBe(0); // dead: P of its links is 0
  });
  it('an RDF document makes itself and its parent relevant (P = 1); the parent moves from links⁻ to links⁺ of the grandparent', () => {
    const t = new UrlTree();
    t.addStart(0);
    t.recordFetch(1, 0, 'html');
    t.recordFetch(2, 0, 'html');
    expect(t.probability(0)).toBe(1 / 3);
    t.setEstimate(1, 0.2);
    expect(t.probability(1)).toBe(0.2);
    const newly = t.recordFetch(5, 1, 'rdf');
    expect(newly).toEqual([5, 1]);
    expect(t.status(5)).toBe('relevant');
    expect(t.probability(1)).toBe(1);
    expect(t.counts(1)).toEqual({ plus: 1, minus: 0 });
    expect(t.counts(0)).toEqual({ plus: 1, minus: 1 });
    expect(t.probability(0)).toBe(2 / 3);
    // A second RDF child changes nothing above: the parent is counted once.
    expect(t.recordFetch(6, 1, 'rdf')).toEqual([6]);
    expect(t.counts(0)).toEqual({ plus: 1, minus: 1 });
    expect(t.counts(1)).toEqual({ plus: 2, minus: 0 });
  });
  it("a page's links inherit half of its parent's P until they are checked", () => {
    const t = new UrlTree();
    t.addStart(0);
    t.recordFetch(1, 0, 'html');
    t.setEstimate(1, 0.2);
    t.recordFetch(2, 0, 'rdf'); // sibling of 1 is RDF → 0 is an RDF parent
    expect(t.inheritedProbability(1)).toBeCloseTo((0.2 + 1) / 2, 12);
    t.recordFetch(3, 1, 'html');
    expect(t.inheritedProbability(1)).toBe(1 / 2); // checked now: its own ratio
    expect(t.inheritedProbability(0)).toBe(1);
  });
  it('round-trips through JSON', () => {
    const t = new UrlTree();
    t.addStart(0);
    t.recordFetch(1, 0, 'html');
    t.setEstimate(1, 0.25);
    t.recordFetch(2, 1, 'rdf');
    const back = new UrlTree();
    back.restoreFrom(JSON.parse(JSON.stringify(t.toJSON())));
    for (const id of [0, 1, 2, 3]) expect(back.probability(id)).toBe(t.probability(id));
    expect(back.counts(0)).toEqual(t.counts(0));
  });
});

describe('LocationScore LR(v)', () => {
  it('features are path words and the extension', () => {
    expect(locationFeatures('http://a.org/people/foaf/alice.rdf')).toEqual(['w:people', 'w:foaf', 'w:alice', 'x:rdf']);
    expect(locationFeatures('http://a.org/')).toEqual(['x:']);
  });
  it('learns which path words and extensions go with relevant documents; scores stay in [0, 1]', () => {
    const lr = new LocationScore();
    expect(lr.score('http://a.org/x')).toBe(0.5);
    for (let i = 0; i < 5; i++) lr.observe(`http://a.org/foaf/p${i}.rdf`, true);
    for (let i = 0; i < 10; i++) lr.observe(`http://a.org/news/n${i}.html`, false);
    const rdfish = lr.score('http://a.org/foaf/new.rdf');
    const newsy = lr.score('http://a.org/news/new.html');
    expect(rdfish).toBeGreaterThan(0.6);
    expect(newsy).toBeLessThan(0.2);
    expect(lr.score('http://b.org/zzz/qqq.unknown')).toBeCloseTo(lr.prior, 12);
    for (const x of [rdfish, newsy]) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1);
    }
  });
  it('relabel moves a page counted irrelevant over to relevant (it turned out an RDF parent)', () => {
    const lr = new LocationScore();
    lr.observe('http://a.org/people/', false);
    lr.observe('http://a.org/news/', false);
    const before = lr.score('http://a.org/people/bob');
    lr.relabel('http://a.org/people/');
    expect(lr.score('http://a.org/people/bob')).toBeGreaterThan(before);
    const back = new LocationScore();
    back.restoreFrom(JSON.parse(JSON.stringify(lr.toJSON())));
    expect(back.score('http://a.org/people/bob')).toBe(lr.score('http://a.org/people/bob'));
  });
});
