// **PageRank** over the crawl graph (topical §2 PR), by power iteration with a warm start.
import { RdfscoutError } from '../errors.ts';
import type { CrawlGraph } from './crawl-graph.ts';

/** Options of `computePageRank`. */
export interface PageRankOptions {
  /** Teleport probability a of topical §2, in [0.1, 0.2]. Default: 0.15. */
  teleport?: number;
  /** Most power iterations. Default: 20. */
  iterations?: number;
  /** Stop early when the L1 change of an iteration is below this. Default: 1e-6. */
  tolerance?: number;
  /**
   * Warm start: the previous rank vector (for a graph that has grown since). Nodes beyond its length start at 1/n,
   * then the vector is rescaled to sum 1. Default: uniform 1/n.
   */
  start?: Float64Array;
}

/** A rank vector and the iterations it took. */
export interface PageRankResult {
  /** PR by node id; sums to 1. */
  rank: Float64Array;
  iterations: number;
  /** L1 change of the last iteration. */
  delta: number;
}

/**
 * `PR(p1) = a/n + (1 − a) Σ_{p2 → p1} PR(p2)/outdegree(p2)` (topical §2). Nodes without out-links (pages not
 * fetched yet, the crawl frontier) spread their rank uniformly over all n nodes (ours: the usual fix for dangling
 * nodes, so the vector keeps summing to 1). Cost: O(n + edges) per iteration, O(iterations · (n + edges)) in all.
 * Pure and deterministic.
 */
export function computePageRank(graph: CrawlGraph, options: PageRankOptions = {}): PageRankResult {
  const a = options.teleport ?? 0.15;
  if (!(a >= 0.1 && a <= 0.2)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `PageRank teleport must be in [0.1, 0.2] (topical §2), got ${a}.`);
  const maxIterations = options.iterations ?? 20;
  const tolerance = options.tolerance ?? 1e-6;
  const n = graph.size;
  let rank = new Float64Array(n);
  if (n === 0) return { rank, iterations: 0, delta: 0 };
  warmStart(rank, options.start);
  let next = new Float64Array(n);
  let delta = Number.POSITIVE_INFINITY;
  let it = 0;
  while (it < maxIterations && delta >= tolerance) {
    let dangling = 0;
    for (let u = 0; u < n; u++) if (graph.outLinks(u).length === 0) dangling += rank[u]!;
    next.fill(a / n + ((1 - a) * dangling) / n);
    for (let u = 0; u < n; u++) {
      const out = graph.outLinks(u);
      if (out.length === 0) continue;
      const share = ((1 - a) * rank[u]!) / out.length;
      for (let k = 0; k < out.length; k++) next[out[k]!]! += share;
    }
    delta = 0;
    for (let v = 0; v < n; v++) delta += Math.abs(next[v]! - rank[v]!);
    [rank, next] = [next, rank];
    it++;
  }
  return { rank, iterations: it, delta };
}

function warmStart(rank: Float64Array, start: Float64Array | undefined): void {
  const n = rank.length;
  const kept = start === undefined ? 0 : Math.min(start.length, n);
  let sum = 0;
  for (let v = 0; v < n; v++) {
    const x = v < kept ? start![v]! : 1 / n;
    rank[v] = x > 0 && Number.isFinite(x) ? x : 1 / n;
    sum += rank[v]!;
  }
  for (let v = 0; v < n; v++) rank[v]! /= sum;
}
