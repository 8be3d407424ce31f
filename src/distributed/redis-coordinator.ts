// **RedisCoordinator**: the Coordinator of one worker of a crawl shared through Redis — leases around the commit, shared learning, shared end.
import type { CrawlRecord } from '../crawl-log/record.ts';
import { rewriteRecord, voidRecord } from '../crawl-log/record-store.ts';
import { type CrawlSummary, type CrawlTally, isRdfRecord, type StopReason } from '../crawl-log/tally.ts';
import type { ClaimView, Coordinator, SendGate } from '../crawl/coordinator.ts';
import type { CrawlProbes } from '../crawl/probes.ts';
import type { FetchNote, FrontierEntry, SharedFrontier } from '../frontier/types.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { PldLeases } from './redis/pld-leases.ts';
import type { SharedLearning } from './shared-learning.ts';

/** What a worker's coordinator is made of (opened by `redisCoordination`, shared-crawl.ts). */
export interface RedisCoordinatorParts {
  frontier: SharedFrontier;
  learning: SharedLearning;
  state: CrawlState;
  leases: PldLeases;
  tally: CrawlTally;
  /** Test probes (`before-release`: just before each release is sent). */
  probes: CrawlProbes;
}

/**
 * The worker's side of a shared crawl, called by the crawl loop at fixed points of a fetch (see `Coordinator`):
 * - before its results are staged, the lease on its PLD is renewed (`confirm`): a lease lost meanwhile means another
 *   worker has the URL, and this fetch is dropped with nothing written;
 * - its record is committed to this worker's shard, then the release is sent with its links, budget and learning;
 * - a refused release (the lease was lost after the renewal: the process was stopped longer than --lease-ms) voids
 *   the record just written (`CrawlRecord.voided`): reads and the tally skip it, as if this worker never fetched it.
 * If the process dies between its commit and its release, the lease expires, the URL is handed out again and
 * fetched again: two records in two shards (or one shard twice), of which the later `fetchedAt` wins.
 * The crawl is over for this worker when it is over for all (`over`: the shared counters, crawl-log/tally.ts
 * `sharedStopReason`), so every worker ends with the reason one process would give.
 */
export class RedisCoordinator implements Coordinator {
  readonly frontier: SharedFrontier;
  readonly learning: SharedLearning;
  readonly claims: ClaimView;
  readonly #p: RedisCoordinatorParts;
  #ahead: () => void = () => {};
  #end: StopReason | null = null;

  constructor(p: RedisCoordinatorParts) {
    this.#p = p;
    this.frontier = p.frontier;
    this.learning = p.learning;
    this.claims = claimsOf(p.frontier);
  }

  /**
   * The send gate: 0 when the request of `entry` may leave now (`at`: the time of the pass — Redis's clock,
   * or this machine's when no call was made), else how long to wait before asking again (ms). `crawlDelayMs`: its
   * host's Crawl-delay, if known.
   *
   * At --host-concurrency 1 the PLD lease spaces the sends by itself, so a worker that holds it asks Redis nothing
   * (CPU per page of a worker): one lease per PLD at a time; a lease is released after its request ended and the
   * PLD is leased again no sooner than max(--delay-ms, Crawl-delay, Retry-After) after the release (both on Redis's
   * clock) — so the next request leaves at least that long after this one ended, which is more than the gate asks.
   * Held is known without a round trip while less than half the lease has passed (`confirm`; renewed otherwise). A
   * worker that lost its lease (stopped past it) asks the gate in Redis, which lets it through only when no lease is
   * held on the PLD and its politeness time has passed, and pushes the next lease back by --delay-ms. With more
   * leases per PLD, their requests could leave together: every request asks the gate in Redis.
   */
  async gate(entry: FrontierEntry, crawlDelayMs: number | null, _own: SendGate): Promise<{ waitMs: number; at: number }> {
    const { leases } = this.#p;
    const leased = leases.hostConcurrency === 1;
    if (leased && (await this.frontier.confirm(entry))) return { waitMs: 0, at: Date.now() };
    const g = await leases.gate(entry.pld, crawlDelayMs ?? 0, leased);
    return { waitMs: g.passed ? 0 : Math.max(1, g.waitMs), at: g.now };
  }

  /**
   * What runs just before each release is sent: the run loop's scheduler asks for its next choices
   * (`Scheduler.claimAhead`), which the release then claims in its own script — one round trip a page less.
   * Set by the run loop, which knows when nothing may start (paused, stopped).
   */
  claimAhead(ahead: () => void): void {
    this.#ahead = ahead;
  }

  /** The origins that answered the other workers, as the shared log read at joining says (SharedLearning). */
  answeredElsewhere(): string[] {
    return this.learning.answeredOrigins();
  }

  /**
   * Each idle turn of the run loop: learn what the others taught, and whether the crawl is over for everyone. A call
   * to Redis that failed in the background (Redis lost past --max-offline-ms) is thrown: an idle worker would
   * otherwise wait forever for claims that cannot come.
   */
  over(): StopReason | null {
    const failure = this.frontier.failure() ?? this.learning.failure;
    if (failure !== null) throw failure;
    this.learning.refresh();
    this.#end = this.frontier.finished();
    return this.#end;
  }

  /**
   * Nothing due here: links the others find may give this worker work, and the crawl may end meanwhile — looked at
   * after 100 ms at the latest, however far this worker's own wake-up (`over` reads Redis at most every 100 ms, and
   * only while no fetch is in flight anywhere as far as the mirror knows).
   */
  idleWaitMs(): number {
    return 100;
  }

  /**
   * A URL put back while this worker is offline is due at once: the others may be online (a worker that never saw an
   * origin answer takes a dead host for the network). Held until this worker's pause ended, it waited for the pause
   * (doubling up to a minute) with every other worker idle: the crawl did not end (differential seed 56).
   */
  offlineDueAt(_pausedUntil: number): number {
    return 0;
  }

  stopReason(local: StopReason, aborted: boolean): StopReason {
    return this.#end !== null && !aborted ? this.#end : local;
  }

  summarise(summary: CrawlSummary): CrawlSummary {
    return { ...summary, worker: this.frontier.worker, refetched: this.frontier.refetched() };
  }

  /** Before staging a fetch's results: whether this worker still holds its lease. */
  async confirm(entry: FrontierEntry): Promise<boolean> {
    return this.frontier.confirm(entry);
  }

  note(entry: FrontierEntry, note: FetchNote): void {
    this.frontier.note(entry, note);
  }

  /** What the release of a fetch carries: budget spent, RDF found, links dropped by depth, the learning and reward. */
  staged(entry: FrontierEntry, record: CrawlRecord, reward: number, depthDropped: number): void {
    this.frontier.note(entry, { spent: record.outcome !== 'denied', rdf: isRdfRecord(record) ? 1 : 0, learned: this.learning.entry(record, reward), depthDropped });
  }

  /**
   * After the local commit: sends the release; a refused one voids the record. Returns whether it was applied (the
   * record then joins the tally). The record's `linksQueued` counted the links not known to this worker as seen;
   * the release says how many it queued (another worker may have found some first): the record is corrected,
   * before anyone reads it, when they differ.
   */
  async committed(entry: FrontierEntry, record: CrawlRecord | null): Promise<boolean> {
    this.#p.probes.pause('before-release', entry.url);
    this.#ahead();
    const outcome = await this.frontier.outcome(entry);
    const { state, tally } = this.#p;
    if (outcome.kind === 'stale') {
      if (record !== null) await voidRecord(state, record);
      return false;
    }
    if (record !== null && outcome.linksQueued !== null && outcome.linksQueued !== record.linksQueued) {
      record.linksQueued = outcome.linksQueued;
      await rewriteRecord(state, record);
    }
    if (record !== null) tally.add(record);
    return true;
  }

  async giveBack(entry: FrontierEntry): Promise<void> {
    await this.frontier.giveBack(entry);
  }

  async settled(): Promise<void> {
    await this.learning.settled();
  }

  async close(): Promise<void> {
    await this.frontier.close();
  }
}

/** What a worker's scheduler asks of its shared frontier's claims. */
export function claimsOf(f: SharedFrontier): ClaimView {
  return { drainChanged: () => f.drainChanged(), claimed: () => f.claimed(), saturated: () => f.saturated(), giveBack: (e) => f.giveBack(e) };
}
