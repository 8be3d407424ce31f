// **DualFrontier** is the thesis's two-queue variant (thesis §8.2, Figure 3-5): predicted RDF links wait in an RDF
// queue, HTML links (H, HR) in an HTML queue, and a share of the fetch workers belongs to each.
import type { CrawlState } from '../state/open-state.ts';
import type { Txn } from '../state/txn.ts';
import { LevelFrontier, type LevelFrontierOptions } from './level-frontier.ts';
import { RejudgingFrontier } from './similar-queued.ts';
import type { Frontier, FrontierEntry, NewEntry, PldQueue } from './types.ts';

export interface DualFrontierOptions extends LevelFrontierOptions {
  /** Fetches in flight at once in the whole crawl (the workers to share). Default: 5. */
  concurrency?: number;
  /**
   * Share of the workers that serve the RDF queue, in [0, 1]: at most round(share × concurrency) RDF fetches (at
   * least 1) and at most the rest (at least 1) HTML fetches are in flight while both queues have work; a queue
   * with nothing to hand out lends its workers to the other (thesis §8.2: resources shifted dynamically). Default 0.5.
   */
  rdfShare?: number;
}

type Side = 'rdf' | 'html';

/**
 * Two persistent frontiers in one crawl state (sublevels `frontier-rdf`/`seen-rdf` and `frontier`/`seen`), one
 * contract: the scheduler sees one queue per PLD (counts summed, the more urgent head), and `next(pld)` decides which
 * of the PLD's two queues serves by the worker share. A URL lives in one queue only: the queue of its first
 * judgement (a link first queued as H and later found as R stays in the HTML queue, re-prioritised there).
 * In flight, as for `LevelFrontier`, only in memory: a crash hands in-flight entries out again from their queue.
 */
export class DualFrontier extends RejudgingFrontier implements Frontier {
  readonly #rdf: LevelFrontier;
  readonly #html: LevelFrontier;
  readonly #rdfSlots: number;
  readonly #htmlSlots: number;
  /** Which queue each in-flight URL came from. */
  readonly #origin = new Map<string, Side>();
  #inFlight = { rdf: 0, html: 0 };

  private constructor(rdf: LevelFrontier, html: LevelFrontier, opts: DualFrontierOptions) {
    super(opts);
    this.#rdf = rdf;
    this.#html = html;
    const concurrency = Math.max(1, opts.concurrency ?? 5);
    const share = Math.min(1, Math.max(0, opts.rdfShare ?? 0.5));
    this.#rdfSlots = Math.max(1, Math.round(share * concurrency));
    this.#htmlSlots = Math.max(1, concurrency - Math.round(share * concurrency));
  }

  static async open(state: CrawlState, opts: DualFrontierOptions = {}): Promise<DualFrontier> {
    const { concurrency: _c, rdfShare: _s, rejudge: _r, ...levelOpts } = opts;
    const rdf = await LevelFrontier.open(state, { ...levelOpts, sublevels: { queue: state.sub['frontier-rdf'], seen: state.sub['seen-rdf'] } });
    const html = await LevelFrontier.open(state, levelOpts);
    const f = new DualFrontier(rdf, html, opts);
    await f.indexQueue();
    return f;
  }

  /** Routes each link to its queue by label (R → RDF queue); a URL the other queue knows is not queued twice. */
  async add(entries: readonly NewEntry[], txn?: Txn): Promise<number> {
    const rdf: NewEntry[] = [];
    const html: NewEntry[] = [];
    for (const e of entries) {
      if (this.#html.knows(e.url)) html.push(e);
      else if (this.#rdf.knows(e.url)) rdf.push(e);
      else (e.label === 'R' ? rdf : html).push(e);
    }
    const [a, b] = await Promise.all([this.#rdf.add(rdf, txn), this.#html.add(html, txn)]);
    return a + b;
  }

  /** The PLD's next entry: from the RDF queue while RDF workers are free, else from the HTML queue; either lends. */
  next(pld: string, now?: number): FrontierEntry | null {
    const rdfFirst = this.#inFlight.rdf < this.#rdfSlots || this.#inFlight.html >= this.#htmlSlots;
    const order: Side[] = rdfFirst ? ['rdf', 'html'] : ['html', 'rdf'];
    for (const side of order) {
      const entry = this.#side(side).next(pld, now);
      if (entry !== null) {
        this.#origin.set(entry.url, side);
        this.#inFlight[side] += 1;
        this.handedOut(entry.url);
        return entry;
      }
    }
    return null;
  }

  complete(entry: FrontierEntry, txn: Txn, aliases?: readonly string[]): void {
    const side = this.#release(entry.url, txn);
    this.#side(side).complete(entry, txn, aliases);
  }

  retry(entry: FrontierEntry, notBefore: number, txn: Txn): void {
    const side = this.#release(entry.url, txn);
    this.#side(side).retry(entry, notBefore, txn);
    txn.onCommit(() => this.putBack(entry));
  }

  dueAt(pld: string): number {
    return Math.min(this.#rdf.dueAt(pld), this.#html.dueAt(pld));
  }

  /** One queue per PLD for the scheduler: counts summed, the more urgent of the two heads. */
  queues(): PldQueue[] {
    const merged = new Map<string, PldQueue>();
    for (const q of [...this.#rdf.queues(), ...this.#html.queues()]) {
      const m = merged.get(q.pld);
      merged.set(q.pld, m === undefined ? { ...q } : mergeQueues(m, q));
    }
    return [...merged.values()];
  }

  queueOf(pld: string): PldQueue | null {
    const a = this.#rdf.queueOf(pld);
    const b = this.#html.queueOf(pld);
    return a === null ? b : b === null ? a : mergeQueues({ ...a }, b);
  }

  async has(url: string): Promise<boolean> {
    return (await this.#rdf.has(url)) || (await this.#html.has(url));
  }

  size(): { queued: number; inFlight: number; done: number } {
    const a = this.#rdf.size();
    const b = this.#html.size();
    return { queued: a.queued + b.queued, inFlight: a.inFlight + b.inFlight, done: a.done + b.done };
  }

  /** In-flight fetches per queue (for reports and tests). */
  get inFlightByQueue(): Readonly<{ rdf: number; html: number }> {
    return { ...this.#inFlight };
  }

  get loading(): boolean {
    return this.#rdf.loading || this.#html.loading;
  }

  async settled(): Promise<void> {
    await Promise.all([this.#rdf.settled(), this.#html.settled()]);
  }

  /** The HTML queue's entries, then the RDF queue's. */
  async *queued(): AsyncGenerator<FrontierEntry> {
    yield* this.#html.queued();
    yield* this.#rdf.queued();
  }

  #side(side: Side): LevelFrontier {
    return side === 'rdf' ? this.#rdf : this.#html;
  }

  /** The queue an in-flight URL came from; its worker is free once the transaction commits. */
  #release(url: string, txn: Txn): Side {
    const side = this.#origin.get(url) ?? (this.#rdf.knows(url) ? 'rdf' : 'html');
    txn.onCommit(() => {
      if (this.#origin.delete(url)) this.#inFlight[side] -= 1;
    });
    return side;
  }
}

/** `m` with `q`'s counts added and the more urgent of the two heads (mutates and returns `m`). */
function mergeQueues(m: PldQueue, q: PldQueue): PldQueue {
  m.queued += q.queued;
  m.inFlight += q.inFlight;
  if (q.headPriority < m.headPriority || (q.headPriority === m.headPriority && q.headSeq < m.headSeq)) {
    m.headPriority = q.headPriority;
    m.headSeq = q.headSeq;
  }
  return m;
}
