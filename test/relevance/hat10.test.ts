import { describe, expect, it } from 'vitest';
import { hat10Distance, isHat10Similar } from '../../src/relevance/hat10.ts';
import { ParentSet } from '../../src/relevance/relevancy-hr.ts';
import { parseUrlParts } from '../../src/relevance/url-parts.ts';

const d = (i: string, j: string) => hat10Distance(parseUrlParts(i), parseUrlParts(j));

describe('[Hat10] URL distance (thesis §10)', () => {
  it('is 0 for the same URL', () => {
    expect(d('http://a.org/x/y', 'http://a.org/x/y')).toEqual({ dHost: 0, dPath: 0, dQuery: 0, dUrl: 0 });
  });
  it('is 1 when only the query differs: (1)(1)(2) − 1', () => {
    expect(d('http://a.org/x?p=1', 'http://a.org/x?p=2').dUrl).toBe(1);
    expect(isHat10Similar(parseUrlParts('http://a.org/x?p=1'), parseUrlParts('http://a.org/x?p=2'))).toBe(true);
  });
  it('one differing last segment: dPath = 2, dURL = 2 (not similar, unlike r1)', () => {
    expect(d('http://a.org/members/member1/', 'http://a.org/members/member2/')).toEqual({ dHost: 0, dPath: 2, dQuery: 0, dUrl: 2 });
    expect(isHat10Similar(parseUrlParts('http://a.org/members/member1/'), parseUrlParts('http://a.org/members/member2/'))).toBe(false);
  });
  it('extra segments cost 4 each: /a/b/c vs /a → k = 0, n − m = 2, dPath = 8', () => {
    expect(d('http://a.org/a/b/c', 'http://a.org/a').dPath).toBe(8);
  });
  it('different hosts: (33)(1)(1) − 1 = 32; with a query difference too: 33·2 − 1 = 65', () => {
    expect(d('http://a.org/x', 'http://b.org/x').dUrl).toBe(32);
    expect(d('http://a.org/x?q', 'http://b.org/x').dUrl).toBe(65);
  });
  it('combines all three: (33)(2·1+1)(2) − 1 = 197', () => {
    expect(d('http://a.org/m/1?q', 'http://b.org/m/2').dUrl).toBe(197);
  });
  it('the parent-set lookup agrees with dURL ≤ 1 on a sample', () => {
    const urls = ['http://a.org/', 'http://a.org/?x', 'http://a.org/m/1', 'http://a.org/m/1?z', 'http://a.org/m/2', 'http://b.org/m/1', 'http://a.org/m'];
    for (const known of urls) {
      const set = new ParentSet();
      set.add(known);
      for (const candidate of urls) {
        const expected = isHat10Similar(parseUrlParts(candidate), parseUrlParts(known));
        expect(set.hasSameHostAndPath(parseUrlParts(candidate)), `${candidate} vs ${known}`).toBe(expected);
      }
    }
  });
});
