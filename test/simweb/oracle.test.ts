// The oracle curve on hand-built webs whose optimum is known, and on a generated one.
import { describe, expect, it } from 'vitest';
import { oracleCurve, type OracleSource, startSimweb, type TruthRecord } from '../../src/simweb/index.ts';
import { tinyWeb } from './tiny-web.ts';

describe('oracleCurve', () => {
  it('fetches only what leads to RDF, cheapest first', () => {
    // / → a (HR: r1, r2, r3), / → b → c (HR: r4), / → d (H: nothing), / → e.rdf (R at depth 1).
    const web = tinyWeb({
      '/': ['H', ['/a', '/b', '/d', '/e.rdf']],
      '/a': ['HR', ['/r1', '/r2', '/r3']],
      '/b': ['H', ['/c']],
      '/c': ['HR', ['/r4']],
      '/d': ['H', ['/x']],
      '/x': ['H', []],
      '/e.rdf': ['R', []],
      '/r1': ['R', []],
      '/r2': ['R', []],
      '/r3': ['R', []],
      '/r4': ['R', []],
    });
    // Optimum: / (0), e.rdf (1), a (1), r1 r2 r3 (4), b, c (4), r4 (5); then nothing more.
    expect(oracleCurve(web, 12)).toEqual([0, 0, 1, 1, 2, 3, 4, 4, 4, 5, 5, 5, 5]);
  });

  it('follows redirects, skips disallowed and failed pages', () => {
    const web = tinyWeb({
      '/': ['H', ['/private', '/res', '/gone']],
      '/private': ['HR', ['/p.rdf'], { disallowed: true }],
      '/p.rdf': ['R', []],
      '/gone': ['N', ['/g.rdf'], { status: 404 }],
      '/g.rdf': ['R', []],
      '/res': ['R', [], { status: 303, redirectTo: 'http://t.org/res.rdf' }],
      '/res.rdf': ['R', []],
    });
    // A fetch follows the 303 by itself: fetching /res yields /res.rdf (2 fetches: / then /res).
    expect(oracleCurve(web, 5)).toEqual([0, 0, 1, 1, 1, 1]);
    expect(oracleCurve(web, 5, { respectRobots: false })).toEqual([0, 0, 1, 1, 2, 2]);
    // A crawler that queues redirect targets pays for the hop.
    expect(oracleCurve(web, 5, { followsRedirects: false })).toEqual([0, 0, 0, 1, 1, 1]);
    expect(oracleCurve(web, 5, { respectRobots: false, followsRedirects: false })).toEqual([0, 0, 0, 1, 1, 2]);
  });

  it('matches a brute-force optimum on small webs where hubs differ in size', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const pages: Record<string, [TruthRecord['label'], string[]]> = { '/': ['H', ['/e.rdf']], '/e.rdf': ['R', []] };
      for (let h = 0; h < 3; h++) {
        pages['/']?.[1].push(`/h${h}`);
        const kids = Array.from({ length: seed + h }, (_, i) => `/h${h}/r${i}.rdf`);
        pages[`/h${h}`] = ['HR', kids];
        for (const k of kids) pages[k] = ['R', []];
      }
      const web = tinyWeb(pages);
      const maxK = Object.keys(pages).length;
      expect(oracleCurve(web, maxK)).toEqual(bruteForce(web, maxK));
    }
  });

  it('goes for a hub three fetches away before a chain that costs two per RDF document (densest first)', () => {
    // / → deep1 (d1.rdf, deep2 → d2.rdf, deep3 → d3.rdf): each RDF costs 2; / → sec → list → r1…r5: 3, then 1 each.
    const web = tinyWeb({
      '/': ['H', ['/deep1', '/sec']],
      '/deep1': ['HR', ['/d1.rdf', '/deep2']],
      '/deep2': ['HR', ['/d2.rdf', '/deep3']],
      '/deep3': ['HR', ['/d3.rdf']],
      '/d1.rdf': ['R', []],
      '/d2.rdf': ['R', []],
      '/d3.rdf': ['R', []],
      '/sec': ['H', ['/list']],
      '/list': ['HR', ['/r1', '/r2', '/r3', '/r4', '/r5']],
      '/r1': ['R', []],
      '/r2': ['R', []],
      '/r3': ['R', []],
      '/r4': ['R', []],
      '/r5': ['R', []],
    });
    const curve = oracleCurve(web, 14);
    expect(curve[3]).toBe(1); // cheapest first: /, deep1, d1
    expect(curve[8]).toBe(5); // densest first: /, sec, list, r1…r5
    expect(curve).toEqual(bruteForce(web, 14));
  });

  it('counts a page linked from any fetched page at one fetch, not only along its BFS tree path', () => {
    // r.rdf's BFS parent is /a (listed first), but /b, fetched for b.rdf, links it too: after /b it costs 1.
    const web = tinyWeb({
      '/': ['H', ['/a', '/b']],
      '/a': ['H', ['/r.rdf']],
      '/b': ['HR', ['/b1.rdf', '/b2.rdf', '/r.rdf']],
      '/b1.rdf': ['R', []],
      '/b2.rdf': ['R', []],
      '/r.rdf': ['R', []],
    });
    expect(oracleCurve(web, 5)).toEqual([0, 0, 0, 1, 2, 3]);
  });

  it('on a generated rossetti-like site, about one RDF every two fetches', async () => {
    const web = await startSimweb({ profiles: 'rossetti-like', seed: 2, scale: 0.2 });
    try {
      const curve = oracleCurve(web, 400);
      const rdf = web.truth().filter((r) => r.label === 'R').length;
      expect(curve).toHaveLength(401);
      expect(curve[400]).toBeLessThanOrEqual(rdf);
      expect(curve[400]).toBeGreaterThan(150); // path: index page + RDF, after a few shared pages
    } finally {
      await web.close();
    }
  });
});

/** Best RDF count for every k over all root-closed fetch sets (exponential: tiny webs only). */
function bruteForce(web: OracleSource, maxK: number): number[] {
  const recs = [...web.truth()];
  const idx = new Map(recs.map((r, i) => [r.url, i]));
  const parentOf = recs.map(() => -1);
  for (const r of recs) for (const l of web.links(r.url)) parentOf[idx.get(l) as number] = idx.get(r.url) as number;
  const best = Array.from({ length: maxK + 1 }, () => 0);
  for (let mask = 0; mask < 1 << recs.length; mask++) {
    let ok = true;
    let size = 0;
    let goals = 0;
    for (let i = 0; i < recs.length && ok; i++) {
      if (!(mask & (1 << i))) continue;
      size++;
      if (recs[i]?.label === 'R') goals++;
      const p = parentOf[i] as number;
      if (p >= 0 ? !(mask & (1 << p)) : recs[i]?.url !== web.sites[0]?.startUrl) ok = false;
    }
    if (ok && size <= maxK) best[size] = Math.max(best[size] as number, goals);
  }
  for (let k = 1; k <= maxK; k++) best[k] = Math.max(best[k] as number, best[k - 1] as number);
  return best;
}
