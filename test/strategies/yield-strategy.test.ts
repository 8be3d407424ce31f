// The yield strategy: FC-R+HR labels as prior, learned priorities, replay from records, variants.
import { describe, expect, it } from 'vitest';
import { htmlVariantLink } from '../../src/links/html-variant.ts';
import { createStrategy, YIELD_PRIORITY_TOP, YIELD_RULE_PREFIX } from '../../src/strategies/index.ts';
import { VARIANT_DISCOUNT, YieldStrategy } from '../../src/strategies/yield.ts';
import { YIELD_PRIOR } from '../../src/relevance/link-yield.ts';
import type { FetchedDocument, Judgement, Strategy } from '../../src/relevance/types.ts';
import { withPatternYield } from '../../src/relevance/pattern-yield.ts';
import { htmlSource, link, rdfSource } from '../relevance/helpers.ts';

const LIST = 'http://s.org/members?page=1';

function record(url: string, parent: string | null, type: FetchedDocument['type'], j: Judgement | null): FetchedDocument {
  return { url, finalUrl: url, parent, status: 200, type, contentType: null, label: j?.label ?? null, rules: j?.rules ?? [] };
}

/** Crawls a hand-made site by hand: `n` member pages, the even ones linking their RDF (50%, like openlylocal). */
function teach(s: Strategy, n: number): void {
  for (let i = 0; i < n; i++) {
    const page = `http://s.org/members/${i}-ann`;
    const j = s.judge(link(page), htmlSource(LIST, 1));
    const rdf = link(`http://s.org/members/${i}.rdf`, { anchor: 'RDF' });
    s.observePage?.({ url: page, depth: 2, type: 'html', text: '', links: i % 2 === 0 ? [rdf] : [] });
    s.learn(record(page, LIST, 'html', j));
    if (i % 2 === 0) s.learn(record(rdf.url, page, 'rdf', s.judge(rdf, htmlSource(page, 2))));
  }
}

describe('yield strategy', () => {
  it('labels as FC-R+HR does, carries the style in a rule, and orders by expected yield', () => {
    const s = createStrategy('yield');
    const r = s.judge(link('http://s.org/a.rdf', { anchor: 'RDF', domPath: 'li a' }), htmlSource('http://s.org/', 0));
    expect(r.label).toBe('R');
    expect(r.rules).toContain('ex1');
    expect(r.rules).toContain(`${YIELD_RULE_PREFIX}a|||rdf|li a`);
    const h = s.judge(link('http://s.org/about'), htmlSource('http://s.org/', 0));
    expect(h.label).toBe('H');
    expect(r.priority as number).toBeLessThan(h.priority as number);
    expect(r.priority).toBeCloseTo(YIELD_PRIORITY_TOP - YIELD_PRIOR.R - 0.1, 10);
    // NF still drops; a link FC-R+HR labels N is kept, at the lowest prior.
    expect(s.judge(link('http://s.org/a.jpg'), htmlSource('http://s.org/', 0)).priority).toBeNull();
    const n = s.judge(link('http://s.org/feed.xml'), htmlSource('http://s.org/', 0));
    expect(n.label).toBe('N');
    expect(n.priority as number).toBeGreaterThan(h.priority as number);
  });

  it('learns that half the member pages lead to RDF (one RDF document per three fetches), and their RDF links always', () => {
    const s = createStrategy('yield');
    teach(s, 40);
    const member = s.judge(link('http://s.org/members/99-bob'), htmlSource(LIST, 1));
    // A new template is explored with a bonus for two links at a time; the third waits at its plain estimate.
    const explored = [97, 98].map((i) => s.judge(link(`http://s.org/news/${i}`), htmlSource(LIST, 1)));
    const other = s.judge(link('http://s.org/news/99'), htmlSource(LIST, 1));
    expect(explored[0]?.priority as number).toBeLessThan(other.priority as number);
    const rdf = s.judge(link('http://s.org/members/99.rdf', { anchor: 'RDF' }), htmlSource('http://s.org/members/98-x', 2));
    expect(rdf.priority as number).toBeLessThan(member.priority as number);
    expect(member.priority as number).toBeLessThan(other.priority as number);
    expect(YIELD_PRIORITY_TOP - (member.priority as number)).toBeGreaterThan(0.28);
    expect(YIELD_PRIORITY_TOP - (member.priority as number)).toBeLessThan(0.4);
  });

  it('re-estimates a queued link when its turn comes: it waits if its template was found barren meanwhile', () => {
    const s = createStrategy('yield');
    const src = htmlSource(LIST, 1);
    const queued = [0, 1, 2].map((i) => ({ url: `http://s.org/archive/${i}`, j: s.judge(link(`http://s.org/archive/${i}`), src) }));
    const entry = (q: (typeof queued)[number]) => ({ url: q.url, priority: q.j.priority as number, rules: q.j.rules, label: q.j.label, parent: LIST, depth: 2 });
    // Nothing learned yet: fetch as queued.
    expect(s.reprioritise?.(entry(queued[2]!))).toBeNull();
    // Ten pages of the template lead nowhere, and the link judged with the exploration bonus now waits behind.
    for (let i = 10; i < 20; i++) {
      const url = `http://s.org/archive/${i}`;
      s.observePage?.({ url, depth: 2, type: 'html', text: '', links: [] });
      s.learn(record(url, LIST, 'html', s.judge(link(url), src)));
    }
    const later = s.reprioritise?.(entry(queued[0]!)) as number;
    expect(later).toBeGreaterThan((queued[0]!.j.priority as number) + 0.1);
    expect(later).toBeCloseTo(s.judge(link('http://s.org/archive/99'), src).priority as number, 3);
    // Seeds (no label, no parent) are left alone.
    expect(s.reprioritise?.({ url: 'http://s.org/', priority: 0, rules: [] })).toBeNull();
  });

  it('sends a queued link back only after two fetches of its template: one section says little of its sibling', () => {
    const home = htmlSource('http://s.org/', 0);
    const section = (s: Strategy, name: string) => {
      const j = s.judge(link(`http://s.org/${name}`), home);
      return { url: `http://s.org/${name}`, priority: j.priority as number, rules: j.rules, label: j.label, parent: 'http://s.org/', depth: 1 };
    };
    const fetch = (s: Strategy, name: string, links: string[]) => {
      const url = `http://s.org/${name}`;
      const j = s.judge(link(url), home);
      s.observePage?.({ url, depth: 1, type: 'html', text: '', links: links.map((l) => link(`${url}/${l}`)) });
      s.learn(record(url, 'http://s.org/', 'html', j));
    };
    const s = createStrategy('yield');
    const staff = section(s, 'staff');
    // The first section fetched is a hub of unexplored pages: nothing anticipated below it yet (institute-like's
    // /research before /staff). Its sibling keeps its place.
    fetch(s, 'research', ['faculties', 'groups', 'projects']);
    expect(s.reprioritise?.(staff)).toBeNull();
    // A second fetch of the template without RDF in or below: now the estimate may send it back.
    fetch(s, 'study', ['courses']);
    expect(s.reprioritise?.(staff) as number).toBeGreaterThan(staff.priority + 0.03);
    // With `sendBackAfter: 0` (the behaviour before session 10) one fetch was enough.
    const before = new YieldStrategy({ linkYield: { sendBackAfter: 0 } });
    const staff0 = section(before, 'staff');
    fetch(before, 'research', ['faculties', 'groups', 'projects']);
    expect(before.reprioritise?.(staff0) as number).toBeGreaterThan(staff0.priority + 0.03);
  });

  it('learns barren templates itself: the per-pattern wrapper leaves it alone', () => {
    const s = createStrategy('yield');
    expect(s.learnsBarren).toBe(true);
    expect(withPatternYield(s)).toBe(s);
    const focused = createStrategy('fc-r+hr');
    expect(withPatternYield(focused)).not.toBe(focused);
  });

  it('snapshots and restores what it learned; refuses another strategy\'s state', () => {
    const a = createStrategy('yield');
    teach(a, 20);
    const b = createStrategy('yield');
    b.restore(JSON.parse(JSON.stringify(a.snapshot())));
    const l = link('http://s.org/members/77-zed');
    expect(b.judge(l, htmlSource(LIST, 1))).toEqual(a.judge(l, htmlSource(LIST, 1)));
    expect(() => b.restore(createStrategy('fc-r+hr').snapshot())).toThrow(/fc-r\+hr/);
  });

  it('follows HTML variants of negotiated resources, behind ordinary pages; the thesis crawlers do not', () => {
    const s = createStrategy('yield');
    expect(s.followsHtmlVariants).toBe(true);
    expect(createStrategy('fc-r+hr').followsHtmlVariants).toBeUndefined();
    const src = rdfSource('http://s.org/ns/v/Agent1.ttl', 2);
    const variant = s.judge(htmlVariantLink('http://s.org/ns/v/Agent1'), src);
    expect(variant.label).toBe('H');
    expect(YIELD_PRIORITY_TOP - (variant.priority as number)).toBeCloseTo((YIELD_PRIOR.H + 0.1) * VARIANT_DISCOUNT, 3);
  });
});
