import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { prefixOracle } from '../../src/bandit/prefix-oracle.ts';
import { buildWeb } from '../../src/simweb/index.ts';
import { drawSiteSet, expectedReward, REWARD_SHAPES, turnPage } from '../../src/simweb/profiles/generated-sets.ts';
import { externalLinksOf, modelSource, rdfDocumentOf, siteSequence } from '../../src/simweb/site-sequence.ts';

describe('generated site sets', () => {
  it('are a function of their seed: the same seed builds the same web, another seed another', () => {
    const a = buildWeb({ profiles: 'generated-5', seed: 5, scale: 0.02 });
    const b = buildWeb({ profiles: 'generated-5', seed: 5, scale: 0.02 });
    const c = buildWeb({ profiles: 'generated-6', seed: 6, scale: 0.02 });
    const shape = (w: typeof a) => w.sites.map((s) => s.docs.map((d) => `${d.path}:${d.kind}:${d.external}:${d.links.join(',')}`).join('|')).join('#');
    expect(shape(a)).toBe(shape(b));
    expect(shape(a)).not.toBe(shape(c));
    expect(drawSiteSet(5)).toEqual(drawSiteSet(5));
  });

  it('draw 5–60 PLDs, sizes from a few pages to tens of thousands, every shape of both rewards, and varied sites', () => {
    const sets = Array.from({ length: 40 }, (_, i) => drawSiteSet(i + 1));
    const counts = sets.map((s) => s.sites.length);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...counts)).toBeLessThanOrEqual(60);
    expect(Math.max(...counts) - Math.min(...counts)).toBeGreaterThan(30);
    const sites = sets.flatMap((s) => s.sites);
    expect(Math.min(...sites.map((s) => s.size))).toBeLessThan(10);
    expect(Math.max(...sites.map((s) => s.size))).toBeGreaterThan(10_000);
    for (const shape of REWARD_SHAPES) {
      expect(sites.some((s) => s.external.shape === shape), `external ${shape}`).toBe(true);
      expect(sites.some((s) => s.rdf.shape === shape), `rdf ${shape}`).toBe(true);
    }
    const rates = sites.map((s) => s.external.rate);
    expect(Math.min(...rates)).toBeLessThan(0.01);
    expect(Math.max(...rates)).toBeGreaterThan(1);
    expect(sites.some((s) => s.crawlDelay !== undefined) && sites.some((s) => s.crawlDelay === undefined)).toBe(true);
    expect(sites.some((s) => s.errorRate > 0) && sites.some((s) => s.slowShare > 0)).toBe(true);
    expect(new Set(sites.map((s) => s.fanout.join('-'))).size).toBeGreaterThan(10);
  });

  it('serve what they drew: a late site pays nothing before its turn, and the oracle of a set is computed', () => {
    const web = buildWeb({ profiles: 'generated-3', seed: 3, scale: 0.05 });
    const source = modelSource(web);
    const budget = 400;
    for (const [rewardOf, name] of [[externalLinksOf, 'external'], [rdfDocumentOf, 'rdf']] as const) {
      const seqs = web.sites.map((s) => siteSequence(source, s.startUrl, Number.POSITIVE_INFINITY, budget, rewardOf));
      const oracle = prefixOracle(seqs, budget);
      // Round-robin over the same sequences: the oracle is never below it, nor above the best `budget` fetches anywhere.
      let rr = 0;
      for (let t = 0, spent = 0; spent < budget && seqs.some((q) => q.length > t); t++) {
        for (const q of seqs) {
          if (t < q.length && spent < budget) {
            rr += q[t]!;
            spent++;
          }
        }
      }
      const top = seqs.flat().sort((x, y) => y - x).slice(0, budget).reduce((x, y) => x + y, 0);
      expect(oracle, name).toBeGreaterThanOrEqual(rr);
      expect(oracle, name).toBeLessThanOrEqual(top);
      expect(oracle, name).toBeGreaterThan(0);
    }
    // A set with a late-paying site of a few hundred pages: pages before the turn carry no external link.
    const seed = Array.from({ length: 200 }, (_, k) => k + 1).find((k) => drawSiteSet(k).sites.some((s) => s.external.shape === 'late' && s.size > 200 && s.size < 3000))!;
    const set = drawSiteSet(seed);
    const lateWeb = buildWeb({ profiles: `generated-${seed}`, seed, scale: 1 });
    let checked = 0;
    for (const [i, site] of set.sites.entries()) {
      if (site.external.shape !== 'late' || site.size <= 200 || site.size >= 3000) continue;
      const model = lateWeb.sites[i]!;
      const htmlPages = model.docs.filter((d) => d.kind === 'html' && d.path.includes('page-'));
      for (const d of htmlPages) {
        const j = Number(/page-(\d+)/.exec(d.path)![1]);
        if (j < turnPage(site.external, site.size)) expect(d.external).toBe(0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('turn late and dry sites within the site as built, so that they turn at --scale 0.1 too', () => {
    const scale = 0.1;
    const built = (size: number) => Math.max(Math.min(30, size), Math.round(size * scale));
    let late = 0;
    let dry = 0;
    let paid = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const set = drawSiteSet(seed);
      const web = buildWeb({ profiles: `generated-${seed}`, seed, scale });
      const source = modelSource(web);
      for (const [i, site] of set.sites.entries()) {
        const n = built(site.size);
        if (site.size * scale < 40) continue;
        const plan = site.external;
        if (plan.shape === 'late') {
          late++;
          // Nothing before the turn, the full rate on the last page.
          expect(expectedReward(plan, 0, n)).toBe(0);
          expect(expectedReward(plan, n - 1, n), `set ${seed} site ${site.short}`).toBe(plan.rate);
          if (plan.rate >= 0.5) {
            const seq = siteSequence(source, web.sites[i]!.startUrl, Number.POSITIVE_INFINITY, n, externalLinksOf);
            const turn = turnPage(plan, n);
            expect(seq.slice(0, turn).reduce((a, b) => a + b, 0)).toBe(0);
            expect(seq.slice(turn).reduce((a, b) => a + b, 0), `set ${seed} site ${site.short} pays after page ${turn}`).toBeGreaterThan(0);
            paid++;
          }
        }
        if (plan.shape === 'dry') {
          dry++;
          expect(expectedReward(plan, 0, n)).toBe(plan.rate);
          expect(expectedReward(plan, n - 1, n), `set ${seed} site ${site.short}`).toBeCloseTo(plan.rate * 0.02);
        }
      }
    }
    expect(late).toBeGreaterThan(5);
    expect(dry).toBeGreaterThan(5);
    expect(paid).toBeGreaterThan(2);
  });

  it('split tuning and evaluation seeds that do not overlap', () => {
    const split = JSON.parse(readFileSync(new URL('../../bench/bandit-seeds.json', import.meta.url), 'utf8')) as Record<string, number[]>;
    // Every split in the file: a split added later (evaluation-3, …) is checked without naming it here.
    const names = Object.keys(split).filter((k) => Array.isArray(split[k]));
    expect(names).toEqual(expect.arrayContaining(['tuning', 'evaluation', 'evaluation-2', 'evaluation-3']));
    const lists = names.map((k) => split[k]!);
    for (const k of names.filter((n) => n.startsWith('evaluation'))) expect(split[k]!.length, k).toBeGreaterThanOrEqual(30);
    const all = lists.flat();
    expect(new Set(all).size).toBe(all.length);
  });
});
