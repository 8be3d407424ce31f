// Per-pattern yield (the same learning key as C_HR, thesis §5): pure model and strategy wrapper.
import { describe, expect, it } from 'vitest';
import type { LinkFeatures } from '../../src/links/types.ts';
import { createStrategy } from '../../src/strategies/index.ts';
import { BARREN_AFTER, BARREN_PENALTY, PatternYield, patternOf, withPatternYield } from '../../src/relevance/pattern-yield.ts';
import type { FetchedDocument, Strategy } from '../../src/relevance/types.ts';

const doc = (url: string, type: FetchedDocument['type'], parent: string | null = 'http://a.org/report'): FetchedDocument => ({
  url,
  finalUrl: url,
  parent,
  status: 200,
  type,
  contentType: null,
  label: 'H',
  rules: [],
});
const link = (url: string): LinkFeatures => ({ url, tag: 'a', anchor: '', title: '', type: '', rel: '', context: '' });
const HTML_SOURCE = { url: 'http://a.org/report', depth: 0, type: 'html' as const };

describe('patternOf', () => {
  it('keeps host, directory and extension; drops the file name, fragment and query values', () => {
    expect(patternOf('http://a.org/tests/t-01.ttl')).toBe('a.org/tests/*.ttl');
    expect(patternOf('http://a.org/tests/t-02.TTL#x')).toBe('a.org/tests/*.ttl');
    expect(patternOf('http://a.org/tests/manifest')).toBe('a.org/tests/*');
    expect(patternOf('http://a.org:8080/q?id=3')).toBe('a.org:8080/*?');
    expect(patternOf('http://a.org/tests/sub/x')).not.toBe(patternOf('http://a.org/tests/x'));
  });
});

describe('PatternYield', () => {
  it('a pattern is barren after BARREN_AFTER fetches with no RDF and no RDF parent', () => {
    const y = new PatternYield();
    for (let i = 0; i < BARREN_AFTER - 1; i++) y.learn(doc(`http://a.org/tests/t${i}`, 'html'));
    expect(y.isBarren('http://a.org/tests/next')).toBe(false);
    y.learn(doc('http://a.org/tests/last', 'other'));
    expect(y.isBarren('http://a.org/tests/next')).toBe(true);
    expect(y.isBarren('http://a.org/data/x')).toBe(false); // unknown pattern: no verdict
  });

  it('RDF in the pattern, or an RDF document found from a page of it, makes it fertile again', () => {
    const y = new PatternYield();
    for (let i = 0; i < BARREN_AFTER; i++) y.learn(doc(`http://a.org/pages/p${i}`, 'html'));
    expect(y.isBarren('http://a.org/pages/p99')).toBe(true);
    y.learn(doc('http://a.org/data/d.ttl', 'rdf', 'http://a.org/pages/p3')); // p3 was an RDF parent
    expect(y.isBarren('http://a.org/pages/p99')).toBe(false);
    expect(PatternYield.fromJSON(y.toJSON()).countsOf('http://a.org/pages/x')).toEqual({ fetched: BARREN_AFTER, yielded: 1 });
  });
});

describe('withPatternYield', () => {
  it('sends links of a barren pattern back, when judged and when their queued turn comes, once', () => {
    const s = withPatternYield(createStrategy('fc-r+hr'));
    const before = s.judge(link('http://a.org/tests/t50'), HTML_SOURCE);
    for (let i = 0; i < BARREN_AFTER; i++) s.learn(doc(`http://a.org/tests/t${i}`, 'html'));
    const after = s.judge(link('http://a.org/tests/t51'), HTML_SOURCE);
    expect(after.label).toBe(before.label);
    expect(after.priority).toBe((before.priority as number) + BARREN_PENALTY);
    expect(after.rules).toContain('barren');
    expect(s.reprioritise?.({ url: 'http://a.org/tests/t50', priority: 3, rules: [] })).toBe(3 + BARREN_PENALTY);
    expect(s.reprioritise?.({ url: 'http://a.org/tests/t50', priority: 8, rules: ['barren'] })).toBeNull();
    expect(s.reprioritise?.({ url: 'http://a.org/data/x', priority: 3, rules: [] })).toBeNull();
  });

  it('asks the inner strategy when the pattern is not barren (the yield strategy re-estimates), once', () => {
    const asked: string[] = [];
    const base = createStrategy('fc-r+hr');
    const inner: Strategy = {
      name: 'inner',
      seedPriority: 0,
      judge: (l, src) => base.judge(l, src),
      learn: (d) => base.learn(d),
      snapshot: () => base.snapshot(),
      restore: (x) => base.restore(x),
      reprioritise: (e) => {
        asked.push(e.url);
        return 7;
      },
    };
    const s = withPatternYield(inner);
    expect(s.reprioritise?.({ url: 'http://a.org/data/x', priority: 3, rules: [] })).toBe(7);
    expect(s.reprioritise?.({ url: 'http://a.org/data/y', priority: 7, rules: ['barren'] })).toBeNull();
    expect(asked).toEqual(['http://a.org/data/x']);
  });

  it('round-trips its model through snapshot/restore with the inner strategy’s state, and leaves bfs alone', () => {
    const s = withPatternYield(createStrategy('topical'));
    for (let i = 0; i < BARREN_AFTER; i++) s.learn(doc(`http://a.org/tests/t${i}`, 'html'));
    const copy = withPatternYield(createStrategy('topical'));
    copy.restore(JSON.parse(JSON.stringify(s.snapshot())));
    expect(copy.reprioritise?.({ url: 'http://a.org/tests/t9', priority: 3, rules: [] })).toBe(3 + BARREN_PENALTY);
    expect(typeof copy.observePage).toBe('function');
    const bfs = createStrategy('bfs');
    expect(withPatternYield(bfs)).toBe(bfs);
  });
});
