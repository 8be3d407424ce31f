// Types of the frontier: what is left to crawl, per PLD, persisted with the rest of the crawl state.
import type { LinkFeatures } from '../links/types.ts';
import type { Label, LinkSource } from '../relevance/types.ts';
import type { Txn } from '../state/txn.ts';

/** A link to be queued. The frontier fills in `pld`, `host` and `seq`. */
export interface NewEntry {
  /** Absolute, normalised URL. */
  url: string;
  /** Page it was found on; null for seeds. */
  parent: string | null;
  depth: number;
  /** Lower is more urgent. */
  priority: number;
  /** The predicted label (null for seeds). */
  label: Label | null;
  rules: string[];
  /** Features of the link (anchor text, …); null for seeds. */
  link: LinkFeatures | null;
  /** Off-site hops from the seeds' PLDs (0 on them; `--offsite-hops`). Absent: derived from the PLD. */
  offsiteHops?: number;
}

export interface FrontierEntry extends NewEntry {
  pld: string;
  host: string;
  /** Discovery order, unique and increasing; ties in priority are broken by it (FIFO). */
  seq: number;
  /** How many times the fetch was retried (retryable failures). */
  attempts: number;
  /** Epoch ms before which the entry must not be handed out (retry back-off); 0 for none. */
  notBefore: number;
}

/** One PLD's queue as the scheduler sees it. */
export interface PldQueue {
  pld: string;
  /** Entries queued (not in flight). */
  queued: number;
  /** Entries handed out and not completed yet. */
  inFlight: number;
  /** Priority of the most urgent queued entry (Infinity when empty). */
  headPriority: number;
  /** Seq of that entry (for a global (priority, seq) order across PLDs). */
  headSeq: number;
}

/** A queued H link kept for a possible re-judgement when C_HR(t) learns a parent similar to it (thesis §5). */
export interface QueuedLink {
  url: string;
  link: LinkFeatures;
  parent: string;
  depth: number;
  /** The priority it was queued with (an upgrade must be more urgent). */
  priority: number;
  source: LinkSource;
}

/** A verdict on a link judged again: its new priority (null: drop), label and the rules that fired. */
export interface Rejudgement {
  priority: number | null;
  label: Label | null;
  rules: string[];
}

/**
 * The crawl frontier.
 *
 * Lifecycle of a URL: `add()` queues it once (a URL seen before, in any state, is ignored, unless it is still
 * queued and the new priority is more urgent, in which case it is re-prioritised). `next(pld)` hands out that
 * PLD's most urgent entry, by (priority, seq); it is then in flight. In-flight state lives in memory only: the
 * queued record stays on disk until `complete()` or `retry()` is committed, so after a crash every in-flight URL
 * is handed out again and none is lost. `complete()` and `retry()` stage their writes in a `Txn`, so finishing a
 * URL, storing its document and queuing the links it revealed become durable together.
 */
export interface Frontier {
  /** Queues new links; writes are staged in `txn` (or written at once when no txn is given). Returns how many were new. */
  add(entries: readonly NewEntry[], txn?: Txn): Promise<number>;
  /**
   * Optional: whether `add` would now leave `url` as it is if offered at `priority`, whatever the rest of its entry
   * (done, reserved by a pending transaction, in flight, or queued at least as urgently). Answered from memory; true
   * only where `add` is sure to ignore the entry, so a caller may skip building it (a strategy's label).
   */
  ignores?(url: string, priority: number): boolean;
  /** Hands out the most urgent entry of `pld` whose `notBefore` has passed, or null. */
  next(pld: string, now?: number): FrontierEntry | null;
  /**
   * Hands out `url` itself, whatever the queue's order (a re-parse follows the archive's order): its queued entry, or
   * for a URL not queued an entry made from `fallback`; it is then in flight. Optional: the memory backend has it.
   */
  take?(url: string, fallback: NewEntry): FrontierEntry;
  /** Marks an in-flight URL done (and any alias, e.g. its final URL after redirects). */
  complete(entry: FrontierEntry, txn: Txn, aliases?: readonly string[]): void;
  /** Puts an in-flight entry back with `attempts + 1` and a back-off. */
  retry(entry: FrontierEntry, notBefore: number, txn: Txn): void;
  /** PLDs with queued or in-flight work. */
  queues(): PldQueue[];
  /** `pld`'s entry of `queues()` (null when it has no queued or in-flight work), without listing every PLD. */
  queueOf(pld: string): PldQueue | null;
  /**
   * When `next(pld)` may next hand something out: the earliest `notBefore` of its queued entries (retry
   * back-offs); 0 when one is due now or may be (entries not read from disk yet); Infinity when none is queued.
   * Lets the crawl sleep until a back-off ends instead of polling.
   */
  dueAt(pld: string): number;
  /** Whether a URL was ever seen (queued, in flight or done). */
  has(url: string): Promise<boolean>;
  size(): { queued: number; inFlight: number; done: number };
  /**
   * Resolves when background reads have finished. A persistent frontier refills each PLD's in-memory head from disk
   * asynchronously, so `next(pld)` may return null while `queues()` still counts queued entries for that PLD; await
   * this before concluding the PLD is blocked. An in-memory frontier resolves at once.
   */
  settled(): Promise<void>;
  /** Whether background reads are under way (then `next(pld)` may return null for a PLD with queued entries). */
  readonly loading: boolean;
  /** Every queued entry (not in flight), each PLD's queue in its order: what a resume rebuilds in-memory indexes from. */
  queued(): AsyncIterable<FrontierEntry>;
  /**
   * Keeps a queued H link for re-judging (thesis §5: Relevancy_HR at time t). A no-op unless the frontier was
   * opened with `rejudge: true`; bounded (links past the bound keep the label they were queued with). A link
   * handed out by `next()` is forgotten, and kept again once `retry()` queues it again. A resumed frontier re-indexes
   * the queued H links it holds.
   */
  remember(q: QueuedLink): void;
  /**
   * C_HR(t) has (perhaps) learned `parentUrl`: the remembered links similar to it by r1/r2 are judged again with
   * `judge`, and those now more urgent are re-prioritised, staged in `txn`. `repeatedly`: an upgraded link stays
   * remembered (with its new priority) and may be made more urgent again by later learning.
   */
  rejudgeSimilarTo(parentUrl: string, judge: (q: QueuedLink) => Rejudgement, txn: Txn, opts?: { repeatedly?: boolean }): Promise<void>;
  /** Set by a frontier shared by several worker processes (the Redis backend); absent otherwise. */
  readonly shared?: SharedFrontier;
}

/** What a worker says about a fetch before its commit, for the release that ends it (shared frontier). */
export interface FetchNote {
  /** Wait before the PLD's next lease beyond --delay-ms: the host's Crawl-delay, a Retry-After (ms). */
  waitMs?: number;
  /** A request was sent (robots refusals spend no budget). */
  spent?: boolean;
  /** RDF documents obtained (0 or 1). */
  rdf?: number;
  /** What the fetch taught the crawl (JSON), shared with every worker once the release is applied. */
  learned?: string;
  /** Links dropped for being deeper than `--max-depth` (the shared stop reason counts them). */
  depthDropped?: number;
}

/**
 * How a fetch's release went (shared frontier): applied, with the number of its links that were new to the
 * crawl and queued by it (null when unknown: a retried release that had been applied before), or refused because
 * the lease was lost meanwhile.
 */
export type ReleaseOutcome = { kind: 'released'; linksQueued: number | null } | { kind: 'stale' };

/**
 * Why a shared crawl is over for every worker: the shared budget is spent, or nothing is in flight and nothing queued
 * is allowed by its PLD's budget (`sharedStopReason`, crawl-log/tally.ts).
 */
export type SharedEnd = 'max-docs' | 'max-docs-per-pld' | 'max-depth' | 'frontier-empty';

/**
 * What a frontier shared by several processes adds to the contract (the Redis backend). Its `next()`
 * hands out only entries this worker claimed under a lease on their PLD; a fetch's `complete()` or `retry()`,
 * once its transaction commits, is sent with the lease's release, and applies only if the lease is still held.
 */
export interface SharedFrontier {
  /** This worker's id in the crawl. */
  readonly worker: string;
  /** PLDs with an entry claimed for this worker and not handed out yet (serve them first). */
  claimed(): string[];
  /**
   * No more claims can be asked for now (this worker holds `--concurrency` entries claimed or in flight): a
   * scheduling pass stops offering PLDs to `next()`.
   */
  saturated(): boolean;
  /** PLDs whose shared view changed since the last call (another worker queued links there, …). */
  drainChanged(): string[];
  /** Adds to what the release of `entry` will carry. */
  note(entry: FrontierEntry, note: FetchNote): void;
  /** Renews the lease of `entry` before its results are committed: false when it was lost (drop the results). */
  confirm(entry: FrontierEntry): Promise<boolean>;
  /**
   * After the commit: whether the release was applied (and how many of the fetch's links it queued: `add()` counted
   * those not known to this worker, without asking Redis), or refused because the lease was lost meanwhile. The
   * PLDs asked for since the last claim (`Scheduler.claimAhead`) are claimed by the release's script.
   */
  outcome(entry: FrontierEntry): Promise<ReleaseOutcome>;
  /** Gives an entry handed out and never finished back (an aborted fetch). */
  giveBack(entry: FrontierEntry): Promise<void>;
  /** Non-null once the crawl is over for every worker. */
  finished(): SharedEnd | null;
  /** The first failure of a call to the shared store made in the background, or null. */
  failure(): unknown;
  /** URLs fetched again after a lost lease, over the whole crawl. */
  refetched(): number;
  /** Stops the timers and gives back what was claimed and not fetched. */
  close(): Promise<void>;
}

/** Options every frontier backend takes when a crawl opens it. */
export interface FrontierIndexOptions {
  /** Keep queued H links indexed for `rejudgeSimilarTo` (thesis §5). Default: false. */
  rejudge?: boolean;
}
