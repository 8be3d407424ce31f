// **Coordinator**: what a crawl process agrees with the other processes of its crawl (none, or workers through Redis).
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { CrawlSummary, CrawlTally, StopReason } from '../crawl-log/tally.ts';
import type { BanditPolicy } from '../bandit/types.ts';
import type { Frontier, FetchNote, FrontierEntry, NewEntry } from '../frontier/types.ts';
import type { Strategy } from '../relevance/types.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { ResolvedCrawlOptions } from './options.ts';
import type { CrawlProbes } from './probes.ts';

/**
 * What the scheduler's picks ask of the claims (a shared frontier hands out only entries claimed for this process
 * under a lease on their PLD). A process alone claims nothing: every PLD is its own.
 */
export interface ClaimView {
  /** PLDs whose view another process changed since the last call (place them afresh). */
  drainChanged(): string[];
  /** PLDs with an entry claimed for this process and not handed out yet (serve them first). */
  claimed(): string[];
  /** No more claims can be asked for now: a pick stops offering PLDs. */
  saturated(): boolean;
  /** Gives an entry handed out and never fetched back to the crawl. */
  giveBack(entry: FrontierEntry): Promise<void>;
}

/** A process's own send gate (Scheduler.gate): politeness among the requests of this process. */
export interface SendGate {
  gate(entry: FrontierEntry): { waitMs: number; at: number };
}

/**
 * The seam between a crawl's loop (crawler.ts, fetch-runner.ts, scheduler.ts) and the other processes of its
 * crawl. The loop calls it at fixed points of each fetch and of each turn, the same way in every mode:
 * - `gate` just before a request leaves (politeness across every process of the crawl);
 * - `confirm` before a fetch's results are staged (false: another process owns the URL now; drop them);
 * - `staged` with the fetch's record before its commit, `committed` after it (false: the record was voided);
 * - `giveBack` for an entry handed out and not fetched (an abort);
 * - `over` on each turn while idle: non-null once the crawl is over for every process (budgets, nothing left);
 * - `idleWaitMs` when this process has nothing due: how long to wait for others' work (null: nothing will come);
 * - `offlineDueAt` for an entry put back while this process is offline: when it is due again;
 * - `stopReason` when the loop ends: why, from what this process saw and what the crawl as a whole says.
 * Lifecycle: made when the crawl opens, `close()`d once after its last run.
 */
export interface Coordinator {
  readonly claims: ClaimView;
  /**
   * 0 when the request of `entry` may leave now, else how long to wait before asking again (ms); `at`: the gate's
   * clock. `own` is this process's scheduler, which spaces the requests no other process shares.
   */
  gate(entry: FrontierEntry, crawlDelayMs: number | null, own: SendGate): Promise<{ waitMs: number; at: number }>;
  confirm(entry: FrontierEntry): Promise<boolean>;
  /** What the fetch's release carries besides its record (a Retry-After or Crawl-delay wait). */
  note(entry: FrontierEntry, note: FetchNote): void;
  staged(entry: FrontierEntry, record: CrawlRecord, reward: number, depthDropped: number): void;
  committed(entry: FrontierEntry, record: CrawlRecord | null): Promise<boolean>;
  giveBack(entry: FrontierEntry): Promise<void>;
  /**
   * Origins that answered the crawl's other processes (most recent last; none for a process alone): probe targets,
   * like those of this folder's earlier runs, while nothing has answered this process yet.
   */
  answeredElsewhere(): string[];
  /** Runs just before a release is sent, when the loop would pick next (claims ride with the release). */
  claimAhead(ahead: () => void): void;
  over(): StopReason | null;
  /** The longest an idle turn waits before `over` is asked again (null: only for this process's own wake-ups). */
  idleWaitMs(): number | null;
  /**
   * When an entry put back while this process is offline (an outage pause, fetch/connectivity.ts) is due again:
   * `pausedUntil` when no other process could fetch it sooner; at once in a shared crawl, whose other workers'
   * network may work (a worker's outage is its own: a late worker that never saw an origin answer takes a dead host
   * for the network).
   */
  offlineDueAt(pausedUntil: number): number;
  /** Why the run stopped: `local` is one process's reason (stopReason); the crawl's shared end wins unless aborted. */
  stopReason(local: StopReason, aborted: boolean): StopReason;
  /** The run's summary with what the coordination adds (the worker's id, the shared refetched count). */
  summarise(summary: CrawlSummary): CrawlSummary;
  /** Waits for background work (learning under way) before the crawl persists what it learned. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** A process alone: nothing claimed, nothing to confirm, the scheduler's own gate and end. */
export const LOCAL_CLAIMS: ClaimView = {
  drainChanged: () => [],
  claimed: () => [],
  saturated: () => false,
  giveBack: async () => {}, // never asked: a process alone picks ahead of nothing
};

/**
 * How a crawl is coordinated, given to `restoreCrawl` and `Crawler.open`: alone (crawl/local-coordination.ts) or
 * as one worker of a crawl shared through Redis (src/distributed/redis-coordination.ts). Restoring a crawl asks it
 * what differs between the modes — whether this folder needs seeds of its own, where the frontier is, where what
 * the crawl learned comes from — and once restored the crawl `join`s it to get its Coordinator.
 * Lifecycle: `openFrontier` once, then `join` once; `close` ends what `openFrontier` opened when the crawl could
 * not open (after `join`, the Coordinator's `close` does).
 */
export interface Coordination {
  /**
   * Whether this folder's crawl needs seeds of its own: a new crawl without seeds, or with none it may fetch, is
   * refused, and a worker's shard is refused as a crawl of its own. False for a worker: its seeds are shared.
   */
  readonly requiresSeeds: boolean;
  /**
   * Whether what the crawl learned is rebuilt from this folder's records and bandit snapshot (thesis §5: C_HR(t)
   * is a function of the fetched documents). False for a worker: it learns from the shared log when it joins, and
   * its shard's records only feed the tally.
   */
  readonly replaysLearning: boolean;
  /** Opens (on a resume, restores) the crawl's frontier, with the entries to queue again besides the seeds. */
  openFrontier(state: CrawlState, options: ResolvedCrawlOptions, o: FrontierOpening): Promise<OpenedFrontier>;
  join(crawl: CoordinationJoin): Promise<Coordinator>;
  close(): Promise<void>;
}

/** What the frontier is opened with. */
interface FrontierOpening {
  /** Keep queued H links for re-judging when C_HR learns a parent (thesis §5). */
  rejudge: boolean;
  /** The priority of an entry queued again (the strategy's seed priority). */
  seedPriority: number;
}

/** An opened frontier, and what to queue in it again (`--retry-failed`: URLs whose last fetch failed). */
interface OpenedFrontier {
  frontier: Frontier;
  requeue: NewEntry[];
}

/** What a restored crawl hands its coordination. */
export interface CoordinationJoin {
  state: CrawlState;
  options: ResolvedCrawlOptions;
  frontier: Frontier;
  strategy: Strategy;
  policy: BanditPolicy | null;
  seedPlds: Set<string>;
  tally: CrawlTally;
  probes: CrawlProbes;
}
