// **GraphScores** keeps PR, HR and AR of the growing crawl graph, recomputed every k pages (topical §2, §4).
import { RdfscoutError } from '../errors.ts';
import { type CrawlGraph, decodeFloat64, encodeFloat64 } from './crawl-graph.ts';
import { computeHits } from './hits.ts';
import { computePageRank } from './page-rank.ts';

/** Options of `GraphScores`. */
export interface GraphScoresOptions {
  /** PageRank teleport a (topical §2). Default: 0.15. */
  teleport?: number;
  /** Power iterations per recompute (PageRank and HITS each). Default: 20. */
  iterations?: number;
  /** Least pages between recomputes. Default: 50. */
  minInterval?: number;
  /** Recompute after this fraction of the pages observed so far, when larger than `minInterval`. Default: 0.05. */
  fraction?: number;
}

/** Serialised scores (base64 Float64 vectors). */
export interface GraphScoresJson {
  pr: string;
  hub: string;
  authority: string;
  pagesSince: number;
  pages: number;
  recomputes: number;
}

/**
 * PR, HR and AR of the crawl graph, each scaled to [0, 1] by its maximum (ours: so they can be averaged with LR
 * and IR in P(v), topical §3 step 2).
 *
 * **Schedule and cost.** Scores are recomputed after every k observed pages, k = max(50, ⌈5% · P⌉) after P
 * pages (a geometric schedule once P > 1000), with a fixed number I of power iterations (default 20, fewer when
 * converged) warm-started from the previous vectors. One recompute costs O(I · (n + E)) for n nodes and E edges.
 * Each page adds at most L links (the crawl's per-document cap), so n + E ≤ (2L + 1) · P and the amortised cost per
 * page is O(I · (n + E) / k) ≤ O(20 · I · (2L + 1)): constant in the crawl's size, never quadratic; the whole
 * crawl costs O(I · L · P) plus O(log P) recomputes. (k is counted in pages, not nodes: the graph gains ~L nodes a
 * page, so "5% of nodes" would outgrow the pages seen since the last recompute and never fire.)
 * Between recomputes new nodes score 0 on PR/HR/AR (they have not been ranked yet).
 */
export class GraphScores {
  readonly #graph: CrawlGraph;
  readonly #teleport: number;
  readonly #iterations: number;
  readonly #minInterval: number;
  readonly #fraction: number;
  #pr: Float64Array = new Float64Array(0);
  #prMax = 0;
  #hub: Float64Array = new Float64Array(0);
  #authority: Float64Array = new Float64Array(0);
  #pagesSince = 0;
  #pages = 0;
  #recomputes = 0;

  constructor(graph: CrawlGraph, options: GraphScoresOptions = {}) {
    for (const key of Object.keys(options)) {
      if (!['teleport', 'iterations', 'minInterval', 'fraction'].includes(key)) {
        throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Unknown graph score option "${key}" (known: teleport, iterations, minInterval, fraction).`);
      }
    }
    this.#graph = graph;
    this.#teleport = options.teleport ?? 0.15;
    this.#iterations = options.iterations ?? 20;
    this.#minInterval = options.minInterval ?? 50;
    this.#fraction = options.fraction ?? 0.05;
  }

  /** Pages between recomputes now: max(minInterval, ⌈fraction · pages observed⌉). */
  get interval(): number {
    return Math.max(this.#minInterval, Math.ceil(this.#fraction * this.#pages));
  }

  /** How many recomputes ran. */
  get recomputes(): number {
    return this.#recomputes;
  }

  /** Counts one observed page; recomputes when k pages have been observed since the last time. True if it did. */
  notePage(): boolean {
    this.#pagesSince += 1;
    this.#pages += 1;
    if (this.#pagesSince < this.interval) return false;
    this.recompute();
    return true;
  }

  /** Recomputes PR and HITS now (warm-started). */
  recompute(): void {
    const iterations = this.#iterations;
    const pr = computePageRank(this.#graph, { teleport: this.#teleport, iterations, start: this.#pr.length > 0 ? this.#pr : undefined });
    const hits = computeHits(this.#graph, { iterations, startHub: this.#hub.length > 0 ? this.#hub : undefined });
    this.#pr = pr.rank;
    this.#prMax = maxOf(pr.rank);
    this.#hub = hits.hub;
    this.#authority = hits.authority;
    this.#pagesSince = 0;
    this.#recomputes += 1;
  }

  /** PR(v) / max PR, in [0, 1]; 0 for a node not ranked yet. */
  pageRank(id: number | undefined): number {
    if (id === undefined || id >= this.#pr.length || this.#prMax === 0) return 0;
    return this.#pr[id]! / this.#prMax;
  }

  /** HR(v) in [0, 1]; 0 for a node not ranked yet. */
  hub(id: number | undefined): number {
    return id === undefined ? 0 : (this.#hub[id] ?? 0);
  }

  /** AR(v) in [0, 1]; 0 for a node not ranked yet. */
  authority(id: number | undefined): number {
    return id === undefined ? 0 : (this.#authority[id] ?? 0);
  }

  toJSON(): GraphScoresJson {
    return { pr: encodeFloat64(this.#pr), hub: encodeFloat64(this.#hub), authority: encodeFloat64(this.#authority), pagesSince: this.#pagesSince, pages: this.#pages, recomputes: this.#recomputes };
  }

  /** Restores vectors saved by `toJSON()` (the graph must be the one they were computed on, restored alike). */
  restoreFrom(json: GraphScoresJson | null | undefined): void {
    if (!json) return;
    this.#pr = decodeFloat64(json.pr);
    this.#prMax = maxOf(this.#pr);
    this.#hub = decodeFloat64(json.hub);
    this.#authority = decodeFloat64(json.authority);
    this.#pagesSince = json.pagesSince;
    this.#pages = json.pages;
    this.#recomputes = json.recomputes;
  }
}

function maxOf(x: Float64Array): number {
  let max = 0;
  for (let i = 0; i < x.length; i++) if (x[i]! > max) max = x[i]!;
  return max;
}
