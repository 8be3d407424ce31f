// **UrlTree**: the agent's tree of fetched documents with P(v) and its update rule (topical §3 steps 2 and 5).

/** A node's standing: a start URL, an ordinary page, relevant (RDF or an RDF parent), or dead (not HTML/RDF, failed). */
export type NodeStatus = 'start' | 'open' | 'relevant' | 'dead';

/** How a fetch turned out, as the tree sees it. */
export type FetchOutcome = 'rdf' | 'html' | 'dead';

/** Serialised node: `[id, parent, links⁺, links⁻, status, estimate, counted]`. */
export type UrlTreeNodeJson = [number, number, number, number, NodeStatus, number | null, 0 | 1 | 2];

interface TreeNode {
  /** Tree parent (the page the link was found on), -1 for none. */
  parent: number;
  plus: number;
  minus: number;
  status: NodeStatus;
  /** The five-metric estimate of topical §3 step 2, set when the page was observed; NaN before. */
  est: number;
  /** How this node is counted in its parent's links⁺/links⁻: 0 not yet, 1 as links⁻, 2 as links⁺. */
  counted: 0 | 1 | 2;
}

const NONE = 0;
const MINUS = 1;
const PLUS = 2;

/**
 * The URL tree of topical §3, keyed by crawl-graph node ids. "Relevant" means *is RDF or leads to RDF* (an RDF
 * parent). P(v) (topical §3 step 2, step 5):
 * - relevant → 1 (its outgoing links lead to relevant documents); dead → 0;
 * - once some links of v's document were checked: `(1 + links⁺(v)) / (1 + links⁺(v) + links⁻(v))`;
 * - a start URL not yet checked → 1;
 * - otherwise the five-metric estimate given with `setEstimate` (0.5 when none was given).
 * A fetched child counts in its parent's links⁻ until it turns out relevant; then it moves to links⁺ (ours: an
 * HTML page becomes known as an RDF parent only when one of its own links is fetched and is RDF).
 */
export class UrlTree {
  #nodes = new Map<number, TreeNode>();

  get size(): number {
    return this.#nodes.size;
  }

  /** Adds a start URL (P = 1 until its links are checked). */
  addStart(id: number): void {
    const node = this.#ensure(id);
    if (node.status === 'open') node.status = 'start';
  }

  /** Sets a page's five-metric estimate (when the page is observed). */
  setEstimate(id: number, est: number): void {
    this.#ensure(id).est = est;
  }

  /**
   * Records a fetched document under its parent (topical §3 step 5). Returns the ids that became relevant, in
   * order (the document if RDF, then its parent as an RDF parent), so callers can learn from them.
   */
  recordFetch(id: number, parent: number | null, outcome: FetchOutcome): number[] {
    const node = this.#ensure(id);
    if (parent !== null && parent !== id && node.parent === -1) {
      node.parent = parent;
      this.#ensure(parent);
    }
    const newly: number[] = [];
    if (outcome === 'rdf') {
      this.#markRelevant(id, newly);
      if (parent !== null && parent !== id) this.#markRelevant(parent, newly);
    } else {
      if (outcome === 'dead' && node.status !== 'relevant') node.status = 'dead';
      this.#count(id, MINUS);
    }
    return newly;
  }

  /** P(v) of topical §3 (see the class comment); 0.5 for an unknown node. */
  probability(id: number): number {
    const node = this.#nodes.get(id);
    if (node === undefined) return 0.5;
    if (node.status === 'relevant') return 1;
    if (node.status === 'dead') return 0;
    if (node.plus + node.minus > 0) return (1 + node.plus) / (1 + node.plus + node.minus);
    if (node.status === 'start') return 1;
    return Number.isNaN(node.est) ? 0.5 : node.est;
  }

  /**
   * P(v) for judging the links of v's document when nothing about them is known yet (ours): the mean of v's own
   * estimate and its tree parent's P, so the update rule on the parent (how many of v's siblings led to RDF)
   * reaches v's links. Equals `probability(v)` once v is relevant, dead, checked, a start URL, or has no parent.
   */
  inheritedProbability(id: number): number {
    const node = this.#nodes.get(id);
    const own = this.probability(id);
    if (node === undefined || node.parent === -1 || node.status !== 'open' || node.plus + node.minus > 0) return own;
    return (own + this.probability(node.parent)) / 2;
  }

  /** The tree parent of a node, or null. */
  parentOf(id: number): number | null {
    const p = this.#nodes.get(id)?.parent ?? -1;
    return p === -1 ? null : p;
  }

  status(id: number): NodeStatus | null {
    return this.#nodes.get(id)?.status ?? null;
  }

  /** links⁺ and links⁻ of a node. */
  counts(id: number): { plus: number; minus: number } {
    const node = this.#nodes.get(id);
    return { plus: node?.plus ?? 0, minus: node?.minus ?? 0 };
  }

  toJSON(): UrlTreeNodeJson[] {
    return [...this.#nodes].map(([id, n]) => [id, n.parent, n.plus, n.minus, n.status, Number.isNaN(n.est) ? null : n.est, n.counted]);
  }

  restoreFrom(json: UrlTreeNodeJson[] | null | undefined): void {
    this.#nodes = new Map();
    for (const [id, parent, plus, minus, status, est, counted] of json ?? []) {
      this.#nodes.set(id, { parent, plus, minus, status, est: est ?? Number.NaN, counted });
    }
  }

  #ensure(id: number): TreeNode {
    let node = this.#nodes.get(id);
    if (node === undefined) this.#nodes.set(id, (node = { parent: -1, plus: 0, minus: 0, status: 'open', est: Number.NaN, counted: NONE }));
    return node;
  }

  #markRelevant(id: number, newly: number[]): void {
    const node = this.#ensure(id);
    if (node.status !== 'relevant') {
      node.status = 'relevant';
      newly.push(id);
    }
    this.#count(id, PLUS);
  }

  /** Counts a node in its parent's links⁺/links⁻; moves it from links⁻ to links⁺, never back. */
  #count(id: number, as: typeof MINUS | typeof PLUS): void {
    const node = this.#nodes.get(id)!;
    if (node.parent === -1 || node.counted === PLUS || node.counted === as) return;
    const parent = this.#nodes.get(node.parent)!;
    if (node.counted === MINUS) parent.minus -= 1;
    if (as === PLUS) parent.plus += 1;
    else parent.minus += 1;
    node.counted = as;
  }
}
