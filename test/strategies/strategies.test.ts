import { describe, expect, it } from 'vitest';
import { ArgumentError, RdfscoutError } from '../../src/errors.ts';
import { DEFAULT_STRATEGY, STRATEGY_NAMES, createStrategy, isStrategyName } from '../../src/strategies/index.ts';
import type { FetchedDocument, Strategy } from '../../src/relevance/types.ts';
import { HTML_SOURCE, htmlSource, link, rdfSource } from '../relevance/helpers.ts';

function fetched(url: string, parent: string | null, type: FetchedDocument['type']): FetchedDocument {
  return { url, finalUrl: url, parent, status: 200, type, contentType: null, label: null, rules: [] };
}

const SEE_ALSO = 'http://www.w3.org/2000/01/rdf-schema#seeAlso';

describe('createStrategy', () => {
  it('creates every named strategy with seed priority 0', () => {
    for (const name of STRATEGY_NAMES) {
      const s = createStrategy(name);
      expect(s.name).toBe(name);
      expect(s.seedPriority).toBe(0);
    }
    expect(DEFAULT_STRATEGY).toBe('fc-r+hr');
    expect(isStrategyName('fc-r2')).toBe(true);
    expect(isStrategyName('dfs')).toBe(false);
  });
  it('refuses an unknown name, listing the known ones', () => {
    expect(() => createStrategy('dfs')).toThrow(ArgumentError);
    expect(() => createStrategy('dfs')).toThrow(/bfs, fc-r\+hr, fc-r, fc-r2, fc-r\+hr2/);
  });
  it('refuses unknown options', () => {
    expect(() => createStrategy('bfs', { concept: 1 } as never)).toThrow(/Unknown strategy option "concept"/);
  });
});

describe('bfs (BC)', () => {
  const s = createStrategy('bfs');
  it('priority is the link depth, whatever the label', () => {
    expect(s.judge(link('http://a.org/x.rdf'), htmlSource('http://a.org/', 0)).priority).toBe(1);
    expect(s.judge(link('http://a.org/page.html'), htmlSource('http://a.org/p', 2)).priority).toBe(3);
    expect(s.judge(link('http://a.org/data.xml'), htmlSource('http://a.org/p', 4))).toEqual({ label: 'N', rules: [], priority: 5 });
  });
  it('drops only what NF drops', () => {
    expect(s.judge(link('http://a.org/pic.png'), HTML_SOURCE)).toEqual({ label: 'N', rules: ['nf'], priority: null });
  });
  it('records the Relevancy_R label for the metrics', () => {
    expect(s.judge(link('http://a.org/x.rdf'), HTML_SOURCE)).toEqual({ label: 'R', rules: ['ex1'], priority: 1 });
  });
});

describe('fc-r', () => {
  const s = createStrategy('fc-r');
  it('R → 1, H → 3, N → last (10, issue 16 item 4), never HR even after learning', () => {
    s.learn(fetched('http://a.org/members/m1.rdf', 'http://a.org/members/member1/', 'rdf'));
    expect(s.judge(link('http://a.org/x', { anchor: 'RDF' }), HTML_SOURCE)).toEqual({ label: 'R', rules: ['an2'], priority: 1 });
    expect(s.judge(link('http://a.org/members/member2/'), HTML_SOURCE)).toEqual({ label: 'H', rules: [], priority: 3 });
    expect(s.judge(link('http://a.org/data.xml'), HTML_SOURCE)).toEqual({ label: 'N', rules: [], priority: 10 });
    expect(s.judge(link('http://a.org/x.gif'), HTML_SOURCE).priority).toBeNull();
  });
});

describe('fc-r+hr (proposed)', () => {
  it('predicts HR from learned parents by r1/r2, with priority 2', () => {
    const s = createStrategy('fc-r+hr');
    const member2 = link('http://a.org/members/member2/');
    expect(s.judge(member2, HTML_SOURCE)).toEqual({ label: 'H', rules: [], priority: 3 });
    s.learn(fetched('http://a.org/members/member1/foaf', 'http://a.org/members/member1/', 'rdf'));
    expect(s.judge(member2, HTML_SOURCE)).toEqual({ label: 'HR', rules: ['r1'], priority: 2 });
    expect(s.judge(link('http://a.org/members/member1/?tab=2'), HTML_SOURCE)).toEqual({ label: 'HR', rules: ['r2'], priority: 2 });
    expect(s.judge(link('http://a.org/news/'), HTML_SOURCE).label).toBe('H');
  });
  it('R wins over HR: Relevancy_HR is asked only for H links', () => {
    const s = createStrategy('fc-r+hr');
    s.learn(fetched('http://a.org/p/x.rdf', 'http://a.org/p/one.html', 'rdf'));
    expect(s.judge(link('http://a.org/p/two.html', { anchor: 'FOAF' }), HTML_SOURCE)).toEqual({ label: 'R', rules: ['an2'], priority: 1 });
    expect(s.judge(link('http://a.org/p/two.xml'), HTML_SOURCE).label).toBe('N');
  });
  it('learns only from RDF documents that have a parent', () => {
    const s = createStrategy('fc-r+hr');
    s.learn(fetched('http://a.org/a/b.html', 'http://a.org/m/one', 'html'));
    s.learn(fetched('http://a.org/a/c.rdf', null, 'rdf'));
    s.learn({ ...fetched('http://a.org/a/d.rdf', 'http://a.org/m/two', null), status: 404 });
    expect(s.judge(link('http://a.org/m/three'), HTML_SOURCE).label).toBe('H');
    expect(s.snapshot()).toEqual({ strategy: 'fc-r+hr', version: 1, parents: [] });
  });
  it('judges links inside RDF documents by extension, preferring seeAlso and friends', () => {
    const s = createStrategy('fc-r+hr');
    const src = rdfSource('http://a.org/data/x.ttl');
    expect(s.judge(link('http://b.org/other.rdf', { tag: 'rdf', rel: SEE_ALSO }), src)).toEqual({ label: 'R', rules: ['ex1'], priority: 1 });
    expect(s.judge(link('http://b.org/resource/Bob', { tag: 'rdf', rel: 'http://xmlns.com/foaf/0.1/knows' }), src)).toEqual({ label: 'R', rules: ['ex0'], priority: 1.5 });
    expect(s.judge(link('http://b.org/about.html', { tag: 'rdf', rel: SEE_ALSO, anchor: 'rdf' }), src)).toEqual({ label: 'H', rules: [], priority: 3 });
    expect(s.judge(link('http://b.org/logo.svg', { tag: 'rdf' }), src).priority).toBe(10);
  });
});

describe('re-judging the same link object (issue 18: NF and Relevancy_R are kept per link object)', () => {
  it('gives the verdict of the source it is judged from now, and HR as learned by then', () => {
    const s = createStrategy('fc-r+hr');
    const l = link('http://b.org/members/member2/');
    expect(s.judge(l, HTML_SOURCE)).toEqual({ label: 'H', rules: [], priority: 3 });
    // Inside an RDF document a link without extension is R (thesis §8.2): not the HTML verdict kept above.
    expect(s.judge(l, rdfSource('http://b.org/x.ttl')).label).toBe('R');
    s.learn(fetched('http://b.org/members/member1/foaf', 'http://b.org/members/member1/', 'rdf'));
    expect(s.judge(l, HTML_SOURCE)).toEqual(s.judge({ ...l }, HTML_SOURCE));
    expect(s.judge(l, HTML_SOURCE).label).toBe('HR');
  });
  it('keeps each judgement its own rules array', () => {
    const s = createStrategy('fc-r+hr');
    const l = link('http://b.org/d/x.rdf');
    const first = s.judge(l, HTML_SOURCE);
    first.rules.push('changed');
    expect(s.judge(l, HTML_SOURCE).rules).toEqual(['ex1']);
  });
  it('yield: the same link object found on two pages is clustered by each page', () => {
    // The same calls on two strategies, one reusing the link object (its keys kept), one given a fresh copy each time.
    const pageA = htmlSource('http://b.org/list?page=1');
    const pageB = htmlSource('http://b.org/people/ann/about');
    const run = (fresh: boolean): number[] => {
      const y = createStrategy('yield');
      const l = link('http://b.org/d/x.rdf');
      const use = () => (fresh ? { ...l } : l);
      const first = y.judge(use(), pageA);
      // An RDF document found through page A: the clusters of A's template (with the link's) learn it, B's do not.
      y.learn({ ...fetched('http://b.org/d/y.rdf', pageA.url, 'rdf'), rules: first.rules });
      return [first, y.judge(use(), pageB), y.judge(use(), pageA)].map((j) => j.priority as number);
    };
    const kept = run(false);
    expect(kept).toEqual(run(true));
    expect(kept[1]).not.toBeCloseTo(kept[2] as number, 6); // where the link was found matters after learning
  });
});

describe('fc-r+hr2 ([Hat10] parents)', () => {
  it('predicts HR only for same host and path (dURL ≤ 1)', () => {
    const s = createStrategy('fc-r+hr2');
    s.learn(fetched('http://a.org/data/x.rdf', 'http://a.org/list.php?page=1', 'rdf'));
    s.learn(fetched('http://a.org/data/y.rdf', 'http://a.org/members/member1/', 'rdf'));
    expect(s.judge(link('http://a.org/list.php?page=2'), HTML_SOURCE)).toEqual({ label: 'HR', rules: ['hat10'], priority: 2 });
    expect(s.judge(link('http://a.org/members/member2/'), HTML_SOURCE)).toEqual({ label: 'H', rules: [], priority: 3 });
  });
});

describe('fc-r2 ([Umb09])', () => {
  it('with an empty knowledge base predicts no RDF link: HTML-type links queued, others last', () => {
    const s = createStrategy('fc-r2');
    expect(s.judge(link('http://a.org/x.rdf'), HTML_SOURCE)).toEqual({ label: 'N', rules: [], priority: 10 });
    expect(s.judge(link('http://a.org/x.html'), HTML_SOURCE)).toEqual({ label: 'H', rules: [], priority: 3 });
    expect(s.judge(link('http://a.org/x/'), HTML_SOURCE)).toEqual({ label: 'H', rules: [], priority: 3 });
  });
  it('predicts R above 0.5 confidence, queued by relevance', () => {
    const s = createStrategy('fc-r2');
    s.learn(fetched('http://a.org/d/one.rdf', null, 'rdf'));
    s.learn(fetched('http://a.org/d/two.rdf', null, 'rdf'));
    s.learn(fetched('http://a.org/d/three.rdf', null, 'other'));
    s.learn(fetched('http://a.org/d/four.rdf', null, 'rdf'));
    s.learn(fetched('http://a.org/d/five.rdf', null, null)); // not read: not learned
    const j = s.judge(link('http://a.org/x/new.rdf'), HTML_SOURCE);
    expect(j.label).toBe('R');
    expect(j.rules).toEqual(['u-ext']);
    expect(j.priority).toBeCloseTo(1.25); // relevance 3/4
  });
  it('0.5 is not enough; a rule saying "other" sends even an extension-less link last', () => {
    const s = createStrategy('fc-r2');
    s.learn(fetched('http://a.org/d/alice', null, 'rdf'));
    s.learn(fetched('http://a.org/d/about', null, 'html'));
    expect(s.judge(link('http://a.org/d/bob'), HTML_SOURCE)).toEqual({ label: 'H', rules: ['u-word'], priority: 3 });
    s.learn(fetched('http://a.org/img/a', null, 'other'));
    expect(s.judge(link('http://a.org/img/b'), HTML_SOURCE)).toEqual({ label: 'N', rules: ['u-word'], priority: 10 });
  });
});

describe('snapshot / restore', () => {
  const probes = [
    'http://a.org/members/member2/',
    'http://a.org/list.php?page=3',
    'http://a.org/d/new.rdf',
    'http://a.org/d/zzz',
    'http://a.org/news/',
    'http://b.org/x.xml',
  ].map((url) => link(url));

  function train(s: Strategy): void {
    s.learn(fetched('http://a.org/d/one.rdf', 'http://a.org/members/member1/', 'rdf'));
    s.learn(fetched('http://a.org/d/two.rdf', 'http://a.org/list.php?page=1', 'rdf'));
    s.learn(fetched('http://a.org/d/page', 'http://a.org/', 'html'));
  }

  for (const name of STRATEGY_NAMES) {
    it(`${name}: a restored strategy judges identically`, () => {
      const trained = createStrategy(name);
      train(trained);
      const restored = createStrategy(name);
      restored.restore(JSON.parse(JSON.stringify(trained.snapshot())));
      for (const l of probes) expect(restored.judge(l, HTML_SOURCE), l.url).toEqual(trained.judge(l, HTML_SOURCE));
      expect(restored.snapshot()).toEqual(trained.snapshot());
    });
  }

  it('the learned state changes judgements (so the round-trip test is meaningful)', () => {
    const fresh = createStrategy('fc-r+hr');
    const trained = createStrategy('fc-r+hr');
    train(trained);
    expect(fresh.judge(probes[0]!, HTML_SOURCE).label).toBe('H');
    expect(trained.judge(probes[0]!, HTML_SOURCE).label).toBe('HR');
    const r2 = createStrategy('fc-r2');
    train(r2);
    expect(r2.judge(probes[2]!, HTML_SOURCE).label).toBe('R');
  });

  it('restore(null) forgets; a snapshot of another strategy is refused', () => {
    const s = createStrategy('fc-r+hr');
    train(s);
    s.restore(null);
    expect(s.judge(probes[0]!, HTML_SOURCE).label).toBe('H');
    const other = createStrategy('fc-r2').snapshot();
    expect(() => s.restore(other)).toThrow(RdfscoutError);
    try {
      s.restore(other);
    } catch (err) {
      expect((err as RdfscoutError).code).toBe('RDFSCOUT_RESUME_CONFLICT');
    }
  });
});
