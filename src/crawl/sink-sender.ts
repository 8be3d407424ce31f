// **SinkSender** sends every stored document to the `--sink` Graph Store, in the background, never dropping one.
import { readDocumentText } from '../rdf/index.ts';
import type { GraphStoreSink } from '../sink/index.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { Txn } from '../state/txn.ts';
import type { CommitHook } from './commit-plan.ts';
import type { DocumentPlan } from './process-document.ts';
import { countSinkMarks, deleteSinkMark, hasSinkMark, readSinkMarks, stageSinkMark } from './sink-marks.ts';

/** Options of a {@link SinkSender}. */
export interface SinkSenderOptions {
  /** Documents sent at once. Default: 4. */
  concurrency?: number;
  /** How long after a commit a sending pass starts (documents committed meanwhile join it). Default: 200 ms. */
  delayMs?: number;
  /** Wait before trying an unreachable sink again; doubles per failed pass, up to 60 s. Default: 5,000 ms. */
  retryMs?: number;
}

/** A document the sink refused in this run (an HTTP 4xx other than 408/425/429): kept marked, sent again on resume. */
export interface SinkRefusal {
  graph: string;
  status: number | null;
  reason: string;
}

/** What became of the documents to send, at the end of a run (the crawl summary's `sink`). */
export interface SinkOutcome {
  /** The Graph Store endpoint (credentials removed). */
  endpoint: string;
  /** Documents the sink acknowledged in this run, and their triples. */
  sent: number;
  triples: number;
  /** Documents still marked at the end (the sink was unreachable, or refused them): a resume sends them again. */
  pending: number;
  /** The documents refused in this run, with the store's answer. */
  refused: SinkRefusal[];
  /** The last connection-level failure, when the sink was unreachable at the end; else null. */
  unreachable: string | null;
}

/** Marked graphs read per page. */
const PAGE = 64;
const MAX_RETRY_MS = 60_000;

/**
 * The `--sink` side of a crawl. As a commit hook it writes a "to sink" mark for each stored document in the fetch's
 * atomic batch (crawl/sink-marks.ts), and nothing else: the fetch path never waits for the sink. In the background it
 * reads the marks page by page and PUTs each document, `concurrency` at a time, as its own named graph (graph =
 * document URL, SPARQL 1.1 GSP §5.3); the mark is removed once the sink acknowledges. The queue is the marks in the
 * store, so memory stays bounded however far the sink falls behind, and nothing is lost when the process dies: a
 * resume finds the marks and sends them. A refused document (4xx) stays marked and is reported; an unreachable sink
 * (after the client's own retries) pauses sending, with back-off, until it answers again.
 */
export class SinkSender implements CommitHook {
  readonly #sink: GraphStoreSink;
  readonly #concurrency: number;
  readonly #delayMs: number;
  readonly #retryMs: number;
  #state: CrawlState | null = null;
  readonly #refused = new Map<string, SinkRefusal>();
  #sent = 0;
  #triples = 0;
  #failedPasses = 0;
  #unreachable: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #pass: Promise<void> | null = null;
  #again = false;
  /** Wakes a pass waiting for its documents in flight, when new ones are marked. */
  #wake: (() => void) | null = null;
  #closed = false;
  #outcome: Promise<SinkOutcome> | null = null;

  constructor(sink: GraphStoreSink, opts: SinkSenderOptions = {}) {
    this.#sink = sink;
    this.#concurrency = opts.concurrency ?? 4;
    this.#delayMs = opts.delayMs ?? 200;
    this.#retryMs = opts.retryMs ?? 5_000;
  }

  /** Starts sending for the crawl in `state`, beginning with what a previous run left marked. */
  start(state: CrawlState): void {
    this.#state = state;
    this.notify();
  }

  /** Commit hook: marks the plan's stored document in the fetch's transaction; sending starts after the commit. */
  stage(plan: DocumentPlan, txn: Txn): void {
    if (plan.store?.kind !== 'document' || plan.record.triples <= 0) return;
    if (this.#state === null) throw new Error('SinkSender.start(state) must be called before the crawl runs.');
    stageSinkMark(this.#state, txn, plan.record.finalUrl);
    txn.onCommit(() => this.notify());
  }

  /** Schedules a sending pass (after the back-off while the sink is unreachable). */
  notify(): void {
    if (this.#closed || this.#state === null || this.#timer !== null) return;
    const wait = this.#unreachable === null ? this.#delayMs : Math.min(this.#retryMs * 2 ** (this.#failedPasses - 1), MAX_RETRY_MS);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#start().catch(() => {});
    }, wait);
    this.#timer.unref();
  }

  /**
   * Ends the run: waits for the pass under way, makes one last pass over what is marked (trying an unreachable sink
   * once more), stops, and reports. What is still marked is sent by the next run of the crawl. Idempotent.
   */
  finish(): Promise<SinkOutcome> {
    this.#outcome ??= this.#finish();
    return this.#outcome;
  }

  async #finish(): Promise<SinkOutcome> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#state !== null) {
      if (this.#pass !== null) await this.#pass.catch(() => {});
      await this.#start().catch(() => {});
    }
    this.#closed = true;
    const pending = this.#state === null ? 0 : await countSinkMarks(this.#state);
    return { endpoint: this.#sink.endpoint, sent: this.#sent, triples: this.#triples, pending, refused: [...this.#refused.values()], unreachable: this.#unreachable };
  }

  #start(): Promise<void> {
    if (this.#pass !== null) {
      this.#again = true;
      this.#wake?.();
      return this.#pass;
    }
    this.#pass = (async () => {
      try {
        await this.#runPass();
      } finally {
        this.#pass = null;
      }
      if (this.#unreachable !== null) this.notify(); // try again after the back-off
    })();
    return this.#pass;
  }

  /**
   * One pass: sends the marked documents, `concurrency` at a time, until none is left that is not refused or in
   * flight; documents marked meanwhile join it (marks are in key order, so it goes round again from the first).
   * It stops early when the sink is unreachable.
   */
  async #runPass(): Promise<void> {
    const state = this.#state as CrawlState;
    const inFlight = new Set<Promise<void>>();
    const sending = new Set<string>();
    let down = false;
    let after: string | undefined;
    this.#again = false;
    while (!down && !this.#closed) {
      const graphs = await readSinkMarks(state, after, PAGE);
      if (graphs.length === 0) {
        if (this.#again) {
          this.#again = false;
          after = undefined;
          continue;
        }
        if (inFlight.size === 0) break;
        await this.#slotOrWake(inFlight);
        continue;
      }
      after = graphs[graphs.length - 1];
      for (const graph of graphs) {
        if (down) break;
        if (this.#refused.has(graph) || sending.has(graph)) continue; // refused in this run: retried on resume
        sending.add(graph);
        // Acknowledged since the page was read? (A mark is removed before its graph leaves `sending`.)
        if (!(await hasSinkMark(state, graph))) {
          sending.delete(graph);
          continue;
        }
        const job: Promise<void> = this.#send(state, graph).then((ok) => {
          if (!ok) down = true;
          sending.delete(graph);
          inFlight.delete(job);
        });
        inFlight.add(job);
        if (inFlight.size >= this.#concurrency) await Promise.race(inFlight);
      }
    }
    await Promise.all(inFlight);
    if (down) this.#failedPasses += 1;
    else {
      this.#failedPasses = 0;
      this.#unreachable = null;
    }
  }

  /** Resolves when a document in flight is done, or when new documents are marked (`#start` wakes it). */
  async #slotOrWake(inFlight: ReadonlySet<Promise<void>>): Promise<void> {
    const woken = new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    await Promise.race([...inFlight, woken]);
    this.#wake = null;
  }

  /** Sends one document; false when the sink could not be reached (or kept failing with 5xx, 408, 425, 429). */
  async #send(state: CrawlState, graph: string): Promise<boolean> {
    const text = await readDocumentText(state, graph);
    if (text === undefined) {
      await deleteSinkMark(state, graph); // nothing stored under it: nothing to send
      return true;
    }
    const triples = text.split('\n').length - 1;
    const result = await this.#sink.putBody(graph, text, triples);
    if (result.kind === 'stored') {
      if (state.db.status === 'open') await deleteSinkMark(state, graph);
      this.#sent += 1;
      this.#triples += triples;
      return true;
    }
    if (result.retryable) {
      this.#unreachable = result.reason;
      return false;
    }
    this.#refused.set(graph, { graph, status: result.status, reason: result.reason });
    return true;
  }
}
