// What will stop the crawl, and when (pure).
import { describe, expect, it } from 'vitest';
import { predictStop } from '../../src/dashboard/index.ts';

describe('predictStop', () => {
  it('is the budget at the current pace while the frontier grows', () => {
    const series = [0, 1, 2].map((i) => ({ t: i * 1000, queued: 100 + i * 50, crawled: i * 10 }));
    expect(predictStop({ spent: 100, maxDocs: 1000, rate: 10, series })).toEqual({ by: 'budget', etaSeconds: 90, budgetLeft: 900 });
  });
  it('is the frontier when queued URLs fall faster than the budget runs out', () => {
    const series = [0, 1, 2].map((i) => ({ t: i * 1000, queued: 100 - i * 20, crawled: i * 10 }));
    expect(predictStop({ spent: 100, maxDocs: 10_000, rate: 10, series })).toEqual({ by: 'frontier', etaSeconds: 3, budgetLeft: 9900 });
  });
  it('cannot tell before anything is fetched', () => {
    expect(predictStop({ spent: 0, maxDocs: 1000, rate: 0, series: [] }).by).toBe('unknown');
  });
});
