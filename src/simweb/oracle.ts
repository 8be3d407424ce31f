// **oracleCurve**: RDF documents a clairvoyant crawler can have after k fetches, from ground truth and the link graph (pure).
import { fetchTree, ID_SPAN, isGoal as isGoalOf } from './fetch-tree.ts';
import { NumberHeap } from './number-heap.ts';
import type { TruthRecord } from './types.ts';

/** What the oracle reads: a `SimWeb` fits, and so does a hand-built graph. */
export interface OracleSource {
  sites: ReadonlyArray<{ host: string; startUrl: string }>;
  truth(): Iterable<TruthRecord>;
  /** Links of a URL as served (only links to URLs with a truth record are used). */
  links(url: string): readonly string[];
}

/** Options of `oracleCurve`. */
export interface OracleOptions {
  /** Only these sites (by host). Default: all. */
  hosts?: readonly string[];
  /** Never fetch robots-disallowed URLs (`disallowed` in the truth). Default true. */
  respectRobots?: boolean;
  /**
   * A fetch follows redirects by itself, so a 301/303 hop and its target cost one fetch together (rdfscout, LDSpider
   * and browsers work so). Default true. With false every hop costs a fetch (a crawler that queues redirect targets).
   */
  followsRedirects?: boolean;
  /**
   * A content-negotiated URL (303 with an HTML variant) can also be fetched for its HTML, one more fetch, whose
   * links count (a crawler that follows HTML variants, issue 17 item 3). Default false.
   */
  htmlVariants?: boolean;
}

/**
 * The oracle curve: `curve[k]` = RDF documents (truth label `R`, status 200) obtained after k fetches, 0 ≤ k ≤ maxK.
 *
 * What it computes, exactly: every fetch costs 1; a redirect hop is part of the fetch that follows it
 * (cost 0) unless `followsRedirects` is false. A crawler can fetch a URL only once
 * it has fetched a page linking it (HTML pages with status 200; a 301/303 leads to its `redirectTo`, the RDF
 * variant), starting from the sites' start pages. The oracle builds one BFS tree over that graph from all
 * start pages (robots-disallowed URLs excluded), so each R document has a shortest path of fetches. Then it
 * greedily takes the R whose path has the fewest not-yet-fetched URLs, fetches those (top-down, the R last), and
 * repeats; among equal costs it prefers R documents whose parent page has the most RDF documents
 * below it (a hub: its siblings will then cost one fetch each). The result is a feasible schedule — a lower bound of the true optimum, which is a tree knapsack —
 * and in practice close to it: it never fetches a page that does not lie on the way to an RDF document, and it
 * exploits shared paths (siblings of a fetched parent cost 1 each). No real crawler can beat it by more than the
 * gap to that optimum; `curve[k] ≤ k` always.
 */
export function oracleCurve(source: OracleSource, maxK: number, options: OracleOptions = {}): number[] {
  const tree = fetchTree(source, options);
  const { n, parent, depth, children, order: queue } = tree;
  const isGoal = (v: number): boolean => isGoalOf(tree, v);

  // Goals below each node; among equal costs, goals whose parent has more goals below go first (bigger hubs).
  const goalsBelow = new Int32Array(n + 1);
  for (let i = queue.length - 1; i >= 0; i--) {
    const v = queue[i] as number;
    if (isGoal(v)) goalsBelow[v] = (goalsBelow[v] as number) + 1;
    const p = parent[v] as number;
    goalsBelow[p] = (goalsBelow[p] as number) + (goalsBelow[v] as number);
  }
  // Min-heap of keys (cost, -unlock, id), lazily invalidated: costs only fall as ancestors get fetched.
  const cost = new Int32Array(n);
  const heap = new NumberHeap();
  const push = (v: number, c: number): void => {
    cost[v] = c;
    const unlock = goalsBelow[parent[v] as number] as number;
    heap.push((c * UNLOCK_SPAN + (UNLOCK_SPAN - 1 - Math.min(unlock, UNLOCK_SPAN - 1))) * ID_SPAN + v);
  };
  for (const top of children[n] ?? []) {
    const stack = [top];
    while (stack.length > 0) {
      const w = stack.pop() as number;
      if (isGoal(w)) push(w, depth[w] as number);
      for (const c of children[w] ?? []) stack.push(c);
    }
  }
  const fetched = new Uint8Array(n + 1);
  fetched[n] = 1;
  const taken = new Uint8Array(n);
  // When v is fetched, every goal below it now costs its depth minus v's depth (nothing below v was fetched yet).
  const markFetched = (v: number): void => {
    fetched[v] = 1;
    for (const top of children[v] ?? []) {
      const stack = [top];
      while (stack.length > 0) {
        const w = stack.pop() as number;
        if (isGoal(w) && taken[w] === 0) push(w, (depth[w] as number) - (depth[v] as number));
        for (const c of children[w] ?? []) stack.push(c);
      }
    }
  };

  const curve = [0];
  let found = 0;
  while (curve.length <= maxK && heap.size > 0) {
    const key = heap.pop();
    const v = key % ID_SPAN;
    const c = Math.floor(key / ID_SPAN / UNLOCK_SPAN);
    if (taken[v] === 1 || cost[v] !== c) continue;
    taken[v] = 1;
    const path: number[] = [];
    for (let u = v; u !== n && fetched[u] === 0; u = parent[u] as number) path.push(u);
    path.reverse();
    for (const u of path) {
      if (curve.length > maxK) break;
      if (u === v) found++;
      if (tree.weight[u] === 1) curve.push(found);
      markFetched(u);
    }
  }
  while (curve.length <= maxK) curve.push(found);
  return curve;
}

const UNLOCK_SPAN = 2 ** 21;
