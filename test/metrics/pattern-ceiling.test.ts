// The pattern ceiling: URL templates and the best precision a URL-pattern predictor reaches.
import { describe, expect, it } from 'vitest';
import { type CeilingItem, patternCeiling, urlTemplate } from '../../src/metrics/pattern-ceiling.ts';
import { buildWeb, truthRecords } from '../../src/simweb/index.ts';

describe('urlTemplate', () => {
  it('generalises the file name, numbered segments and query values', () => {
    expect(urlTemplate('http://u.edu/people/mary-walsh-3/foaf.rdf')).toBe('u.edu/people/{x}/{x}.rdf');
    expect(urlTemplate('http://u.edu/people/mary-walsh-3')).toBe('u.edu/people/{x}');
    expect(urlTemplate('http://d.org/dataset?tags=ontologies&page=2')).toBe('d.org/{x}?tags={x}&page={x}');
    expect(urlTemplate('http://d.org/departments/law/people')).toBe('d.org/departments/law/{x}');
    expect(urlTemplate('http://d.org/~ann-3/')).toBe('d.org/{x}/');
    expect(urlTemplate('not a url')).toBe('not a url');
  });
});

describe('patternCeiling', () => {
  const page = (url: string, label: CeilingItem['label'], ok = true): CeilingItem => ({ url, label, ok });
  // Template a/{x}: 3 of 4 HR; template b/{x}: 1 of 4 HR; an R file and a failed page are not HTML candidates.
  const items = [
    page('http://s.org/a/1', 'HR'),
    page('http://s.org/a/2', 'HR'),
    page('http://s.org/a/3', 'HR'),
    page('http://s.org/a/4', 'H'),
    page('http://s.org/b/1', 'HR'),
    page('http://s.org/b/2', 'H'),
    page('http://s.org/b/3', 'H'),
    page('http://s.org/b/4', 'H'),
    page('http://s.org/f/1.rdf', 'R'),
    page('http://s.org/a/5', 'HR', false),
  ];

  it('takes the templates with the highest HR share first, the last one partly', () => {
    expect(patternCeiling(items, 'HR', 4)).toMatchObject({ n: 4, precision: 0.75, base: 0.5, pages: 8, templates: 2 });
    expect(patternCeiling(items, 'HR', 6)?.precision).toBeCloseTo((3 + 0.5) / 6, 10);
    expect(patternCeiling(items, 'HR', 100)).toMatchObject({ n: 8, precision: 0.5 });
    expect(patternCeiling(items, 'HR', 0).precision).toBeNull();
  });

  it('for R, every successfully fetched URL is a candidate', () => {
    const r = patternCeiling(items, 'R', 1);
    expect(r).toMatchObject({ n: 1, precision: 1, pages: 9, templates: 3 });
    expect(r.base).toBeCloseTo(1 / 9, 10);
  });

  it('on a simulated web, the ceiling is at least the base rate and at most 1, and falls as n grows', () => {
    const web = buildWeb({ profiles: 'university-like', seed: 2, scale: 0.2 });
    const truth = [...truthRecords(web)].map((t) => ({ url: t.url, label: t.label, ok: t.status === 200 }));
    const small = patternCeiling(truth, 'HR', 20);
    const large = patternCeiling(truth, 'HR', 400);
    expect(small.precision).toBeGreaterThan(large.precision as number);
    expect(large.precision).toBeGreaterThanOrEqual(large.base as number);
    expect(small.precision).toBeLessThanOrEqual(1);
  });
});
