import { describe, expect, it } from 'vitest';
import { RdfscoutError } from '../../src/errors.ts';
import { CrawlGraph } from '../../src/topical/crawl-graph.ts';
import { GraphScores } from '../../src/topical/graph-scores.ts';
import { computeHits } from '../../src/topical/hits.ts';
import { computePageRank } from '../../src/topical/page-rank.ts';

function graphOf(edges: Record<string, string[]>): CrawlGraph {
  const g = new CrawlGraph();
  for (const [from, to] of Object.entries(edges)) g.setPage(from, to);
  return g;
}

/** Exact PageRank by solving (I − (1−a)·S) x = (a/n)·1, S column-stochastic with dangling columns 1/n (Gaussian elimination). */
function exactPageRank(g: CrawlGraph, a: number): number[] {
  const n = g.size;
  const m = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  for (let i = 0; i < n; i++) {
    m[i]![i] = 1;
    m[i]![n] = a / n;
  }
  for (let u = 0; u < n; u++) {
    const out = g.outLinks(u);
    if (out.length === 0) for (let v = 0; v < n; v++) m[v]![u]! -= (1 - a) / n;
    else for (const v of out) m[v]![u]! -= (1 - a) / out.length;
  }
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

describe('CrawlGraph', () => {
  it('gives dense ids in discovery order, drops duplicate and self links, counts edges', () => {
    const g = graphOf({ 'http://a/': ['http://a/x', 'http://a/x', 'http://a/', 'http://a/y'] });
    expect(g.size).toBe(3);
    expect(g.idOf('http://a/x')).toBe(1);
    expect([...g.outLinks(0)]).toEqual([1, 2]);
    expect(g.edgeCount).toBe(2);
    g.setPage('http://a/', ['http://a/z']);
    expect(g.edgeCount).toBe(1);
    expect(g.isPage(1)).toBe(false);
  });
  it('round-trips through JSON', () => {
    const g = graphOf({ 'http://a/': ['http://a/x', 'http://a/y'], 'http://a/x': ['http://a/'] });
    const back = CrawlGraph.fromJSON(JSON.parse(JSON.stringify(g.toJSON())));
    expect(back.size).toBe(3);
    expect(back.edgeCount).toBe(3);
    expect([...back.outLinks(1)]).toEqual([0]);
    expect(back.urlOf(2)).toBe('http://a/y');
  });
});

describe('PageRank (topical §2)', () => {
  it('a 3-node cycle is uniform', () => {
    const { rank } = computePageRank(graphOf({ a: ['b'], b: ['c'], c: ['a'] }));
    for (const x of rank) expect(x).toBeCloseTo(1 / 3, 9);
  });
  it('A → B with B dangling: PR(A) = 1/(3 − a) by hand', () => {
    for (const a of [0.1, 0.15, 0.2]) {
      const { rank } = computePageRank(graphOf({ A: ['B'] }), { teleport: a, iterations: 200, tolerance: 1e-14 });
      expect(rank[0]).toBeCloseTo(1 / (3 - a), 10);
      expect(rank[1]).toBeCloseTo(1 - 1 / (3 - a), 10);
    }
  });
  it('a star (leaves ↔ centre): PR by hand from symmetry', () => {
    const g = graphOf({ l1: ['c'], l2: ['c'], l3: ['c'], l4: ['c'], c: ['l1', 'l2', 'l3', 'l4'] });
    const { rank } = computePageRank(g, { iterations: 500, tolerance: 1e-15 });
    // By symmetry leaves are equal x, centre y = a/5 + (1−a)·4x, 4x + y = 1  →  y = (a/5 + (1−a)) / (2 − a).
    const a = 0.15;
    const y = (a / 5 + (1 - a)) / (2 - a);
    expect(rank[g.idOf('c')!]).toBeCloseTo(y, 9);
    expect(rank[g.idOf('l1')!]).toBeCloseTo((1 - y) / 4, 9);
  });
  it('equals the exact solution of the linear system on an irregular graph with dangling nodes', () => {
    const g = graphOf({ a: ['b', 'c', 'd'], b: ['c'], c: ['a', 'e'], d: ['e', 'f'], e: ['a'] }); // f dangling
    const exact = exactPageRank(g, 0.15);
    const { rank } = computePageRank(g, { iterations: 300, tolerance: 1e-15 });
    for (const [i, x] of exact.entries()) expect(rank[i]).toBeCloseTo(x, 9);
    expect(rank.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
  });
  it('a warm start from the previous vector converges in fewer iterations after the graph grows', () => {
    const g = new CrawlGraph();
    for (let i = 0; i < 299; i++) g.setPage(`p${i}`, [`p${i + 1}`]); // a chain: slow to mix from uniform
    const first = computePageRank(g, { iterations: 500, tolerance: 1e-10 });
    g.setPage('p300', ['p0', 'p1']);
    const cold = computePageRank(g, { iterations: 500, tolerance: 1e-10 });
    const warm = computePageRank(g, { iterations: 500, tolerance: 1e-10, start: first.rank });
    expect(warm.iterations).toBeLessThan(cold.iterations);
    for (const [i, x] of warm.rank.entries()) expect(x).toBeCloseTo(cold.rank[i]!, 8);
  });
  it('refuses a teleport outside [0.1, 0.2]', () => {
    expect(() => computePageRank(graphOf({ a: ['b'] }), { teleport: 0.5 })).toThrow(RdfscoutError);
  });
});

describe('HITS (Kleinberg)', () => {
  it('a star: the centre is the only hub, the leaves the authorities', () => {
    const g = graphOf({ c: ['l1', 'l2', 'l3'] });
    const { hub, authority } = computeHits(g);
    expect([...hub]).toEqual([1, 0, 0, 0]);
    expect([...authority]).toEqual([0, 1, 1, 1]);
  });
  it('A → {X, Y}, B → X: authorities (1, 1/φ) and hubs (1, 1/φ), φ the golden ratio (eigenvectors of AᵀA, AAᵀ)', () => {
    const g = graphOf({ A: ['X', 'Y'], B: ['X'] });
    const { hub, authority } = computeHits(g, { iterations: 200, tolerance: 1e-14 });
    const invPhi = (Math.sqrt(5) - 1) / 2;
    expect(authority[g.idOf('X')!]).toBeCloseTo(1, 9);
    expect(authority[g.idOf('Y')!]).toBeCloseTo(invPhi, 9);
    expect(hub[g.idOf('A')!]).toBeCloseTo(1, 9);
    expect(hub[g.idOf('B')!]).toBeCloseTo(invPhi, 9);
    expect(authority[g.idOf('A')!]).toBe(0);
  });
});

describe('GraphScores schedule', () => {
  it('recomputes every k = max(50, 5% of pages) pages and scales scores to [0, 1]', () => {
    const g = new CrawlGraph();
    const s = new GraphScores(g);
    const at: number[] = [];
    for (let i = 0; i < 2199; i++) {
      g.setPage(`p${i}`, Array.from({ length: 3 }, (_, k) => `p${i * 3 + k + 1}`));
      if (s.notePage()) at.push(i + 1);
    }
    // Every 50 pages up to 1000, then when the pages since reach ⌈5% · P⌉: at P = 1053, 53 since and ⌈52.65⌉ = 53.
    expect(at.slice(0, 3)).toEqual([50, 100, 150]);
    expect(at[19]).toBe(1000);
    expect(at[20]).toBe(1053);
    for (let i = 21; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBe(Math.ceil(0.05 * at[i]!));
    expect(s.recomputes).toBe(at.length);
    expect(s.interval).toBe(Math.ceil(0.05 * 2199));
    expect(s.pageRank(g.idOf('p1'))).toBeGreaterThan(0);
    expect(s.pageRank(g.idOf('p1'))).toBeLessThanOrEqual(1);
    expect(Math.max(...Array.from({ length: g.size }, (_, i) => s.hub(i)))).toBe(1);
    expect(s.pageRank(g.idOf(`p${2198 * 3 + 1}`))).toBe(0); // not ranked yet (discovered after the last recompute)
    expect(s.pageRank(undefined)).toBe(0);
  });
  it('round-trips its vectors', () => {
    const g = graphOf({ a: ['b', 'c'], b: ['c'] });
    const s = new GraphScores(g);
    s.recompute();
    const t = new GraphScores(g);
    t.restoreFrom(JSON.parse(JSON.stringify(s.toJSON())));
    for (let i = 0; i < 3; i++) {
      expect(t.pageRank(i)).toBe(s.pageRank(i));
      expect(t.hub(i)).toBe(s.hub(i));
      expect(t.authority(i)).toBe(s.authority(i));
    }
  });
});
