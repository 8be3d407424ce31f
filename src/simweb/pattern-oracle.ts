// **patternOracleCurve**: RDF documents a clairvoyant URL-template predictor has after k fetches (pure).
import { urlTemplate } from '../links/url-template.ts';
import { type FetchTree, fetchTree, ID_SPAN, isGoal } from './fetch-tree.ts';
import { NumberHeap } from './number-heap.ts';
import type { OracleOptions, OracleSource } from './oracle.ts';

/**
 * What a URL template is worth to the pattern oracle, from the ground truth over the whole web (see
 * `templateValues`): `rate` (the default) = RDF documents per fetch counting what a page leads to; `reach` = RDF
 * documents a page leads to, whatever they cost; `useful` = the share of the template's pages that lie on a shortest
 * path to an RDF document (the pages the oracle may fetch).
 */
export type PatternValue = 'rate' | 'reach' | 'useful';

/** File formats a query value can name (`?format=ttl`): such a value is kept in `formatTemplate`, as an extension is. */
const FORMATS = new Set(
  'rdf rdfxml rdf+xml xml owl ttl turtle n3 nt ntriples nq nquads trig jsonld json-ld json csv tsv html xls xlsx pdf zip txt geojson kml'.split(' '),
);

/**
 * `urlTemplate` with query values that name a file format kept: `/d/{x}?format=ttl` and `/d/{x}?format=csv` are two
 * templates, as `/d/{x}.ttl` and `/d/{x}.csv` are. A learner sees the value before fetching (and `yield` tells such
 * links apart by their format badges); other query values stay `{x}` (a keyword would make a template of one page).
 */
export function formatTemplate(url: string): string {
  const t = urlTemplate(url);
  const q = t.indexOf('?');
  if (q < 0) return t;
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return t;
  }
  const kept = [...params.entries()].map(([k, v]) => `${k}=${FORMATS.has(v.toLowerCase()) ? v.toLowerCase() : '{x}'}`);
  return `${t.slice(0, q)}?${kept.join('&')}`;
}

/** Options of `patternOracleCurve`: those of `oracleCurve`, and how a template is valued. */
export interface PatternOracleOptions extends OracleOptions {
  /** How a template is valued. Default `rate` (the best of the three on the tuning profiles). */
  value?: PatternValue;
  /**
   * The template of a URL. Default `formatTemplate` (`urlTemplate` of src/links/url-template.ts, as `yield` and the
   * pattern ceiling use, with format names in query values kept: better on the tuning profiles).
   */
  templateOf?: (url: string) => string;
}

/** Per-node figures of the oracle's BFS tree (shortest fetch paths): what each page leads to and what that costs. */
interface Below {
  /** RDF documents in the node's subtree, itself included. */
  goals: Int32Array;
  /** Fetches of the node plus those of the subtree's pages on the way to those RDF documents (at least 1). */
  cost: Int32Array;
}

function below(tree: FetchTree): Below {
  const { n, parent, order, weight } = tree;
  const goals = new Int32Array(n + 1);
  // steiner[v]: fetches of the nodes in v's subtree that have an RDF document in or below them (v's own included).
  const steiner = new Int32Array(n + 1);
  const cost = new Int32Array(n);
  const childSteiner = new Int32Array(n + 1);
  for (let i = order.length - 1; i >= 0; i--) {
    const v = order[i] as number;
    if (isGoal(tree, v)) goals[v] = (goals[v] as number) + 1;
    // A redirect a fetch follows weighs 0, but fetching it costs its target's fetch at least: every fetch costs ≥ 1.
    cost[v] = Math.max(1, (weight[v] as number) + (childSteiner[v] as number));
    steiner[v] = (goals[v] as number) > 0 ? (weight[v] as number) + (childSteiner[v] as number) : 0;
    const p = parent[v] as number;
    goals[p] = (goals[p] as number) + (goals[v] as number);
    childSteiner[p] = (childSteiner[p] as number) + (steiner[v] as number);
  }
  return { goals, cost };
}

/**
 * The true value of every URL template of the reachable part of the web (template → value, higher first), as a
 * perfect template-level learner would know it after seeing the whole web: it knows each template's figures, never
 * which of its pages is the useful one. Figures come from the oracle's BFS tree of shortest fetch paths, so a page
 * "leads to" the RDF documents below it there:
 * - `rate`: Σ RDF documents in or below the template's pages / Σ fetches to get them (the page's own fetch and those
 *   of the pages on the way down). This is what a learner should order by — expected RDF documents per
 *   fetch, a page counting for the RDF it leads to — and what `yield` estimates online (its cluster rate), here
 *   exact. An RDF template scores its share of RDF documents (≤ 1); a listing of ten RDF files 10/11; a person page
 *   with a FOAF file half the time (0.5 / 1.5) 1/3.
 * - `reach`: Σ RDF documents in or below / pages (cost ignored: favours listings high in the tree).
 * - `useful`: share of the template's pages with an RDF document in or below them (the oracle's pages, not how many).
 */
export function templateValues(tree: FetchTree, value: PatternValue = 'rate', templateOf: (url: string) => string = formatTemplate): Map<string, number> {
  const { goals, cost } = below(tree);
  const sums = new Map<string, { pages: number; goals: number; cost: number; useful: number }>();
  for (const v of tree.order) {
    const key = templateOf(tree.records[v]?.url as string);
    const s = sums.get(key) ?? { pages: 0, goals: 0, cost: 0, useful: 0 };
    s.pages += 1;
    s.goals += goals[v] as number;
    s.cost += cost[v] as number;
    if ((goals[v] as number) > 0) s.useful += 1;
    sums.set(key, s);
  }
  const out = new Map<string, number>();
  for (const [key, s] of sums) out.set(key, value === 'rate' ? s.goals / s.cost : value === 'reach' ? s.goals / s.pages : s.useful / s.pages);
  return out;
}

/**
 * The pattern oracle's curve: `curve[k]` = RDF documents (truth `R`, status 200) found after k fetches, 0 ≤ k ≤ maxK,
 * on the same graph, costs and options as `oracleCurve` (fetchable URLs, start pages, robots, a followed redirect
 * weighing 0, HTML variants).
 *
 * A best-first crawl: the start pages are queued; a fetched HTML page (status 200) queues its links, each URL once;
 * the next fetch is the queued URL whose template has the highest true value (`templateValues`), ties in discovery
 * order. A redirect the fetch follows (weight 0) costs nothing, so it is taken when discovered and its targets are
 * queued by their own templates, as the oracle's cost model has it. It knows the figures of every template of the
 * web from the ground truth, but not which page of a template leads to RDF: what any crawler that predicts from URL
 * templates could at best know (the crawl analogue of the pattern ceiling of item 5).
 *
 * It is a greedy reference, not a proven bound: a template-level learner that orders otherwise (by a template's
 * value given the parent's template, or changing its order as the web is used up) may do better at some k. It is
 * never above `oracleCurve` at any k on the simulated web's profiles (tested at scale 0.3; checked at 0.2, 0.5, 1).
 * Checking that found the oracle too weak: see `oracleCurve`. Cost: one BFS and one heap pass, about
 * as much as the oracle's cheapest-first schedule.
 */
export function patternOracleCurve(source: OracleSource, maxK: number, options: PatternOracleOptions = {}): number[] {
  const tree = fetchTree(source, options);
  const starts = source.sites.map((site) => site.startUrl);
  const curve = [0];
  let found = 0;
  for (const v of patternOracleFetches(tree, starts, maxK, options)) {
    if (isGoal(tree, v)) found++;
    curve.push(found);
  }
  while (curve.length <= maxK) curve.push(found);
  return curve;
}

/** The nodes of `tree` the pattern oracle fetches, in order, from the start pages `starts` (at most `maxK`; see {@link patternOracleCurve}). */
function patternOracleFetches(tree: FetchTree, starts: readonly string[], maxK: number, options: Pick<PatternOracleOptions, 'value' | 'templateOf'> = {}): number[] {
  const templateOf = options.templateOf ?? formatTemplate;
  const values = templateValues(tree, options.value ?? 'rate', templateOf);
  // Rank templates by value (equal values share a rank), so a heap key is (rank, discovery order).
  const ranked = [...new Set(values.values())].sort((a, b) => b - a);
  const rankOfValue = new Map(ranked.map((v, i) => [v, i]));
  const { n, records, weight } = tree;
  const discovered = new Uint8Array(n);
  const bySeq: number[] = [];
  const heap = new NumberHeap();
  const discover = (start: number): void => {
    const stack = [start];
    while (stack.length > 0) {
      const v = stack.pop() as number;
      if (discovered[v] === 1) continue;
      discovered[v] = 1;
      if (weight[v] === 0) {
        // Followed inside a fetch, at no cost of its own: its targets are queued now, in order.
        const next = tree.next(v);
        for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as number);
        continue;
      }
      const rank = rankOfValue.get(values.get(templateOf(records[v]?.url as string)) as number) as number;
      heap.push(rank * ID_SPAN + bySeq.length);
      bySeq.push(v);
    }
  };
  for (const url of starts) {
    const s = tree.index.get(url);
    if (s !== undefined) discover(s);
  }
  const order: number[] = [];
  while (order.length < maxK && heap.size > 0) {
    const v = bySeq[heap.pop() % ID_SPAN] as number;
    order.push(v);
    for (const w of tree.next(v)) discover(w);
  }
  return order;
}
