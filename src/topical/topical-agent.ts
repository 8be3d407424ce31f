// **TopicalAgent**: the topical-collection agent's state and scores — crawl graph, PR/HITS, LR, IR(·, F), URL tree (topical §3).
import type { LinkFeatures } from '../links/types.ts';
import type { FetchedDocument, ObservedPage } from '../relevance/types.ts';
import { CrawlGraph, type CrawlGraphJson } from './crawl-graph.ts';
import { GraphScores, type GraphScoresJson, type GraphScoresOptions } from './graph-scores.ts';
import { LocationScore } from './location-score.ts';
import { TfIdfFilter, type TfIdfFilterJson, type TfIdfFilterOptions } from './tfidf-filter.ts';
import { type FetchOutcome, UrlTree, type UrlTreeNodeJson } from './url-tree.ts';

/** Options of `TopicalAgent`. */
export interface TopicalAgentOptions {
  /** PR/HITS schedule and iterations (see `GraphScores`). Default: its defaults. */
  graph?: GraphScoresOptions;
  /** The collection filter F (see `TfIdfFilter`). Default: its defaults. */
  filter?: TfIdfFilterOptions;
}

/** Serialised agent state (everything `observePage` learned, which the crawl records cannot replay). */
export interface TopicalAgentJson {
  graph: CrawlGraphJson;
  scores: GraphScoresJson;
  filter: TfIdfFilterJson;
  location: ReturnType<LocationScore['toJSON']>;
  tree: UrlTreeNodeJson[];
}

/** The five metrics of a page (topical §2), each in [0, 1]. */
export interface PageMetrics {
  hr: number;
  ar: number;
  pr: number;
  lr: number;
  ir: number;
}

/** Text of a link as the filter reads it: anchor, title and surrounding text. */
function linkText(link: LinkFeatures): string {
  return `${link.anchor} ${link.title} ${link.context}`;
}

/**
 * The agent of topical §3 adapted to link scoring: it observes every fetched page (graph, filter background, link
 * texts, P estimate) and learns from every fetch outcome (URL tree, LR counts, the filter's core). Its output is
 * `linkScore(link, parent)` ∈ [0, 1], the estimate that following the link leads to something relevant (RDF or
 * an RDF parent). Deterministic: no clock, no randomness (the agent's "random link" of step 3 is replaced by the
 * link's own estimate).
 */
export class TopicalAgent {
  readonly #graph: CrawlGraph;
  readonly #scores: GraphScores;
  readonly #filter: TfIdfFilter;
  readonly #location = new LocationScore();
  readonly #tree = new UrlTree();
  readonly #options: TopicalAgentOptions;

  constructor(options: TopicalAgentOptions = {}, graph = new CrawlGraph()) {
    this.#options = options;
    this.#graph = graph;
    this.#scores = new GraphScores(graph, options.graph);
    this.#filter = new TfIdfFilter(options.filter);
  }

  get graph(): CrawlGraph {
    return this.#graph;
  }
  get scores(): GraphScores {
    return this.#scores;
  }
  get filter(): TfIdfFilter {
    return this.#filter;
  }
  get location(): LocationScore {
    return this.#location;
  }
  get tree(): UrlTree {
    return this.#tree;
  }

  /** Step 4 of topical §3: a fetched page enters the graph, the filter's background, and the tree with its P estimate. */
  observePage(page: ObservedPage): void {
    const id = this.#graph.setPage(
      page.url,
      page.links.map((l) => l.url),
    );
    if (page.depth === 0) this.#tree.addStart(id);
    this.#filter.observePage(
      page.url,
      page.text,
      page.links.map((l) => ({ url: l.url, text: linkText(l) })),
    );
    this.#scores.notePage();
    const m = this.pageMetrics(page.url, page.text);
    this.#tree.setEstimate(id, (m.hr + m.ar + m.pr + m.lr + m.ir) / 5);
  }

  /**
   * Step 5 of topical §3 with "relevant" = RDF or RDF parent: updates the tree (links⁺/links⁻), LR's counts, and
   * the filter's core (the text of the link that led to the RDF document and the text of its parent).
   */
  learn(doc: FetchedDocument): void {
    const outcome: FetchOutcome = doc.type === 'rdf' ? 'rdf' : doc.type === 'html' ? 'html' : 'dead';
    const id = this.#graph.ensure(doc.finalUrl);
    const parent = doc.parent === null ? null : this.#graph.ensure(doc.parent);
    this.#location.observe(doc.finalUrl, outcome === 'rdf');
    const newly = this.#tree.recordFetch(id, parent, outcome);
    for (const x of newly) {
      if (x === id) continue;
      const url = this.#graph.urlOf(x);
      this.#location.relabel(url);
      this.#filter.addPageToCore(url);
    }
    if (outcome === 'rdf' && !this.#filter.addLinkToCore(doc.url)) this.#filter.addLinkToCore(doc.finalUrl);
  }

  /** HR, AR, PR, LR and IR(·, F) of a URL with the given text (topical §2). */
  pageMetrics(url: string, text: string): PageMetrics {
    const id = this.#graph.idOf(url);
    return {
      hr: this.#scores.hub(id),
      ar: this.#scores.authority(id),
      pr: this.#scores.pageRank(id),
      lr: this.#location.score(url),
      ir: this.#filter.score(text),
    };
  }

  /**
   * The estimate for a link found on `parentUrl`: the mean of the parent's P (the agent chooses the node with the
   * largest P, topical §3 step 3; see `UrlTree.inheritedProbability`) and the link target's own estimate, the mean
   * of AR, PR, LR and IR of the link's text (ours: HR is left out for a target not fetched, whose out-links are
   * unknown, so it would be 0 for every one). In [0, 1].
   */
  linkScore(link: LinkFeatures, parentUrl: string): number {
    const u = this.#graph.idOf(parentUrl);
    const pu = u === undefined ? 0.5 : this.#tree.inheritedProbability(u);
    const v = this.#graph.idOf(link.url);
    const child = (this.#scores.authority(v) + this.#scores.pageRank(v) + this.#location.score(link.url) + this.#filter.score(linkText(link))) / 4;
    return (pu + child) / 2;
  }

  toJSON(): TopicalAgentJson {
    return { graph: this.#graph.toJSON(), scores: this.#scores.toJSON(), filter: this.#filter.toJSON(), location: this.#location.toJSON(), tree: this.#tree.toJSON() };
  }

  /** A new agent with the state of `toJSON()` (null: a fresh one). */
  static fromJSON(json: TopicalAgentJson | null | undefined, options: TopicalAgentOptions = {}): TopicalAgent {
    const agent = new TopicalAgent(options, CrawlGraph.fromJSON(json?.graph));
    if (json) {
      agent.#scores.restoreFrom(json.scores);
      agent.#filter.restoreFrom(json.filter);
      agent.#location.restoreFrom(json.location);
      agent.#tree.restoreFrom(json.tree);
    }
    return agent;
  }

  /** The options this agent was made with (to build a restored one alike). */
  get options(): TopicalAgentOptions {
    return this.#options;
  }
}
