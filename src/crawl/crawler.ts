// **Crawler** runs a crawl (docs/architecture.md): the Scheduler picks a link, a FetchRunner fetches, plans, stages and commits
// it (fetch-runner.ts). The Crawler opens and resumes the crawl, owns concurrency, the clock and the stop reason.
import type { CrawlRecord } from '../crawl-log/record.ts';
import { type CrawlSummary, type CrawlTally, stopReason } from '../crawl-log/tally.ts';
import { Fetcher } from '../fetch/index.ts';
import type { OutageEvent } from '../fetch/outage.ts';
import { compileScope, type Scope } from '../frontier/index.ts';
import type { Frontier, FrontierEntry } from '../frontier/types.ts';
import { type CrawlState, openState } from '../state/open-state.ts';
import { indexInWorker } from '../state/indexer-handover.ts';
import { FetchArchive, WarcWriter } from '../warc/index.ts';
import { type ArchiveChoice, type ArchiveOptions, chooseArchive, keepArchiveChoice } from './archive-choice.ts';
import { isNotAvailable, linkTablesHook } from './beebot-hooks.ts';
import { type CommitHook, Committer } from './commit-plan.ts';
import { CrawlContexts, fetchContextWith } from './context-fetcher.ts';
import { ContextStore } from './context-store.ts';
import type { CrawlControl } from './control.ts';
import { applyControl, type ControlledCrawl, crawlView, idleUntil, sleepUntil, WAKE } from './control-hooks.ts';
import { type ExplicitOptions, saveDepthDropped } from './crawl-meta.ts';
import { fetcherOptions, type ResolvedCrawlOptions } from './options.ts';
import { Doorbell } from './doorbell.ts';
import { FetchRunner } from './fetch-runner.ts';
import { archiveInfo } from './replay-source.ts';
import { type RestoredCrawl, restoreCrawl, shouldRejudge } from './restore-crawl.ts';
import { Scheduler } from './scheduler.ts';
import type { RefusedSeed } from './seed-list.ts';
import type { Coordination, Coordinator } from './coordinator.ts';
import { localCoordination } from './local-coordination.ts';
import { type CrawlProbes, NO_PROBES } from './probes.ts';
import { ParsePool } from './parse-pool.ts';

/** Parse options of a crawl that are no crawl option (programmatic: tests and benchmarks). */
export interface CrawlParseOptions {
  /** Whether the JSON-LD fast path is used (rdf/parse-options.ts `jsonLdFastPath`). Default: the parser's default. */
  jsonLdFastPath?: boolean;
}

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
  /** Told when every request fails at the connection level and the crawl pauses, and when it resumes. */
  onOutage?: (e: OutageEvent) => void;
}

/**
 * One crawl over one output folder. `open()` creates or resumes it (options of an existing crawl are reused;
 * conflicting identity options are refused), `run()` crawls until the budget is spent, the frontier is empty,
 * or the signal aborts. In-flight fetches interrupted by an abort are not committed: they stay queued.
 */
export class Crawler {
  readonly options: ResolvedCrawlOptions;
  readonly state: CrawlState;
  readonly #frontier: Frontier;
  readonly #fetcher: Fetcher;
  readonly #tally: CrawlTally;
  /** What the crawl may leave its seeds for. */
  readonly #scope: Scope;
  readonly #resumed: boolean;
  /** Seeds refused before any request (private address, localhost): never queued, never counted as fetched. */
  readonly refusedSeeds: readonly RefusedSeed[];
  readonly #scheduler: Scheduler;
  readonly #committer: Committer;
  /** What the operator's commands (dashboard) read and change. */
  readonly #controlled: ControlledCrawl;
  /** `--warc`: every fetch's exchanges and what the crawl made of it, as WARC records; null without. */
  readonly #archive: FetchArchive | null;
  /** What this run archives (`--warc`), and whether it came from this run's flags or from the crawl's earlier run. */
  archiveChoice: ArchiveChoice = { from: 'none' };
  /** What this process agrees with the others of its crawl (a process alone: LocalCoordinator). */
  readonly #coordinator: Coordinator;
  /** Runs each fetch; holds the record seq and the first fatal error. */
  readonly #runner: FetchRunner;
  /** The JSON-LD remote contexts the crawl's documents need (null with `--no-remote-contexts`). */
  readonly #contexts: CrawlContexts | null;
  /** The signal of the run in progress (a context fetch stops with it). */
  #signal: AbortSignal | undefined;
  /** `--threads N`: the workers that parse fetched documents; null: they are parsed on this thread. */
  readonly #pool: ParsePool | null;

  private constructor(
    state: CrawlState,
    init: RestoredCrawl,
    notAvailable: ReadonlySet<string>,
    hooks: readonly CommitHook[],
    archive: FetchArchive | null,
    coordinator: Coordinator,
    probes: CrawlProbes,
    parse: CrawlParseOptions,
    pool: ParsePool | null,
  ) {
    const o = init.options;
    this.#pool = pool;
    this.options = o;
    this.state = state;
    this.#frontier = init.frontier;
    this.#tally = init.tally;
    this.#scope = compileScope(o, init.seedPlds);
    this.#resumed = init.resumed;
    this.refusedSeeds = init.refusedSeeds;
    const rejudge = shouldRejudge(o, init.strategy);
    this.#archive = archive;
    this.#fetcher = new Fetcher({ ...fetcherOptions(o), onExchange: archive?.onExchange ?? null });
    this.#scheduler = new Scheduler({
      frontier: this.#frontier,
      answeredEarlier: [...coordinator.answeredElsewhere(), ...init.answeredOrigins], // this folder's own last
      policy: init.policy,
      tally: this.#tally,
      maxDocs: o.maxDocs,
      maxDocsPerPld: o.maxDocsPerPld,
      delayMs: o.delayMs,
      hostConcurrency: o.hostConcurrency,
      now: Date.now,
      claims: coordinator.claims,
    });
    const scheduler = this.#scheduler;
    this.#coordinator = coordinator;
    // BeeBot mode (BeeBot §2) plugs in as hooks: link tables with each page; Not Available sites rebuilt on resume.
    for (const pld of notAvailable) this.#scheduler.exclude(pld);
    this.#committer = new Committer({
      state,
      frontier: this.#frontier,
      strategy: init.strategy,
      policy: init.policy,
      reward: o.reward,
      rejudge,
      seq: init.seq,
      hooks: [...(o.linkTables ? [linkTablesHook(state)] : []), ...hooks],
    });
    const fetch = fetchContextWith({ fetcher: this.#fetcher, gatePld: (pld) => scheduler.gatePld(pld), archive, signal: () => this.#signal });
    this.#contexts = o.remoteContexts ? new CrawlContexts({ store: new ContextStore(state), fetch }) : null;
    const parseOptions = { remoteContexts: this.#contexts, ...(parse.jsonLdFastPath === undefined ? {} : { jsonLdFastPath: parse.jsonLdFastPath }) };
    const ignores = init.frontier.ignores?.bind(init.frontier);
    const planDeps = { state, committer: this.#committer, strategy: init.strategy, options: o, scope: this.#scope, rejudge, parse: parseOptions, ...(ignores ? { ignores } : {}), ...(pool ? { analyse: pool.analyse } : {}) };
    this.#runner = new FetchRunner({
      ...{ options: o, state, frontier: this.#frontier, strategy: init.strategy, fetcher: this.#fetcher, scheduler: this.#scheduler },
      ...{ committer: this.#committer, tally: this.#tally, planDeps, archive, coordinator: this.#coordinator, probes, seq: init.seq, depthDroppedBefore: init.depthDropped },
    });
    const { frontier, strategy, policy, tally, seedPlds } = init;
    this.#controlled = { state, frontier, strategy, scheduler: this.#scheduler, tally, policy, maxDocs: o.maxDocs, seedPlds };
  }

  /**
   * Opens a crawl in `explicit.out`: a new one, or a resume of what is there (`restoreCrawl`). `explicit` holds only
   * the options the user gave; the stored ones fill the rest. `backends.coordination` says how the crawl is shared
   * (default: a process alone with its frontier in LevelDB; `localCoordination({ backend: 'memory' })` keeps the queue
   * in this process only, e.g. for tests and simulations). `backends.hooks`
   * are staged with every fetch's plan, in its transaction (the `--sink` marks, crawl/sink-sender.ts). `backends.warc`
   * writes every response to WARC files (a file, or a folder of rotating files; `crawl --warc`).
   */
  static async open(
    explicit: ExplicitOptions,
    backends: {
      hooks?: readonly CommitHook[];
      warc?: ArchiveOptions;
      /** `--no-warc`: stop writing the WARC an earlier run of this crawl asked for. */
      noWarc?: boolean;
      /** How the crawl is coordinated (src/distributed/: a worker of a crawl shared through Redis). Default: this process alone. */
      coordination?: Coordination;
      /** Points a test may stop or watch the crawl at. Default: none. */
      probes?: CrawlProbes;
      /** How documents are parsed beyond the crawl's options (tests and benchmarks: the JSON-LD fast path off). */
      parse?: CrawlParseOptions;
    } = {},
  ): Promise<Crawler> {
    const coordination = backends.coordination ?? localCoordination();
    const state = await openState(explicit.out, { indexWorker: indexInWorker() });
    let archive: FetchArchive | null = null;
    let pool: ParsePool | null = null;
    let init: RestoredCrawl | undefined;
    try {
      const notAvailable = new Set<string>();
      const onRecord = (r: CrawlRecord, o: ResolvedCrawlOptions) => {
        if (isNotAvailable(o, r)) notAvailable.add(r.pld);
      };
      const { hooks = [], warc, noWarc, probes = NO_PROBES, parse = {} } = backends;
      init = await restoreCrawl(state, explicit, { onRecord, coordination });
      const coordinator = await coordination.join({ ...init, state, probes });
      // --warc is kept with the crawl: a resume without the flag goes on writing the same archive (archive-choice.ts)
      const archiveChoice = await chooseArchive(state, warc, noWarc === true);
      if (archiveChoice.warc) archive = new FetchArchive(await WarcWriter.open({ ...archiveChoice.warc, info: archiveInfo(init.options, init.seedPlds) }));
      await keepArchiveChoice(state, archiveChoice);
      // --threads: workers start at the first document that needs one (none in a crawl of pages under --thread-min-kb).
      if (init.options.threads > 0) pool = new ParsePool({ size: init.options.threads, minBytes: init.options.threadMinKb * 1024 });
      const crawler = new Crawler(state, init, notAvailable, hooks, archive, coordinator, probes, parse, pool);
      crawler.archiveChoice = archiveChoice;
      return crawler;
    } catch (err) {
      await pool?.close();
      await archive?.close();
      await coordination.close();
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
    this.#signal = signal;
    const scheduler = this.#scheduler;
    const active = new Set<Promise<void>>();
    const finished = new Doorbell(); // rung by each fetch as it ends: one wait per loop turn, not one per fetch in flight
    const wakeUp = new AbortController();
    signal?.addEventListener('abort', () => wakeUp.abort(), { once: true });
    let offline = false;
    const coordinator = this.#coordinator;
    // A worker of a shared crawl: each release also claims the scheduler's next choices, when the loop would pick.
    coordinator.claimAhead(() => {
      if (this.#runner.fatal === null && !signal?.aborted && !control?.paused) scheduler.claimAhead();
    });

    while (this.#runner.fatal === null) {
      if (signal?.aborted) break;
      if (active.size === 0 && coordinator.over() !== null) break; // over for every process of the crawl
      if (scheduler.offlineFor() > this.options.maxOfflineMs) {
        offline = true; // what failed is still queued: a resume tries it again
        break;
      }
      if (scheduler.budgetLeft() <= 0) {
        if (active.size === 0) break;
        // The budget is held by fetches in flight; one may yet give its slot back (a robots refusal, a retry put
        // back in the queue): wait for them rather than stop one short of --max-docs.
        await finished.next();
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
        const job = this.#runOne(entry, runOptions).finally(() => {
          active.delete(job);
          finished.ring();
        });
        active.add(job);
        scheduler.changed(entry.pld); // started: politeness delay, host concurrency, budget
      }
      if (active.size === 0 && !dispatched) {
        if (this.#frontier.loading) {
          await this.#frontier.settled(); // a PLD's head is being read from disk: wait for it, not for a timer
          continue;
        }
        // Nothing due here: wake for a PLD's politeness, or wait for the others (links they find may give work). A
        // worker of a shared crawl looks again after its idle wait at the latest: the crawl may end meanwhile (others
        // fetched what it waits for), however far its own wake-up (a back-off, an outage pause).
        const idle = coordinator.idleWaitMs();
        const own = scheduler.nextWake();
        const wake = idle === null ? own : Math.min(own ?? Number.POSITIVE_INFINITY, Date.now() + idle);
        if (wake === null) break;
        await idleUntil(wake, wakeUp.signal, control); // new seeds may give work before then
        continue;
      }
      // Wait for a fetch to finish or for a PLD to wake up, whichever comes first; cancel the timer after.
      const wake = active.size < this.options.concurrency && !control?.paused ? scheduler.nextWake() : null;
      if (wake === null) {
        await finished.next();
        continue;
      }
      const timer = new AbortController();
      const cancel = () => timer.abort(WAKE);
      wakeUp.signal.addEventListener('abort', cancel, { once: true });
      await Promise.race([finished.next(), sleepUntil(wake, timer.signal)]);
      timer.abort(WAKE); // a preset reason: no DOMException built on every loop
      wakeUp.signal.removeEventListener('abort', cancel);
    }
    await Promise.allSettled(active);
    await coordinator.settled();
    if (this.#runner.fatal) throw this.#runner.fatal; // the store failed: nothing more is written
    await this.#committer.persistLearned(this.#runner.seq);
    // Links dropped by --max-depth in earlier runs count too: a resume that finds nothing left stops for the reason the
    // run that dropped them would give (max-depth, not frontier-empty). Stored with each fetch that dropped some (a
    // SIGKILLed run keeps its count), and here once more: fetches in flight together may have committed out of order.
    const depthDropped = this.#runner.depthDroppedTotal;
    if (this.#runner.depthDropped > 0) await saveDepthDropped(this.state, depthDropped);
    await this.state.indexer.flush(); // a finished crawl is fully indexed for SPARQL (documents are indexed in bulk)
    const local = stopReason({
      aborted: signal?.aborted === true,
      stopped: control?.stopSignal.aborted === true && callerSignal?.aborted !== true, // the operator's stop, not a signal
      offline,
      budgetLeft: scheduler.budgetLeft(),
      queued: this.#frontier.size().queued,
      pldBudgetReached: [...this.#tally.perPld.values()].some((t) => t.fetched >= this.options.maxDocsPerPld),
      depthDropped,
    });
    const stoppedBy = coordinator.stopReason(local, signal?.aborted === true);
    const deadOrigins = scheduler.failingOrigins();
    const summary: CrawlSummary = {
      ...this.#tally.summary(Math.round(performance.now() - started), stoppedBy, this.#resumed),
      contexts: await new ContextStore(this.state).counts(),
      ...(deadOrigins.length > 0 ? { deadOrigins } : {}),
    };
    return coordinator.summarise(summary);
  }

  async close(): Promise<void> {
    await this.#coordinator.close();
    await this.#fetcher.close();
    await this.#archive?.close();
    await this.#pool?.close();
    await this.state.close();
  }

  async #runOne(entry: FrontierEntry, runOptions: CrawlRunOptions): Promise<void> {
    const outcome = await this.#runner.run(entry, runOptions);
    if (outcome?.kind === 'recorded') {
      runOptions.onRecord?.({ record: outcome.record, tally: this.#tally, queued: this.#frontier.size().queued, inFlight: this.#scheduler.inFlight });
    }
  }
}

