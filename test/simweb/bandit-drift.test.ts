// The changing site sets of the bandit: breadth-first page order, the four shapes, determinism by seed.
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/random/prng.ts';
import { buildSequenceSite } from '../../src/simweb/profiles/bandit-drift.ts';
import { SiteBuilder } from '../../src/simweb/site-graph.ts';
import { buildWeb, linksOf, modelSource, siteSequence, truthForUrl } from '../../src/simweb/index.ts';

/** Per site of a set: its external links per page in breadth-first order (what a breadth-first crawl sees). */
function sequences(profile: string, seed: number): number[][] {
  const model = buildWeb({ profiles: profile, seed });
  const source = modelSource(model);
  return model.sites.map((s) => siteSequence(source, s.startUrl, Number.POSITIVE_INFINITY, 100_000));
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const rate = (xs: readonly number[], from: number, to: number) => sum(xs.slice(from, to)) / Math.max(1, xs.slice(from, to).length);

describe('buildSequenceSite', () => {
  it('numbers pages in breadth-first order: a breadth-first crawl meets page j as the j-th page, with countOf(j) links', () => {
    const b = new SiteBuilder();
    buildSequenceSite(b, new Prng(5), 300, (j) => j % 7);
    const built = b.finish();
    expect(built.docs.length).toBe(300);
    const depths = built.docs.map((d) => d.depth);
    expect(depths).toEqual([...depths].sort((x, y) => x - y));
    const model = buildWeb({ profiles: 'bandit-many', seed: 1 });
    const site = model.sites[0]!;
    // The generated sites obey the same order: the sequence read through served links is the docs' order.
    const seq = siteSequence(modelSource(model), site.startUrl, Number.POSITIVE_INFINITY, 100_000);
    expect(seq).toEqual(site.docs.map((d) => d.external));
    expect(built.docs.map((d) => d.external)).toEqual(built.docs.map((_, j) => j % 7));
    expect(linksOf(model, site.startUrl).length).toBeGreaterThan(3);
    expect(truthForUrl(model, site.startUrl)?.externalLinks ?? 0).toBe(site.docs[0]!.external);
  });
});

describe('changing site sets', () => {
  it('are deterministic by seed and differ between seeds', () => {
    // Pages are numbered in breadth-first order (tested above), so the docs' counts are the sequences.
    const counts = (p: string, seed: number) => buildWeb({ profiles: p, seed }).sites.map((s) => s.docs.map((d) => d.external));
    for (const p of ['bandit-late', 'bandit-dry', 'bandit-rich', 'bandit-many']) {
      const three = counts(p, 3); // three builds, not four: each build is a whole site set
      expect(counts(p, 3)).toEqual(three);
      expect(counts(p, 4)).not.toEqual(three);
    }
  });

  it('(a) late start: some sites pay nothing for their first 100 pages, then more per page than any early payer', () => {
    const seqs = sequences('bandit-late', 2);
    expect(seqs.length).toBe(10);
    const late = seqs.filter((s) => sum(s.slice(0, 100)) === 0);
    const early = seqs.filter((s) => sum(s.slice(0, 100)) > 0);
    expect(late.length).toBeGreaterThanOrEqual(2);
    expect(early.length).toBeGreaterThanOrEqual(2);
    const lateRates = late.map((s) => rate(s, s.findIndex((x) => x > 0) + 50, s.length));
    expect(Math.max(...lateRates)).toBeGreaterThan(Math.max(...early.map((s) => rate(s, 0, s.length))));
  });

  it('(b) drying up: most sites pay well on their first 20 pages and almost nothing after page 300', () => {
    const seqs = sequences('bandit-dry', 2);
    const drying = seqs.filter((s) => rate(s, 0, 20) >= 0.8 && rate(s, 300, s.length) < 0.1);
    expect(drying.length).toBeGreaterThanOrEqual(4);
    const steady = seqs.filter((s) => !drying.includes(s));
    for (const s of steady) expect(rate(s, 300, s.length)).toBeGreaterThan(0.1);
  });

  it('(c) a few rich among poor: the richest sites pay ten times the median', () => {
    let rich = 0;
    for (const seed of [1, 2, 3]) {
      const rates = sequences('bandit-rich', seed).map((s) => rate(s, 0, s.length)).sort((a, b) => a - b);
      expect(rates.length).toBe(12);
      const median = rates[6]!;
      expect(median).toBeLessThan(0.3);
      rich += rates.filter((r) => r > 10 * median && r > 1.2).length;
    }
    expect(rich).toBeGreaterThanOrEqual(2); // ~0.2 × 12 per seed
    expect(rich).toBeLessThanOrEqual(18);
  });

  it('(d) many small sites with 1–8 external links each', () => {
    const seqs = sequences('bandit-many', 2);
    expect(seqs.length).toBe(40);
    for (const s of seqs) {
      expect(s.length).toBeGreaterThanOrEqual(30);
      expect(s.length).toBeLessThanOrEqual(140);
      expect(sum(s)).toBeGreaterThanOrEqual(1);
      expect(sum(s)).toBeLessThanOrEqual(8);
    }
  });
});
