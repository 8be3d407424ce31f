// **SharedWorker**: what a crawl does differently as one worker of a crawl shared through Redis (issue 15): lease checks around the commit, shared learning, shared end.
import type { CrawlRecord } from '../crawl-log/record.ts';
import { voidRecord } from '../crawl-log/record-store.ts';
import { isRdfRecord } from '../crawl-log/tally.ts';
import type { FrontierEntry, SharedEnd, SharedFrontier } from '../frontier/types.ts';
import type { PldLeases } from '../redis/pld-leases.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { SharedLearning } from './shared-learning.ts';
import { testPause } from './test-pause.ts';

/**
 * The worker's side of a shared crawl, called by the Crawler at fixed points of a fetch:
 * - before its results are staged, the lease on its PLD is renewed (`confirm`): a lease lost meanwhile means another
 *   worker has the URL, and this fetch is dropped with nothing written;
 * - its record is committed to this worker's shard, then the release is sent with its links, budget and learning;
 * - a refused release (the lease was lost after the renewal: the process was stopped longer than --lease-ms) voids
 *   the record just written (`CrawlRecord.voided`): reads and the tally skip it, as if this worker never fetched it.
 * If the process dies between its commit and its release, the lease expires, the URL is handed out again and
 * fetched again: two records in two shards (or one shard twice), of which the later `fetchedAt` wins.
 */
export class SharedWorker {
  readonly frontier: SharedFrontier;
  readonly learning: SharedLearning;
  readonly #state: CrawlState;
  readonly #leases: PldLeases;

  constructor(frontier: SharedFrontier, learning: SharedLearning, state: CrawlState, leases: PldLeases) {
    this.frontier = frontier;
    this.learning = learning;
    this.#state = state;
    this.#leases = leases;
  }

  /**
   * The send gate in Redis, on Redis's clock (issue 15): 0 when the request of `entry` may leave now (`at`: Redis's
   * time of the pass), else how long to wait before asking again (ms). `crawlDelayMs`: its host's Crawl-delay, if known.
   */
  async gate(entry: FrontierEntry, crawlDelayMs: number | null): Promise<{ waitMs: number; at: number }> {
    const g = await this.#leases.gate(entry.pld, crawlDelayMs ?? 0);
    return { waitMs: g.passed ? 0 : Math.max(1, g.waitMs), at: g.now };
  }

  /** Each turn of the run loop: learn what the others taught, and whether the crawl is over for everyone. */
  tick(): SharedEnd | null {
    this.learning.refresh();
    return this.frontier.finished();
  }

  /** Before staging a fetch's results: whether this worker still holds its lease. */
  async confirm(entry: FrontierEntry): Promise<boolean> {
    return this.frontier.confirm(entry);
  }

  /** What the release of a fetch carries: budget spent, RDF found, the learning input and reward. */
  note(entry: FrontierEntry, record: CrawlRecord, reward: number): void {
    this.frontier.note(entry, { spent: record.outcome !== 'denied', rdf: isRdfRecord(record) ? 1 : 0, learned: this.learning.entry(record, reward) });
  }

  /** After the local commit: sends the release; a refused one voids the record. Returns whether it was applied. */
  async released(entry: FrontierEntry, record: CrawlRecord | null): Promise<boolean> {
    testPause('before-release', entry.url);
    const outcome = await this.frontier.outcome(entry);
    if (outcome === 'stale' && record !== null) await voidRecord(this.#state, record);
    return outcome === 'released';
  }
}
