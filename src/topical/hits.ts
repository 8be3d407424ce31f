// **HITS** hub and authority scores over the crawl graph (Kleinberg; topical §2 HR, AR), with a warm start.
import type { CrawlGraph } from './crawl-graph.ts';

/** Options of `computeHits`. */
export interface HitsOptions {
  /** Most iterations. Default: 20. */
  iterations?: number;
  /** Stop early when the L1 change of the (max-normalised) authority vector is below this. Default: 1e-6. */
  tolerance?: number;
  /** Warm start: previous hub vector (nodes beyond its length start at 1). Default: all 1. */
  startHub?: Float64Array;
}

/** Hub and authority by node id, each scaled so its largest value is 1 (all 0 in a graph without edges). */
export interface HitsResult {
  hub: Float64Array;
  authority: Float64Array;
  iterations: number;
  delta: number;
}

/**
 * Kleinberg's iteration on the whole crawl graph (our "neighbourhood graph" is everything crawled so far):
 * `auth(v) = Σ_{u → v} hub(u)`, then `hub(u) = Σ_{u → v} auth(v)`, each scaled by its maximum so both lie in
 * [0, 1]. Cost: O(n + edges) per iteration. Pure and deterministic.
 */
export function computeHits(graph: CrawlGraph, options: HitsOptions = {}): HitsResult {
  const maxIterations = options.iterations ?? 20;
  const tolerance = options.tolerance ?? 1e-6;
  const n = graph.size;
  const hub = new Float64Array(n);
  const authority = new Float64Array(n);
  const start = options.startHub;
  for (let v = 0; v < n; v++) hub[v] = start !== undefined && v < start.length ? start[v]! : 1;
  // A page with links needs a non-zero hub to seed the iteration, even if the previous vector had it at 0.
  for (let v = 0; v < n; v++) if (hub[v] === 0 && graph.outLinks(v).length > 0) hub[v] = 1e-3;
  const prevAuth = new Float64Array(n);
  let delta = Number.POSITIVE_INFINITY;
  let it = 0;
  while (it < maxIterations && delta >= tolerance) {
    prevAuth.set(authority);
    authority.fill(0);
    for (let u = 0; u < n; u++) {
      const out = graph.outLinks(u);
      const h = hub[u]!;
      for (let k = 0; k < out.length; k++) authority[out[k]!]! += h;
    }
    scaleByMax(authority);
    for (let u = 0; u < n; u++) {
      const out = graph.outLinks(u);
      let h = 0;
      for (let k = 0; k < out.length; k++) h += authority[out[k]!]!;
      hub[u] = h;
    }
    scaleByMax(hub);
    // Converged when the authority vector no longer moves (the hub vector is a function of it).
    delta = 0;
    for (let v = 0; v < n; v++) delta += Math.abs(authority[v]! - prevAuth[v]!);
    it++;
  }
  return { hub, authority, iterations: it, delta };
}

function scaleByMax(x: Float64Array): void {
  let max = 0;
  for (let i = 0; i < x.length; i++) if (x[i]! > max) max = x[i]!;
  if (max === 0) return;
  for (let i = 0; i < x.length; i++) x[i]! /= max;
}
