import { describe, expect, it } from 'vitest';
import { ParentSet, compareUrlParts, matchesR1, matchesR2 } from '../../src/relevance/relevancy-hr.ts';
import { parseUrlParts } from '../../src/relevance/url-parts.ts';

const cmp = (i: string, j: string) => compareUrlParts(parseUrlParts(i), parseUrlParts(j));

describe('sHost / sPath and n, m, k, x (thesis §5)', () => {
  it('computes the states and counts, swapping so n ≥ m', () => {
    expect(cmp('http://a.org/members/member1/', 'http://a.org/members/member2/')).toEqual({ sHost: '=', sPath: '#', n: 2, m: 2, k: 1, x: 1 });
    expect(cmp('http://a.org/x', 'http://a.org/p/q/r')).toEqual({ sHost: '=', sPath: '#', n: 3, m: 1, k: 1, x: 0 });
    expect(cmp('http://a.org/', 'http://b.org/')).toMatchObject({ sHost: '#', sPath: 'n', n: 0, m: 0, k: 0, x: -1 });
    expect(cmp('http://a.org/', 'http://a.org/p')).toMatchObject({ sPath: '#n' });
    expect(cmp('http://a.org/p/q', 'http://a.org/p/q?z=1')).toMatchObject({ sPath: '=', k: 0 });
  });
});

describe('rule r1 (thesis §5)', () => {
  const r1 = (i: string, j: string) => matchesR1(cmp(i, j));
  it('thesis example: /members/member1/ vs /members/member2/ are similar', () => {
    expect(r1('http://a.org/members/member1/', 'http://a.org/members/member2/')).toBe(true);
  });
  it('thesis example: /members/ vs /news/ are not (n = 1)', () => {
    expect(r1('http://a.org/members/', 'http://a.org/news/')).toBe(false);
  });
  it('counts the file name as a segment', () => {
    expect(r1('http://a.org/people/alice.html', 'http://a.org/people/bob.html')).toBe(true);
  });
  it('needs the same host', () => {
    expect(r1('http://a.org/members/member1/', 'http://b.org/members/member2/')).toBe(false);
  });
  it('needs the difference in the last segment only, with n = m', () => {
    expect(r1('http://a.org/x/members/m1', 'http://a.org/y/members/m1')).toBe(false); // x = 0
    expect(r1('http://a.org/x/m/1', 'http://a.org/y/m/2')).toBe(false); // k = 2
    expect(r1('http://a.org/members/m1/extra', 'http://a.org/members/m2')).toBe(false); // n ≠ m
  });
  it('does not apply to equal or null paths', () => {
    expect(r1('http://a.org/members/m1', 'http://a.org/members/m1')).toBe(false);
    expect(r1('http://a.org/', 'http://a.org/')).toBe(false);
    expect(r1('http://a.org/', 'http://a.org/members/m1')).toBe(false);
  });
});

describe('rule r2 (thesis §5)', () => {
  const r2 = (i: string, j: string) => matchesR2(cmp(i, j));
  it('same host and path, differing only in the query', () => {
    expect(r2('http://a.org/list.php?page=1', 'http://a.org/list.php?page=2')).toBe(true);
    expect(r2('http://a.org/list.php', 'http://a.org/list.php?page=2')).toBe(true);
  });
  it('not for different paths or hosts', () => {
    expect(r2('http://a.org/list.php?page=1', 'http://a.org/other.php?page=1')).toBe(false);
    expect(r2('http://a.org/list.php?page=1', 'http://b.org/list.php?page=1')).toBe(false);
  });
  it('not for two null paths (sPath is n, not =)', () => {
    expect(r2('http://a.org/?p=1', 'http://a.org/?p=2')).toBe(false);
  });
});

describe('ParentSet C_HR(t)', () => {
  it('starts empty and answers nothing', () => {
    const set = new ParentSet();
    expect(set.size).toBe(0);
    expect(set.similarityRules(parseUrlParts('http://a.org/members/m1'))).toEqual([]);
  });

  it('learns through a sequence of additions and applies r1/r2 to new links', () => {
    const set = new ParentSet();
    expect(set.add('http://a.org/members/member1/')).toBe(true);
    expect(set.add('http://a.org/members/member1/')).toBe(false);
    expect(set.similarityRules(parseUrlParts('http://a.org/members/member2/'))).toEqual(['r1']);
    expect(set.similarityRules(parseUrlParts('http://a.org/news/'))).toEqual([]);
    expect(set.similarityRules(parseUrlParts('http://b.org/members/member2/'))).toEqual([]);
    expect(set.similarityRules(parseUrlParts('http://a.org/members/member1/?tab=2'))).toEqual(['r2']);
    set.add('http://a.org/list.php?page=1');
    expect(set.similarityRules(parseUrlParts('http://a.org/list.php?page=7'))).toEqual(['r2']);
    set.add('http://a.org/members/member3/');
    // member1 and member3 known: a link to member1 with a query is r2 (same path) and r1 (vs member3).
    expect(set.similarityRules(parseUrlParts('http://a.org/members/member1/?x'))).toEqual(['r1', 'r2']);
    expect(set.size).toBe(3);
  });

  it('never matches null paths by r1/r2', () => {
    const set = new ParentSet();
    set.add('http://a.org/');
    expect(set.similarityRules(parseUrlParts('http://a.org/?q=1'))).toEqual([]);
    expect(set.hasSameHostAndPath(parseUrlParts('http://a.org/?q=1'))).toBe(true);
  });

  it('agrees with the pairwise rules on every pair of a URL sample', () => {
    const urls = [
      'http://a.org/',
      'http://a.org/?x=1',
      'http://a.org/m/',
      'http://a.org/n/',
      'http://a.org/m/1',
      'http://a.org/m/2',
      'http://a.org/m/1?q',
      'http://a.org/m/1/x',
      'http://a.org/k/1',
      'http://b.org/m/1',
      'http://a.org/m/2/x',
    ];
    for (const known of urls) {
      const set = new ParentSet();
      set.add(known);
      for (const candidate of urls) {
        const c = cmp(candidate, known);
        const expected = [...(matchesR1(c) ? ['r1'] : []), ...(matchesR2(c) ? ['r2'] : [])];
        expect(set.similarityRules(parseUrlParts(candidate)), `${candidate} vs ${known}`).toEqual(expected);
      }
    }
  });

  // Its speed at this size is a benchmark's business (no wall-clock assert here); the answers must hold at scale.
  it('round-trips through JSON and answers every lookup among tens of thousands of parents', () => {
    const set = new ParentSet();
    for (let i = 0; i < 30_000; i++) set.add(`http://h${i % 50}.org/section${i % 7}/page${i}.html`);
    const copy = ParentSet.fromJSON(JSON.parse(JSON.stringify(set)));
    expect(copy.size).toBe(30_000);
    const answers = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      const rules = copy.similarityRules(parseUrlParts(`http://h${i % 50}.org/section${i % 7}/other${i}.html`)).join(',');
      answers.set(rules, (answers.get(rules) ?? 0) + 1);
    }
    expect(answers).toEqual(new Map([['r1', 10_000]])); // a sibling page of a known parent in every section
    expect(copy.similarityRules(parseUrlParts('http://h3.org/section3/new.html'))).toEqual(['r1']);
    expect(copy.similarityRules(parseUrlParts('http://h3.org/nosuch/new.html'))).toEqual([]);
  });
});
