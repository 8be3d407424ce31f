// **fetchTree**: the fetchable URLs of a simulated web and a BFS tree of shortest fetch paths over them (pure).
import type { OracleOptions, OracleSource } from './oracle.ts';
import type { TruthRecord } from './types.ts';

/** Node ids above this are refused (the schedules pack ids into heap keys). */
export const ID_SPAN = 2 ** 21;

/** The fetchable URLs and one BFS tree over them (node `n` is a virtual root above the start pages). */
export interface FetchTree {
  /** Fetchable truth records (host filter and robots applied), by node id. */
  records: TruthRecord[];
  index: Map<string, number>;
  n: number;
  /** BFS parent of each node; `n` for start pages, -2 for URLs no fetch path reaches. */
  parent: Int32Array;
  /** Fetches from the root to each node (its own included); length n + 1. */
  depth: Int32Array;
  children: number[][];
  /** Reached nodes in BFS order (parents before children). */
  order: number[];
  /** What a fetch of each node costs: 0 for a redirect a fetch follows by itself, else 1. */
  weight: Uint8Array;
  /** Links of a node as a crawler sees them after fetching it, in page order (fetchable URLs only). */
  next(v: number): number[];
}

/**
 * The graph `oracleCurve` schedules on (see its doc): only links of HTML pages with status 200 are followed; a
 * 301/303 leads to its `redirectTo` (and to its HTML variant with `htmlVariants`); a redirect the fetch follows
 * (`followsRedirects`, default true) weighs 0. The BFS starts from the sites' start pages in site order.
 */
export function fetchTree(source: OracleSource, options: OracleOptions = {}): FetchTree {
  const hosts = options.hosts ? new Set(options.hosts) : undefined;
  const respectRobots = options.respectRobots ?? true;
  const followsRedirects = options.followsRedirects ?? true;
  const records: TruthRecord[] = [];
  const index = new Map<string, number>();
  for (const rec of source.truth()) {
    if (hosts && !hosts.has(rec.host)) continue;
    if (respectRobots && rec.disallowed) continue;
    index.set(rec.url, records.length);
    records.push(rec);
  }
  const n = records.length;
  if (n >= ID_SPAN) throw new RangeError(`oracleCurve handles at most ${ID_SPAN - 1} URLs, got ${n}`);
  const weight = new Uint8Array(n);
  // A redirect that a fetch follows costs nothing of its own: its target is what the fetch pays for.
  for (let v = 0; v < n; v++) {
    const rec = records[v] as TruthRecord;
    weight[v] = followsRedirects && rec.status >= 300 && rec.status < 400 && rec.redirectTo ? 0 : 1;
  }
  const next = (v: number): number[] => {
    const rec = records[v] as TruthRecord;
    let urls: readonly string[] = [];
    if (rec.status === 200 && (rec.label === 'H' || rec.label === 'HR')) urls = source.links(rec.url);
    else if (rec.status >= 300 && rec.status < 400 && rec.redirectTo) {
      urls = options.htmlVariants && rec.redirectToHtml ? [rec.redirectTo, rec.redirectToHtml] : [rec.redirectTo];
    }
    const out: number[] = [];
    for (const url of urls) {
      const w = index.get(url);
      if (w !== undefined) out.push(w);
    }
    return out;
  };
  const parent = new Int32Array(n).fill(-2);
  const depth = new Int32Array(n + 1);
  const children: number[][] = Array.from({ length: n + 1 }, () => []);
  const order: number[] = [];
  for (const site of source.sites) {
    const s = index.get(site.startUrl);
    if (s === undefined || parent[s] !== -2) continue;
    parent[s] = n;
    depth[s] = weight[s] as number;
    children[n]?.push(s);
    order.push(s);
  }
  for (let head = 0; head < order.length; head++) {
    const v = order[head] as number;
    for (const w of next(v)) {
      if (parent[w] !== -2) continue;
      parent[w] = v;
      depth[w] = (depth[v] as number) + (weight[w] as number);
      children[v]?.push(w);
      order.push(w);
    }
  }
  return { records, index, n, parent, depth, children, order, weight, next };
}

/** True for an RDF document (truth `R`, status 200) that a fetch path reaches: what the curves count. */
export function isGoal(tree: FetchTree, v: number): boolean {
  const rec = tree.records[v];
  return rec?.label === 'R' && rec.status === 200 && tree.parent[v] !== -2;
}
