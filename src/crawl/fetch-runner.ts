// **FetchRunner** takes one frontier entry through a fetch: politeness, fetch, retry or plan, commit, archive (design.md).
import diagnostics from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { CrawlTally } from '../crawl-log/tally.ts';
import { RdfscoutError } from '../errors.ts';
import type { Fetcher } from '../fetch/index.ts';
import type { Verdict } from '../fetch/connectivity.ts';
import type { OutageEvent } from '../fetch/outage.ts';
import type { FetchResult } from '../fetch/types.ts';
import type { Frontier, FrontierEntry } from '../frontier/types.ts';
import { HTML_VARIANT_ACCEPT, isHtmlVariant } from '../links/html-variant.ts';
import { worthReading } from '../rdf/sniff.ts';
import { BARREN_RULE } from '../relevance/pattern-yield.ts';
import type { Strategy } from '../relevance/types.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { FetchArchive } from '../warc/index.ts';
import { isSitemapLink } from './analyse-document.ts';
import type { Committer } from './commit-plan.ts';
import type { ResolvedCrawlOptions } from './options.ts';
import { type PlanDeps, planFetch } from './plan-fetch.ts';
import { retryAfter } from './retry.ts';
import { stageDepthDropped } from './crawl-meta.ts';
import { rewardOf } from './reward.ts';
import type { Scheduler } from './scheduler.ts';
import type { Coordinator } from './coordinator.ts';
import type { CrawlProbes } from './probes.ts';

// The fetcher publishes rdfscout:fetch:start / rdfscout:fetch:end; the crawl adds what it stored and recorded.
const chRecord = diagnostics.channel('rdfscout:crawl:record');
const chOutage = diagnostics.channel('rdfscout:crawl:outage');

/** How a processed fetch ends: committed as a record, or put back for a retry. */
export type FetchOutcome = { kind: 'recorded'; record: CrawlRecord } | { kind: 'retry' } | { kind: 'aborted' } | { kind: 'lost' };

/** The parts of a crawl one fetch uses (owned by the Crawler). */
export interface FetchRunnerDeps {
  options: ResolvedCrawlOptions;
  state: CrawlState;
  frontier: Frontier;
  strategy: Strategy;
  fetcher: Fetcher;
  scheduler: Scheduler;
  committer: Committer;
  tally: CrawlTally;
  planDeps: PlanDeps;
  /** `--warc`: every fetch's exchanges and what the crawl made of it, as WARC records; null without. */
  archive: FetchArchive | null;
  /** What this process agrees with the others of its crawl (none: LocalCoordinator). */
  coordinator: Coordinator;
  /** Points a test may stop or watch the crawl at (NO_PROBES unless a test asks). */
  probes: CrawlProbes;
  /** The last record's seq when the run began (the crawl's records are numbered on). */
  seq: number;
  /** Links dropped by --max-depth in earlier runs (crawl-meta `depthDropped`). */
  depthDroppedBefore: number;
}

/**
 * Runs fetches for the Crawler's loop, any number at once: each is fetched under politeness, put back for a retry,
 * or planned, staged and committed in one batch. It keeps the counters the fetches share (record seq, depth-dropped
 * links) and the first fatal error (a store or archive failure, or a bug), after which the crawl stops.
 */
export class FetchRunner {
  readonly #d: FetchRunnerDeps;
  #seq: number;
  /** Fetches started in this run (names each fetch's exchanges in the archive). */
  #fetches = 0;
  /** Links not queued in this run because they were deeper than --max-depth (for `stoppedBy`). */
  depthDropped = 0;
  /** Links dropped by --max-depth over the crawl: earlier runs' and this one's (crawl-meta `depthDropped`). */
  get depthDroppedTotal(): number {
    return this.#d.depthDroppedBefore + this.depthDropped;
  }
  /** The error that ends the crawl, or null. */
  fatal: RdfscoutError | null = null;

  constructor(d: FetchRunnerDeps) {
    this.#d = d;
    this.#seq = d.seq;
  }

  /** The last record's seq. */
  get seq(): number {
    return this.#seq;
  }

  /** One fetch of `entry`, start to end; never rejects (a failure is kept in `fatal`). */
  async run(entry: FrontierEntry, opts: { signal?: AbortSignal; onOutage?: (e: OutageEvent) => void }): Promise<FetchOutcome | null> {
    const { scheduler, coordinator, archive } = this.#d;
    // A fetch stops being "in flight" when it joins the tally (before its commit), so budgets never count it twice.
    const flight = { landed: false };
    const land = () => {
      if (flight.landed) return;
      flight.landed = true;
      scheduler.landed(entry);
    };
    try {
      const outcome = await this.#process(entry, opts, land);
      if (archive?.error) throw archive.error; // --warc cannot keep the raw responses: stop, as for the store
      // Not fetched here (aborted) or not ours any more (lost): give the entry back if its lease is still held.
      if (outcome.kind === 'aborted' || outcome.kind === 'lost') await coordinator.giveBack(entry);
      return outcome;
    } catch (err) {
      // A failure to write the store (RDFSCOUT_STORE_FAILED, from the Txn) or a bug ends the crawl: continuing could
      // lose data. Nothing of this fetch was committed, so a resume fetches it again.
      this.fatal ??=
        err instanceof RdfscoutError
          ? err
          : new RdfscoutError('RDFSCOUT_INTERNAL', `Unexpected error while processing ${entry.url}: ${String((err as Error)?.stack ?? err)}`, { cause: err, url: entry.url });
      return null;
    } finally {
      land();
      scheduler.changed(entry.pld); // its in-flight fetch no longer counts against its budget
    }
  }

  /** One fetch: fetched under politeness, put back for a retry, or planned, staged and committed in one batch. */
  async #process(entry: FrontierEntry, opts: { signal?: AbortSignal; onOutage?: (e: OutageEvent) => void }, land: () => void): Promise<FetchOutcome> {
    const { options, scheduler, coordinator, archive, strategy, committer, probes } = this.#d;
    const t0 = performance.now();
    const { signal } = opts;
    // Learned since it was queued that its URL pattern yields nothing or that its expected yield
    // fell: back it goes, no fetch.
    const later = strategy.reprioritise?.(entry) ?? null;
    if (later !== null) return this.#requeue({ ...entry, priority: later, rules: [...entry.rules, BARREN_RULE], attempts: entry.attempts - 1 }, 0);
    const archiveId = String(++this.#fetches);
    const result = await this.#fetch(entry, signal, archiveId);
    // --warc: a fetch that ends without a record is archived too, saying why (a re-parse skips it).
    const unrecorded = (outcome: string) => void archive?.finish(archiveId, entry.url, { outcome, entry, result: { ...result, body: undefined } });
    if (signal?.aborted) {
      unrecorded('aborted');
      return { kind: 'aborted' };
    }
    const connectivity = await this.#judge(entry, result, signal);
    if (signal?.aborted) {
      unrecorded('aborted');
      return { kind: 'aborted' };
    }
    if (connectivity.kind !== 'check' && connectivity.event !== null) {
      if (chOutage.hasSubscribers) chOutage.publish(connectivity.event);
      opts.onOutage?.(connectivity.event);
    }
    // Failed while the network is down: not the URL's fault. Back in the queue, no attempt spent, due when the pause
    // ends — or at once for the other workers of a shared crawl, whose network may work (Coordinator.offlineDueAt).
    if (connectivity.kind === 'network' && connectivity.offline) {
      unrecorded('retry');
      return this.#requeue({ ...entry, attempts: entry.attempts - 1 }, coordinator.offlineDueAt(scheduler.pausedUntil));
    }
    const own = connectivity.kind === 'own';
    const retry = retryAfter(entry, result, { ...options, ownFailure: own, deadOrigin: own && connectivity.dead });
    if (retry !== null) {
      unrecorded('retry');
      if (retry.backoffPld) scheduler.backoff(entry.pld, Date.now() + retry.waitMs);
      if (retry.backoffPld) coordinator.note(entry, { waitMs: retry.waitMs }); // Retry-After, across workers
      return this.#requeue(entry, Date.now() + retry.waitMs);
    }

    // A shared crawl's worker that lost its lease meanwhile (stopped too long) drops the fetch: another has the URL.
    if (!(await coordinator.confirm(entry))) {
      unrecorded('lost');
      return { kind: 'lost' };
    }
    const robotsSitemaps = entry.parent === null && entry.link === null ? this.#d.fetcher.sitemapsOf(entry.url) : [];
    const stamp = () => ({ seq: ++this.#seq, ms: Math.round(performance.now() - t0), fetchedAt: new Date().toISOString() });
    const { plan, txn } = await planFetch(this.#d.planDeps, entry, result, { robotsSitemaps, stamp });
    this.depthDropped += plan.depthDropped;
    // Stored with the fetch that dropped them: a resume after a SIGKILL stops for max-depth as one process would.
    if (plan.depthDropped > 0) stageDepthDropped(txn, this.#d.state, this.depthDroppedTotal);
    const { record } = plan;
    land();
    coordinator.staged(entry, record, rewardOf(options.reward, record, plan.external), plan.depthDropped);
    await txn.commit();
    probes.pause('after-commit', entry.url);
    // --warc: the fetch's records are queued after its commit and written in the background (off the commit's path;
    // after a SIGKILL the archive may lack the last fetches committed: README "Raw responses (WARC)"). The wait is
    // for room in the archive's bounded queue only.
    const archived = archive?.finish(archiveId, entry.url, { outcome: 'recorded', entry, result: { ...result, body: undefined }, seq: record.seq, ms: record.ms, fetchedAt: record.fetchedAt, robotsSitemaps });
    if (!(await coordinator.committed(entry, record))) return { kind: 'lost' }; // refused: the record is void
    scheduler.committed(entry.pld, plan.enqueue);
    if (chRecord.hasSubscribers) chRecord.publish(record);
    await committer.afterCommit(record, options, (p) => scheduler.exclude(p));
    await archived;
    return { kind: 'recorded', record };
  }

  /**
   * What `result` says of the network (fetch/connectivity.ts): when a connection failure may be the network's, the
   * origin that answered last is asked for its robots.txt first, and its answer decides.
   */
  async #judge(entry: FrontierEntry, result: FetchResult, signal: AbortSignal | undefined): Promise<Verdict> {
    const { scheduler, fetcher } = this.#d;
    const verdict = scheduler.observe(entry, result);
    if (verdict.kind !== 'check') return verdict;
    const answered = await fetcher.probe(verdict.target, signal);
    if (signal?.aborted) {
      scheduler.abandonCheck(entry); // a probe cut short by the stop says nothing of the network
      return { kind: 'fine', event: null };
    }
    return scheduler.checked(entry, result, verdict.target, answered);
  }

  /** Puts `entry` back in the queue, due at `dueAt` (epoch ms; 0: now), in its own transaction. */
  async #requeue(entry: FrontierEntry, dueAt: number): Promise<FetchOutcome> {
    const txn = this.#d.state.txn();
    this.#d.frontier.retry(entry, dueAt, txn);
    await txn.commit();
    await this.#d.coordinator.committed(entry, null);
    this.#d.scheduler.changed(entry.pld);
    return { kind: 'retry' };
  }

  /**
   * Waits at the send gate until the request of `entry` to `url` may leave: successive requests to one PLD
   * leave ≥ --delay-ms apart whatever the host concurrency — in Redis across all workers, else in the scheduler.
   */
  async #passGate(entry: FrontierEntry, url: string, signal: AbortSignal | undefined): Promise<void> {
    const { coordinator, fetcher, probes, scheduler } = this.#d;
    for (;;) {
      signal?.throwIfAborted();
      const { waitMs, at } = await coordinator.gate(entry, fetcher.crawlDelayMs(entry.url), scheduler);
      if (waitMs <= 0) {
        probes.gatePassed(url, entry.pld, at);
        return;
      }
      await sleep(waitMs, undefined, signal ? { signal } : {});
    }
  }

  /** Fetches under politeness (one PLD's delay and concurrency), reading the body if it is worth reading. */
  async #fetch(entry: FrontierEntry, signal: AbortSignal | undefined, archiveId: string): Promise<FetchResult> {
    const { scheduler, fetcher, coordinator, probes } = this.#d;
    probes.pause('before-fetch', entry.url);
    scheduler.requestStarted(entry);
    let sent = false; // the gate is passed before the fetch's first request, if it sends any
    if (probes.armed('during-fetch')) setTimeout(() => probes.pause('during-fetch', entry.url), 20).unref();
    try {
      return await fetcher.fetch(entry.url, {
        // The same for every strategy: strategies differ in order, not in what they read.
        read: (head) => isSitemapLink(entry.link) || worthReading(head.contentType, head.url),
        ...(signal ? { signal } : {}),
        ...(this.#d.archive ? { archiveId } : {}),
        ...(isHtmlVariant(entry.url) ? { accept: HTML_VARIANT_ACCEPT } : {}), // a variant asks for HTML first
        gate: (url) => {
          sent = true;
          return this.#passGate(entry, url, signal);
        },
      });
    } finally {
      const crawlDelayMs = fetcher.crawlDelayMs(entry.url);
      scheduler.requestEnded(entry, crawlDelayMs, sent);
      coordinator.note(entry, { waitMs: crawlDelayMs ?? 0 }); // robots.txt Crawl-delay, across workers
    }
  }
}
