// **Crawler** runs a crawl (design.md): the Scheduler picks a link, the fetcher fetches it, `processDocument` plans
// what follows, the Committer stages the plan, and one atomic batch commits it. It owns concurrency and the clock.
import diagnostics from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import { CRAWL_GRAPH } from '../crawl-log/crawl-vocab.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import { type CrawlSummary, type CrawlTally, stopReason } from '../crawl-log/tally.ts';
import { RdfscoutError } from '../errors.ts';
import { Fetcher } from '../fetch/index.ts';
import type { OutageEvent } from '../fetch/outage.ts';
import type { FetchResult } from '../fetch/types.ts';
import { compileScope, type FrontierBackend, type Scope } from '../frontier/index.ts';
import type { Frontier, FrontierEntry } from '../frontier/types.ts';
import { HTML_VARIANT_ACCEPT, isHtmlVariant } from '../links/html-variant.ts';
import { worthReading } from '../rdf/sniff.ts';
import { BARREN_RULE } from '../relevance/pattern-yield.ts';
import type { Strategy } from '../relevance/types.ts';
import { type CrawlState, openState } from '../state/open-state.ts';
import { FetchArchive, WarcWriter, type WarcWriterOptions } from '../warc/index.ts';
import { isSitemapLink } from './analyse-document.ts';
import { isNotAvailable, linkTablesHook } from './beebot-hooks.ts';
import { type CommitHook, Committer } from './commit-plan.ts';
import type { CrawlControl } from './control.ts';
import { applyControl, type ControlledCrawl, crawlView, idleUntil, sleepUntil, WAKE } from './control-hooks.ts';
import type { ExplicitOptions } from './crawl-meta.ts';
import { fetcherOptions, type ResolvedCrawlOptions } from './options.ts';
import { type PlanDeps, planFetch } from './plan-fetch.ts';
import { archiveInfo } from './replay-source.ts';
import { createLearners, type RestoredCrawl, restoreCrawl, shouldRejudge } from './restore-crawl.ts';
import { retryAfter } from './retry.ts';
import { rewardOf } from './reward.ts';
import { Scheduler } from './scheduler.ts';
import type { RefusedSeed } from './seed-list.ts';
import { SharedLearning } from './shared-learning.ts';
import { SharedWorker } from './shared-worker.ts';
import { logGatePass } from './test-gate-log.ts';
import { pauseArmed, testPause } from './test-pause.ts';
import type { CrawlRegistry } from '../redis/crawl-registry.ts';
import type { SharedQueue } from '../redis/shared-queue.ts';

// The fetcher publishes rdfscout:fetch:start / rdfscout:fetch:end; the crawl adds what it stored and recorded.
const chRecord = diagnostics.channel('rdfscout:crawl:record');
const chOutage = diagnostics.channel('rdfscout:crawl:outage');

/** What the crawler reports while it runs (the CLI draws a progress bar or logs lines from it). */
export interface CrawlProgress {
  record: CrawlRecord;
  tally: CrawlTally;
  queued: number;
  inFlight: number;
}

export interface CrawlRunOptions {
  signal?: AbortSignal;
  onRecord?: (p: CrawlProgress) => void;
  /** Operator commands (pause, resume, stop, seeds, blocks) consulted by the run loop; it also gets the crawler's live view. */
  control?: CrawlControl;
  /** Told when every request fails at the connection level and the crawl pauses, and when it resumes (issue 16 item 3). */
  onOutage?: (e: OutageEvent) => void;
}

/** How a processed fetch ends: committed as a record, or put back for a retry. */
type Outcome = { kind: 'recorded'; record: CrawlRecord } | { kind: 'retry' } | { kind: 'aborted' } | { kind: 'lost' };

/**
 * One crawl over one output folder. `open()` creates or resumes it (options of an existing crawl are reused;
 * conflicting identity options are refused), `run()` crawls until the budget is spent, the frontier is empty,
 * or the signal aborts. In-flight fetches interrupted by an abort are not committed: they stay queued.
 */
export class Crawler {
  readonly options: ResolvedCrawlOptions;
  readonly state: CrawlState;
  readonly #frontier: Frontier;
  readonly #strategy: Strategy;
  readonly #fetcher: Fetcher;
  readonly #tally: CrawlTally;
  /** What the crawl may leave its seeds for (issue 16 item 1). */
  readonly #scope: Scope;
  readonly #resumed: boolean;
  /** Seeds refused before any request (private address, localhost): never queued, never counted as fetched. */
  readonly refusedSeeds: readonly RefusedSeed[];
  /** Links not queued in this run because they were deeper than --max-depth (for `stoppedBy`). */
  #depthDropped = 0;
  readonly #scheduler: Scheduler;
  readonly #committer: Committer;
  /** What the operator's commands (dashboard) read and change. */
  readonly #controlled: ControlledCrawl;
  #seq: number;
  #fatal: RdfscoutError | null = null;
  /** Queued H links are indexed and judged again (--fixed-labels off, and the strategy learns RDF parents). */
  readonly #rejudge: boolean;
  readonly #planDeps: PlanDeps;
  /** `--warc`: every fetch's exchanges and what the crawl made of it, as WARC records; null without. */
  readonly #archive: FetchArchive | null;
  /** Fetches started in this run (names each fetch's exchanges in the archive). */
  #fetches = 0;
  /** Set when this crawl is one worker of a crawl shared through Redis (issue 15). */
  readonly #shared: SharedWorker | null;

  private constructor(state: CrawlState, init: RestoredCrawl, notAvailable: ReadonlySet<string>, hooks: readonly CommitHook[], archive: FetchArchive | null, shared: SharedWorker | null) {
    const o = init.options;
    this.#shared = shared;
    this.options = o;
    this.state = state;
    this.#frontier = init.frontier;
    this.#strategy = init.strategy;
    this.#tally = init.tally;
    this.#seq = init.seq;
    this.#scope = compileScope(o, init.seedPlds);
    this.#resumed = init.resumed;
    this.refusedSeeds = init.refusedSeeds;
    this.#rejudge = shouldRejudge(o, init.strategy);
    this.#archive = archive;
    this.#fetcher = new Fetcher({ ...fetcherOptions(o), onExchange: archive?.onExchange ?? null });
    this.#scheduler = new Scheduler({
      frontier: this.#frontier,
      policy: init.policy,
      tally: this.#tally,
      maxDocs: o.maxDocs,
      maxDocsPerPld: o.maxDocsPerPld,
      delayMs: o.delayMs,
      hostConcurrency: o.hostConcurrency,
      now: Date.now,
    });
    // BeeBot mode (BeeBot §2) plugs in as hooks: link tables with each page; Not Available sites rebuilt on resume.
    for (const pld of notAvailable) this.#scheduler.exclude(pld);
    this.#committer = new Committer({
      state,
      frontier: this.#frontier,
      strategy: this.#strategy,
      policy: init.policy,
      reward: o.reward,
      rejudge: this.#rejudge,
      seq: init.seq,
      hooks: [...(o.linkTables ? [linkTablesHook(state)] : []), ...hooks],
    });
    this.#planDeps = { state, committer: this.#committer, strategy: this.#strategy, options: o, scope: this.#scope, rejudge: this.#rejudge };
    const { frontier, strategy, policy, tally, seedPlds } = init;
    this.#controlled = { state, frontier, strategy, scheduler: this.#scheduler, tally, policy, maxDocs: o.maxDocs, seedPlds };
  }

  /**
   * Opens a crawl in `explicit.out`: a new one, or a resume of what is there (`restoreCrawl`). `explicit` holds only
   * the options the user gave; the stored ones fill the rest. `backends.frontier` picks the frontier's backend
   * (default 'level'; 'memory' keeps the queue in this process only, e.g. for tests and simulations). `backends.hooks`
   * are staged with every fetch's plan, in its transaction (the `--sink` marks, crawl/sink-sender.ts). `backends.warc`
   * writes every response to WARC files (a file, or a folder of rotating files; `crawl --warc`).
   */
  static async open(
    explicit: ExplicitOptions,
    backends: {
      frontier?: FrontierBackend;
      hooks?: readonly CommitHook[];
      warc?: Omit<WarcWriterOptions, 'info'>;
      shared?: { queue: SharedQueue; registry: CrawlRegistry };
    } = {},
  ): Promise<Crawler> {
    const state = await openState(explicit.out);
    let archive: FetchArchive | null = null;
    let init: RestoredCrawl | undefined;
    try {
      const notAvailable = new Set<string>();
      const onRecord = (r: CrawlRecord, o: ResolvedCrawlOptions) => {
        if (isNotAvailable(o, r)) notAvailable.add(r.pld);
      };
      const { hooks = [], warc, shared: sharedBackend, ...restoreBackends } = backends;
      init = await restoreCrawl(state, explicit, { onRecord, ...restoreBackends, ...(sharedBackend === undefined ? {} : { shared: sharedBackend }) });
      let shared: SharedWorker | null = null;
      if (sharedBackend !== undefined && init.frontier.shared !== undefined) {
        const { registry, queue } = sharedBackend;
        await registry.addSeedPlds(init.seedPlds);
        const options = init.options;
        const staleAfterMs = 3 * queue.leases.leaseMs; // a worker silent that long is dead to the leases too
        const learning = new SharedLearning({ registry, worker: queue.worker, strategy: init.strategy, policy: init.policy, seedPlds: init.seedPlds, fresh: () => createLearners(options), staleAfterMs });
        await learning.catchUp(); // what every worker learned so far (thesis §5: C_HR(t) is a function of the fetched documents)
        shared = new SharedWorker(init.frontier.shared, learning, state, queue.leases);
      }
      if (warc) archive = new FetchArchive(await WarcWriter.open({ ...warc, info: archiveInfo(init.options, init.seedPlds) }));
      return new Crawler(state, init, notAvailable, hooks, archive, shared);
    } catch (err) {
      await archive?.close();
      await init?.frontier.shared?.close();
      await state.close();
      throw err;
    }
  }

  get tally(): CrawlTally {
    return this.#tally;
  }

  /** Crawls until the budget is spent, nothing is left, the network stays down too long, or `signal` aborts. */
  async run(runOptions: CrawlRunOptions = {}): Promise<CrawlSummary> {
    const started = performance.now();
    // Control hook (dashboard): stop() aborts like the caller's signal; the loop consults pause/seeds/blocks below.
    const control = runOptions.control ?? null;
    const callerSignal = runOptions.signal;
    if (control) control.view = crawlView(this.#controlled, control);
    const signal = control ? (runOptions.signal ? AbortSignal.any([runOptions.signal, control.stopSignal]) : control.stopSignal) : runOptions.signal;
    runOptions = { ...runOptions, ...(signal ? { signal } : {}) };
    const scheduler = this.#scheduler;
    const active = new Set<Promise<void>>();
    const wakeUp = new AbortController();
    signal?.addEventListener('abort', () => wakeUp.abort(), { once: true });
    let offline = false;
    let sharedEnd: 'max-docs' | 'frontier-empty' | null = null;

    while (this.#fatal === null) {
      if (signal?.aborted) break;
      if (this.#shared !== null && active.size === 0 && (sharedEnd = this.#shared.tick()) !== null) break; // over for every worker
      if (scheduler.offlineFor() > this.options.maxOfflineMs) {
        offline = true; // what failed is still queued: a resume tries it again
        break;
      }
      if (scheduler.budgetLeft() <= 0) {
        if (active.size === 0) break;
        // The budget is held by fetches in flight; one may yet give its slot back (a robots refusal, a retry put
        // back in the queue): wait for them rather than stop one short of --max-docs (issue 16 item 10).
        await Promise.race(active);
        continue;
      }
      if (control?.hasRequests) await applyControl(control, this.#controlled);
      if (control?.paused && active.size === 0) {
        await idleUntil(Date.now() + 60_000, wakeUp.signal, control); // paused: wait for the operator (or an abort)
        continue;
      }
      let dispatched = false;
      while (!control?.paused && active.size < this.options.concurrency && scheduler.budgetLeft() > 0) {
        const entry = scheduler.pick(); // null too while an outage pauses the crawl
        if (entry === null) break;
        dispatched = true;
        const job = this.#runOne(entry, runOptions).finally(() => active.delete(job));
        active.add(job);
        scheduler.changed(entry.pld); // started: politeness delay, host concurrency, budget
      }
      if (active.size === 0 && !dispatched) {
        if (this.#frontier.loading) {
          await this.#frontier.settled(); // a PLD's head is being read from disk: wait for it, not for a timer
          continue;
        }
        let wake = scheduler.nextWake();
        // A worker of a shared crawl waits for the others: links they find may give it work (it stops on a shared end).
        if (wake === null && this.#shared !== null) wake = Date.now() + 100;
        if (wake === null) break;
        await idleUntil(wake, wakeUp.signal, control); // new seeds may give work before then
        continue;
      }
      // Wait for a fetch to finish or for a PLD to wake up, whichever comes first; cancel the timer after.
      const wake = active.size < this.options.concurrency && !control?.paused ? scheduler.nextWake() : null;
      const timer = new AbortController();
      const cancel = () => timer.abort(WAKE);
      wakeUp.signal.addEventListener('abort', cancel, { once: true });
      const waits: Promise<unknown>[] = [...active];
      if (wake !== null) waits.push(sleepUntil(wake, timer.signal));
      await Promise.race(waits);
      timer.abort(WAKE); // a preset reason: no DOMException built on every loop
      wakeUp.signal.removeEventListener('abort', cancel);
    }
    await Promise.allSettled(active);
    await this.#shared?.learning.settled();
    if (this.#fatal) throw this.#fatal; // the store failed: nothing more is written
    await this.#committer.persistLearned(this.#seq);
    await this.state.indexer.flush(); // a finished crawl is fully indexed for SPARQL (documents are indexed in bulk, issue 18)
    const stoppedBy = sharedEnd !== null && !(signal?.aborted === true) ? sharedEnd : stopReason({
      aborted: signal?.aborted === true,
      stopped: control?.stopSignal.aborted === true && callerSignal?.aborted !== true, // the operator's stop, not a signal
      offline,
      budgetLeft: scheduler.budgetLeft(),
      queued: this.#frontier.size().queued,
      pldBudgetReached: [...this.#tally.perPld.values()].some((t) => t.fetched >= this.options.maxDocsPerPld),
      depthDropped: this.#depthDropped,
    });
    const summary = this.#tally.summary(Math.round(performance.now() - started), stoppedBy, this.#resumed);
    if (this.#shared === null) return summary;
    return { ...summary, worker: this.#shared.frontier.worker, refetched: this.#shared.frontier.refetched() };
  }

  async close(): Promise<void> {
    await this.#shared?.frontier.close();
    await this.#fetcher.close();
    await this.#archive?.close();
    await this.state.close();
  }

  async #runOne(entry: FrontierEntry, runOptions: CrawlRunOptions): Promise<void> {
    // A fetch stops being "in flight" when it joins the tally (before its commit), so budgets never count it twice.
    const flight = { landed: false };
    const land = () => {
      if (flight.landed) return;
      flight.landed = true;
      this.#scheduler.landed(entry);
    };
    try {
      const outcome = await this.#process(entry, runOptions, land);
      if (this.#archive?.error) throw this.#archive.error; // --warc cannot keep the raw responses: stop, as for the store
      // Not fetched here (aborted) or not ours any more (lost): give the entry back if its lease is still held.
      if (outcome.kind === 'aborted' || outcome.kind === 'lost') await this.#shared?.frontier.giveBack(entry);
      if (outcome.kind === 'recorded') {
        runOptions.onRecord?.({ record: outcome.record, tally: this.#tally, queued: this.#frontier.size().queued, inFlight: this.#scheduler.inFlight });
      }
    } catch (err) {
      // A failure to write the store (RDFSCOUT_STORE_FAILED, from the Txn) or a bug ends the crawl: continuing could
      // lose data. Nothing of this fetch was committed, so a resume fetches it again.
      this.#fatal =
        err instanceof RdfscoutError
          ? err
          : new RdfscoutError('RDFSCOUT_INTERNAL', `Unexpected error while processing ${entry.url}: ${String((err as Error)?.stack ?? err)}`, { cause: err, url: entry.url });
    } finally {
      land();
      this.#scheduler.changed(entry.pld); // its in-flight fetch no longer counts against its budget
    }
  }

  /** One fetch: fetched under politeness, put back for a retry, or planned, staged and committed in one batch. */
  async #process(entry: FrontierEntry, runOptions: CrawlRunOptions, land: () => void): Promise<Outcome> {
    const t0 = performance.now();
    const { signal } = runOptions;
    // Learned since it was queued that its URL pattern yields nothing (issue 16 item 5) or that its expected yield
    // fell (issue 17 item 2): back it goes, no fetch.
    const later = this.#strategy.reprioritise?.(entry) ?? null;
    if (later !== null) return this.#requeue({ ...entry, priority: later, rules: [...entry.rules, BARREN_RULE], attempts: entry.attempts - 1 }, 0);
    const archiveId = String(++this.#fetches);
    const result = await this.#fetch(entry, signal, archiveId);
    // --warc: a fetch that ends without a record is archived too, saying why (a re-parse skips it).
    const unrecorded = (outcome: string) => void this.#archive?.finish(archiveId, entry.url, { outcome, entry, result: { ...result, body: undefined } });
    if (signal?.aborted) {
      unrecorded('aborted');
      return { kind: 'aborted' };
    }
    const connectivity = this.#scheduler.observe(entry, result);
    if (connectivity.event !== null) {
      if (chOutage.hasSubscribers) chOutage.publish(connectivity.event);
      runOptions.onOutage?.(connectivity.event);
    }
    // Failed while the network is down: not the URL's fault. Back in the queue until the pause ends, no attempt spent.
    if (connectivity.offline) {
      unrecorded('retry');
      return this.#requeue({ ...entry, attempts: entry.attempts - 1 }, this.#scheduler.pausedUntil);
    }
    const retry = retryAfter(entry, result, this.options);
    if (retry !== null) {
      unrecorded('retry');
      if (retry.backoffPld) this.#scheduler.backoff(entry.pld, Date.now() + retry.waitMs);
      if (retry.backoffPld) this.#frontier.shared?.note(entry, { waitMs: retry.waitMs }); // Retry-After, across workers
      return this.#requeue(entry, Date.now() + retry.waitMs);
    }

    // A shared crawl's worker that lost its lease meanwhile (stopped too long) drops the fetch: another has the URL.
    if (this.#shared !== null && !(await this.#shared.confirm(entry))) {
      unrecorded('lost');
      return { kind: 'lost' };
    }
    const robotsSitemaps = entry.parent === null && entry.link === null ? this.#fetcher.sitemapsOf(entry.url) : [];
    const stamp = () => ({ seq: ++this.#seq, ms: Math.round(performance.now() - t0), fetchedAt: new Date().toISOString() });
    const { plan, txn } = await planFetch(this.#planDeps, entry, result, { robotsSitemaps, stamp });
    // --warc: the fetch's records are written before its commit, so that the archive never lacks a committed fetch.
    await this.#archive?.finish(archiveId, entry.url, { outcome: 'recorded', entry, result: { ...result, body: undefined }, seq: plan.record.seq, ms: plan.record.ms, fetchedAt: plan.record.fetchedAt, robotsSitemaps });
    this.#depthDropped += plan.depthDropped;
    const { record } = plan;
    land();
    if (this.#shared === null) this.#tally.add(record);
    else this.#shared.note(entry, record, rewardOf(this.options.reward, record, plan.external));
    await txn.commit();
    if (this.#shared !== null) {
      if (!(await this.#shared.released(entry, record))) return { kind: 'lost' }; // refused: the record is void
      this.#tally.add(record);
    }
    this.#scheduler.committed(entry.pld, plan.enqueue);
    if (chRecord.hasSubscribers) chRecord.publish(record);
    await this.#committer.afterCommit(record, this.options, (p) => this.#scheduler.exclude(p));
    return { kind: 'recorded', record };
  }

  /** Puts `entry` back in the queue, due at `dueAt` (epoch ms; 0: now), in its own transaction. */
  async #requeue(entry: FrontierEntry, dueAt: number): Promise<Outcome> {
    const txn = this.state.txn();
    this.#frontier.retry(entry, dueAt, txn);
    await txn.commit();
    await this.#shared?.released(entry, null);
    this.#scheduler.changed(entry.pld);
    return { kind: 'retry' };
  }

  /**
   * Waits at the send gate until the request of `entry` to `url` may leave (issue 15): successive requests to one PLD
   * leave ≥ --delay-ms apart whatever the host concurrency — in Redis across all workers, else in the scheduler.
   */
  async #passGate(entry: FrontierEntry, url: string, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const { waitMs, at } = this.#shared === null ? this.#scheduler.gate(entry) : await this.#shared.gate(entry, this.#fetcher.crawlDelayMs(entry.url));
      if (waitMs <= 0) {
        logGatePass(url, entry.pld, at);
        return;
      }
      await sleep(waitMs, undefined, signal ? { signal } : {});
    }
  }

  /** Fetches under politeness (one PLD's delay and concurrency), reading the body if it is worth reading. */
  async #fetch(entry: FrontierEntry, signal: AbortSignal | undefined, archiveId: string): Promise<FetchResult> {
    testPause('before-fetch', entry.url);
    this.#scheduler.requestStarted(entry);
    if (pauseArmed('during-fetch')) setTimeout(() => testPause('during-fetch', entry.url), 20).unref();
    try {
      return await this.#fetcher.fetch(entry.url, {
        // The same for every strategy (issue 16 item 4): strategies differ in order, not in what they read.
        read: (head) => isSitemapLink(entry.link) || worthReading(head.contentType, head.url),
        ...(signal ? { signal } : {}),
        ...(this.#archive ? { archiveId } : {}),
        ...(isHtmlVariant(entry.url) ? { accept: HTML_VARIANT_ACCEPT } : {}), // issue 17 item 3: HTML first
        gate: (url) => this.#passGate(entry, url, signal),
      });
    } finally {
      const crawlDelayMs = this.#fetcher.crawlDelayMs(entry.url);
      this.#scheduler.requestEnded(entry, crawlDelayMs);
      this.#frontier.shared?.note(entry, { waitMs: crawlDelayMs ?? 0 }); // robots.txt Crawl-delay, across workers
    }
  }
}

export { CRAWL_GRAPH };
