// **oracleCurve**: RDF documents a clairvoyant crawler can have after k fetches, from ground truth and the link graph (pure).
import { type FetchTree, fetchTree, ID_SPAN, isGoal as isGoalOf } from './fetch-tree.ts';
import { NumberHeap } from './number-heap.ts';
import { patternOracleCurve } from './pattern-oracle.ts';
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
   * links count (a crawler that follows HTML variants). Default false.
   */
  htmlVariants?: boolean;
}

/**
 * The oracle curve: `curve[k]` = RDF documents (truth label `R`, status 200) obtained after k fetches, 0 ≤ k ≤ maxK.
 *
 * What it computes, exactly: every fetch costs 1; a redirect hop is part of the fetch that follows it
 * (cost 0) unless `followsRedirects` is false. A crawler can fetch a URL only once
 * it has fetched a page linking it (HTML pages with status 200; a 301/303 leads to its `redirectTo`, the RDF
 * variant), starting from the sites' start pages (robots-disallowed URLs excluded). What a URL still costs is its
 * shortest path of not-yet-fetched URLs from what is fetched, over the whole link graph. Three greedy schedules
 * are built and the curve is, at each k, the best of them (each point is what one feasible schedule has after k
 * fetches):
 * - **cheapest first**: take the R whose path costs least, fetch that path (top-down, the R last), repeat; among
 *   equal costs prefer R documents reached through a page with the most RDF documents below it (a hub: its
 *   siblings will then cost one fetch each);
 * - **densest first**: for every URL, the bundle "fetch the path to it, then every RDF document it links (each one
 *   fetch more), then the pages it links whose RDF documents pay (best first)" yields (RDF documents) / (fetches);
 *   take the densest bundle, repeat (lazily re-evaluated). Cheapest first alone misses hubs one fetch further away:
 *   on a dbtune-like site it went two fetches deep for one record (artist HTML + record RDF) while a section whose
 *   listings link 60 artists' RDF each was three fetches away;
 * - **best page first**: a best-first crawl by each page's own RDF documents per fetch, what it leads to counted
 *   (`patternOracleCurve` with one template per URL).
 * The tree-only cheapest-first oracle used before was beaten by a URL-template crawler
 * (`patternOracleCurve`) by up to 112 RDF documents (dbtune-like, 386 fetches) and 24 (university-like).
 * All are feasible schedules, so the curve is a lower bound of the true optimum (a knapsack over the link graph),
 * not a proven upper bound of every crawler: it never fetches a page that does not lie on the way to an RDF
 * document and exploits shared paths. `curve[k] ≤ k` always.
 */
export function oracleCurve(source: OracleSource, maxK: number, options: OracleOptions = {}): number[] {
  const tree = fetchTree(source, options);
  const cheapest = cheapestFirst(tree, maxK);
  const densest = densestFirst(tree, maxK);
  // Best first by each page's own RDF documents per fetch (the pattern oracle with a template per URL).
  const pages = patternOracleCurve(source, maxK, { ...options, value: 'rate', templateOf: (url) => url });
  return cheapest.map((c, k) => Math.max(c, densest[k] ?? 0, pages[k] ?? 0));
}

/** Fetch costs from what is fetched, over the link graph (0-1 weights), kept up to date as pages get fetched. */
class Distances {
  readonly dist: Int32Array;
  /** The page before a URL on its cheapest path (n: a start page; -1: none yet). */
  readonly pred: Int32Array;
  readonly fetched: Uint8Array;
  readonly next: number[][];
  #tree: FetchTree;
  #onDrop: (v: number) => void;

  constructor(tree: FetchTree, onDrop: (v: number) => void) {
    const { n } = tree;
    this.#tree = tree;
    this.#onDrop = onDrop;
    this.dist = new Int32Array(n).fill(0x3fffffff);
    this.pred = new Int32Array(n).fill(-1);
    this.fetched = new Uint8Array(n);
    // Links of every reached URL, read once (the distances are relaxed over them many times).
    this.next = Array.from({ length: n }, () => []);
    for (const v of tree.order) this.next[v] = tree.next(v);
    const starts: number[] = [];
    for (const s of tree.children[n] ?? []) {
      this.dist[s] = tree.weight[s] as number;
      this.pred[s] = n;
      starts.push(s);
    }
    for (const s of starts) onDrop(s);
    this.#relax(starts);
  }

  /** Marks v fetched (cost 0 from now on) and lowers the costs of what it leads to. */
  fetch(v: number): void {
    this.fetched[v] = 1;
    this.dist[v] = 0;
    this.#relax([v]);
  }

  /** The URLs of v's cheapest path not fetched yet, top-down (v last). */
  path(v: number): number[] {
    const out: number[] = [];
    for (let u = v; u >= 0 && u !== this.#tree.n && this.fetched[u] === 0; u = this.pred[u] as number) out.push(u);
    return out.reverse();
  }

  #relax(sources: number[]): void {
    const { weight } = this.#tree;
    const queue = [...sources];
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head] as number;
      const du = this.dist[u] as number;
      for (const w of this.next[u] ?? []) {
        if (this.fetched[w] === 1) continue;
        const dw = du + (weight[w] as number);
        if (dw >= (this.dist[w] as number)) continue;
        this.dist[w] = dw;
        this.pred[w] = u;
        this.#onDrop(w);
        queue.push(w);
      }
    }
  }
}

/** The cheapest-first schedule (see `oracleCurve`). */
function cheapestFirst(tree: FetchTree, maxK: number): number[] {
  const { n, order, weight } = tree;
  const isGoal = (v: number): boolean => isGoalOf(tree, v);
  // RDF documents each page links (through redirects a fetch follows): the hub preference among equal costs.
  const linked = new Int32Array(n + 1);
  for (const v of order) {
    const rec = tree.records[v];
    if (rec?.status !== 200 || (rec.label !== 'H' && rec.label !== 'HR')) continue;
    const seen = new Set<number>();
    const stack = [...tree.next(v)];
    while (stack.length > 0) {
      const w = stack.pop() as number;
      if (seen.has(w)) continue;
      seen.add(w);
      if (isGoal(w)) linked[v] = (linked[v] as number) + 1;
      else if (weight[w] === 0) stack.push(...tree.next(w));
    }
  }
  const taken = new Uint8Array(n);
  // Min-heap of goal keys (cost, -unlock, id), lazily invalidated: costs only fall as pages get fetched.
  const heap = new NumberHeap();
  const graph: { d?: Distances } = {};
  const pushGoal = (v: number): void => {
    const d = graph.d as Distances;
    if (!isGoal(v) || taken[v] === 1) return;
    const p = d.pred[v] as number;
    const unlock = p < 0 ? 0 : (linked[p] as number);
    heap.push(((d.dist[v] as number) * UNLOCK_SPAN + (UNLOCK_SPAN - 1 - Math.min(unlock, UNLOCK_SPAN - 1))) * ID_SPAN + v);
  };
  const pending: number[] = [];
  graph.d = new Distances(tree, (v) => (graph.d === undefined ? pending.push(v) : pushGoal(v)));
  const d = graph.d;
  for (const v of pending) pushGoal(v);

  const curve = [0];
  let found = 0;
  while (curve.length <= maxK && heap.size > 0) {
    const key = heap.pop();
    const v = key % ID_SPAN;
    const c = Math.floor(key / ID_SPAN / UNLOCK_SPAN);
    if (taken[v] === 1 || d.dist[v] !== c) continue;
    for (const u of d.path(v)) {
      if (curve.length > maxK) break;
      if (isGoal(u)) {
        taken[u] = 1;
        found++;
      }
      if (weight[u] === 1) curve.push(found);
      d.fetch(u);
    }
  }
  while (curve.length <= maxK) curve.push(found);
  return curve;
}

/** The densest-first schedule (see `oracleCurve`). */
function densestFirst(tree: FetchTree, maxK: number): number[] {
  const { n, weight } = tree;
  const isGoal = (v: number): boolean => isGoalOf(tree, v);
  const heap = new NumberHeap();
  const graph: { d?: Distances } = {};
  const seen = new Int32Array(n).fill(-1);
  let stamp = 0;
  // What v links (through redirects a fetch follows) and is not fetched yet, of one kind (`keep`).
  const linkedWhere = (v: number, keep: (w: number) => boolean): number[] => {
    const d = graph.d as Distances;
    const out: number[] = [];
    stamp++;
    const stack = [...(d.next[v] ?? [])];
    while (stack.length > 0) {
      const w = stack.pop() as number;
      if (seen[w] === stamp || d.fetched[w] === 1) continue;
      seen[w] = stamp;
      if (keep(w)) out.push(w);
      else if (weight[w] === 0) stack.push(...(d.next[w] ?? []));
    }
    return out;
  };
  // RDF documents v links, each one fetch once v is fetched (none unless v is a page).
  const linkedGoals = (v: number): number[] => (isPage(v) ? linkedWhere(v, isGoal) : []);
  // The densest bundle under v (see `oracleCurve`): its path, the RDF documents it links, and those of the pages it
  // links (each page one fetch more) whose RDF-per-fetch beats the bundle so far, best first.
  const bundle = (v: number): { density: number; goals: number[]; pages: Array<{ page: number; goals: number[] }> } => {
    const d = graph.d as Distances;
    const none = { density: 0, goals: [], pages: [] };
    if (d.fetched[v] === 1 || (d.pred[v] as number) < 0 || weight[v] === 0) return none;
    const dist = d.dist[v] as number;
    if (isGoal(v)) return { density: 1 / dist, goals: [], pages: [] };
    if (!isPage(v)) return none;
    const goals = linkedGoals(v);
    const counted = new Set(goals);
    const options: Array<{ page: number; goals: number[] }> = [];
    for (const c of linkedPages(v)) {
      const mine = linkedGoals(c).filter((g) => !counted.has(g));
      if (mine.length === 0) continue;
      for (const g of mine) counted.add(g);
      options.push({ page: c, goals: mine });
    }
    options.sort((x, y) => y.goals.length - x.goals.length);
    let gain = goals.length;
    let cost = dist + goals.length;
    const pages: Array<{ page: number; goals: number[] }> = [];
    for (const o of options) {
      if (o.goals.length / (1 + o.goals.length) <= gain / cost) break;
      gain += o.goals.length;
      cost += 1 + o.goals.length;
      pages.push(o);
    }
    return { density: gain === 0 ? 0 : gain / cost, goals, pages };
  };
  const isPage = (v: number): boolean => {
    const rec = tree.records[v];
    return rec?.status === 200 && (rec.label === 'H' || rec.label === 'HR');
  };
  // HTML pages v links, not fetched yet.
  const linkedPages = (v: number): number[] => linkedWhere(v, isPage);
  const density = (v: number): number => bundle(v).density;
  const keyOf = (v: number, dens: number): number => (DENSITY_SPAN - Math.round(dens * (DENSITY_SPAN - 1))) * ID_SPAN + v;
  const push = (v: number): void => {
    const dens = density(v);
    if (dens > 0) heap.push(keyOf(v, dens));
  };
  const pending: number[] = [];
  graph.d = new Distances(tree, (v) => (graph.d === undefined ? pending.push(v) : push(v)));
  const d = graph.d;
  for (const v of tree.order) push(v);

  const curve = [0];
  let found = 0;
  const take = (u: number): void => {
    if (curve.length > maxK || d.fetched[u] === 1) return;
    if (isGoal(u)) found++;
    if (weight[u] === 1) curve.push(found);
    d.fetch(u);
  };
  while (curve.length <= maxK && heap.size > 0) {
    const key = heap.pop();
    const v = key % ID_SPAN;
    if (d.fetched[v] === 1) continue;
    const dens = density(v);
    if (dens === 0) continue;
    if (keyOf(v, dens) !== key) {
      heap.push(keyOf(v, dens)); // stale (its RDF got fetched by another bundle, or its path got cheaper)
      continue;
    }
    const { goals, pages } = bundle(v);
    for (const u of d.path(v)) take(u);
    for (const g of goals) take(g);
    for (const p of pages) {
      take(p.page);
      for (const g of p.goals) take(g);
    }
  }
  while (curve.length <= maxK) curve.push(found);
  return curve;
}

const UNLOCK_SPAN = 2 ** 21;
const DENSITY_SPAN = 2 ** 20;
