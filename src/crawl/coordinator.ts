// **Coordinator**: what a crawl process agrees with the other processes of its crawl (none, or workers through Redis).
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { CrawlSummary, CrawlTally, StopReason } from '../crawl-log/tally.ts';
import type { BanditPolicy } from '../bandit/types.ts';
import type { Frontier, FetchNote, FrontierEntry } from '../frontier/types.ts';
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

/**
 * The seam between a crawl's loop (crawler.ts, fetch-runner.ts, scheduler.ts) and the other processes of its
 * crawl. The loop calls it at fixed points of each fetch and of each turn, the same way in every mode:
 * - `gate` just before a request leaves (politeness across every process of the crawl);
 * - `confirm` before a fetch's results are staged (false: another process owns the URL now; drop them);
 * - `staged` with the fetch's record before its commit, `committed` after it (false: the record was voided);
 * - `giveBack` for an entry handed out and not fetched (an abort);
 * - `over` on each turn while idle: non-null once the crawl is over for every process (budgets, nothing left);
 * - `idleWaitMs` when this process has nothing due: how long to wait for others' work (null: nothing will come);
 * - `stopReason` when the loop ends: why, from what this process saw and what the crawl as a whole says.
 * Lifecycle: made when the crawl opens, `close()`d once after its last run.
 */
export interface Coordinator {
  readonly claims: ClaimView;
  gate(entry: FrontierEntry, crawlDelayMs: number | null): Promise<{ waitMs: number; at: number }>;
  confirm(entry: FrontierEntry): Promise<boolean>;
  /** What the fetch's release carries besides its record (a Retry-After or Crawl-delay wait). */
  note(entry: FrontierEntry, note: FetchNote): void;
  staged(entry: FrontierEntry, record: CrawlRecord, reward: number, depthDropped: number): void;
  committed(entry: FrontierEntry, record: CrawlRecord | null): Promise<boolean>;
  giveBack(entry: FrontierEntry): Promise<void>;
  /** Runs just before a release is sent, when the loop would pick next (claims ride with the release). */
  claimAhead(ahead: () => void): void;
  over(): StopReason | null;
  idleWaitMs(): number | null;
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

/** The Coordinator of a crawl run by one process: its tally counts every fetch, its scheduler spaces requests. */
export class LocalCoordinator implements Coordinator {
  readonly claims = LOCAL_CLAIMS;
  readonly #tally: CrawlTally;
  readonly #gate: (entry: FrontierEntry) => { waitMs: number; at: number };

  constructor(tally: CrawlTally, gate: (entry: FrontierEntry) => { waitMs: number; at: number }) {
    this.#tally = tally;
    this.#gate = gate;
  }

  async gate(entry: FrontierEntry): Promise<{ waitMs: number; at: number }> {
    return this.#gate(entry);
  }

  async confirm(): Promise<boolean> {
    return true;
  }

  note(): void {}

  staged(_entry: FrontierEntry, record: CrawlRecord): void {
    this.#tally.add(record); // before the commit: budgets never count a fetch twice (it left the in-flight count)
  }

  async committed(): Promise<boolean> {
    return true;
  }

  async giveBack(): Promise<void> {}

  claimAhead(): void {}

  over(): StopReason | null {
    return null; // the loop's own end (nothing due, nothing to wake for) is the crawl's
  }

  idleWaitMs(): number | null {
    return null;
  }

  stopReason(local: StopReason): StopReason {
    return local;
  }

  summarise(summary: CrawlSummary): CrawlSummary {
    return summary;
  }

  async settled(): Promise<void> {}

  async close(): Promise<void> {}
}

/**
 * How a crawl shares its work with other processes, given to `Crawler.open` (src/distributed/ makes the Redis one):
 * its frontier is theirs too (`openFrontier`, instead of this folder's queue), what it learned comes from what all
 * of them fetched (not only from this folder's records), and once restored it gets its Coordinator (`join`).
 */
export interface SharedRestore {
  openFrontier(options: ResolvedCrawlOptions, rejudge: boolean): Promise<Frontier>;
  join(crawl: SharedJoin): Promise<Coordinator>;
  /** Ends what `openFrontier` opened, when the crawl could not open (after `join`, the Coordinator's `close` does). */
  close(): Promise<void>;
}

/** What a restored crawl hands its shared coordination. */
export interface SharedJoin {
  state: CrawlState;
  options: ResolvedCrawlOptions;
  frontier: Frontier;
  strategy: Strategy;
  policy: BanditPolicy | null;
  seedPlds: Set<string>;
  tally: CrawlTally;
  probes: CrawlProbes;
}
