// **Queue types**: what the shared queue's scripts take and answer (entries, views, counters, claims, releases).

/** A link to queue: what the frontier stores is opaque to Redis (`json`: the entry without its URL, stored once). */
export interface QueueAdd {
  url: string;
  pld: string;
  priority: number;
  json: string;
}

/** An entry as Redis holds it (header fields and the opaque JSON). */
export interface QueueEntry {
  state: 'q' | 'd' | 'f';
  seq: number;
  priority: number;
  attempts: number;
  notBefore: number;
  /** Its lease was lost once: its next fetch counts as refetched. */
  lost: boolean;
  url: string;
  json: string;
}

/** One PLD as the shared queue sees it. */
export interface QueueView {
  pld: string;
  queued: number;
  inFlight: number;
  headPriority: number;
  headSeq: number;
  /** Earliest back-off end among its waiting entries (epoch ms, workers' clock), or null. */
  backoffUntil: number | null;
  /** Queued entries waiting for a back-off (part of `queued`). */
  waiting: number;
}

/** The shared counters. */
export interface QueueStat {
  queued: number;
  inFlight: number;
  done: number;
  /** Fetches applied that spent budget (robots refusals do not). */
  spent: number;
  /** URLs fetched again after their lease was lost. */
  refetched: number;
}

/** What every script answers besides its own result: the counters and the PLDs it touched. */
export interface QueueAnswer {
  stat: QueueStat;
  views: QueueView[];
}

/** An entry claimed under a lease on its PLD. */
export interface Claim {
  token: string;
  /** When the lease expires unless renewed (Redis's clock). */
  expiresAt: number;
  url: string;
  entry: QueueEntry;
}

/** A candidate PLD a claim did not take, and in how many ms it may be ready (null: unknown, e.g. it has no work). */
export interface Refusal {
  pld: string;
  waitMs: number | null;
}

/** The answer to a batch of claims: `budget` when the shared budget is spent (counting fetches in flight). */
export type ClaimBatch = { kind: 'ok' | 'none' | 'budget'; claims: Claim[]; refused: Refusal[] } & QueueAnswer;

export type ClaimResult =
  | ({ kind: 'ok' } & Claim & QueueAnswer)
  | ({ kind: 'none' | 'budget' } & QueueAnswer);

/** How a fetch ends, sent with its release. */
export interface FinishInfo {
  token: string;
  url: string;
  mode: 'done' | 'retry' | 'back';
  /** The fetch spent budget (a request was sent). */
  spent: boolean;
  /** RDF documents it obtained (0 or 1), for the per-worker status. */
  rdf: number;
  /** For 'retry': not before this time (workers' clock). */
  notBefore?: number;
  /** For 'retry': the priority, attempts and entry JSON it waits with from now on (absent: as it was, one more attempt). */
  /** (`json`: the entry without its URL, as `QueueAdd.json`; the queue stores it behind the URL.) */
  requeueAs?: { priority: number; attempts: number; json: string };
  /** Wait before the PLD's next lease: max(delay, Crawl-delay, Retry-After), ms. */
  waitMs: number;
  aliases?: readonly { url: string; pld: string }[];
  adds?: readonly QueueAdd[];
  /** Links the fetch dropped for being deeper than `--max-depth` (counted for the shared stop reason). */
  depthDropped?: number;
  /** What the fetch taught (appended to the shared log), or ''. */
  log?: string;
  /** The workers' clock now. */
  now: number;
  /**
   * Entries to claim for this worker with the release, one per PLD, from `candidates` in order of preference (the
   * scheduler's next choices): the same claim as `claimMany`, made in the release's script after it (no round trip
   * of its own). Absent or empty: none.
   */
  claim?: { candidates: readonly string[]; limits: ClaimLimits };
}

/** The claim made with a release: as `claimMany`'s answer, without the counters and views (the release carries them). */
export interface ClaimOutcome {
  kind: 'ok' | 'none' | 'budget';
  claims: Claim[];
  refused: Refusal[];
}

/**
 * The answer to `finish`; `claimed` is null when the release was refused as stale (nothing applied nor claimed).
 * `already`: the fetch was applied before (its script sent again after a lost reply); `claimed` holds the claims the
 * first run made that are still leased, handed out this once.
 */
export type FinishResult = ({ kind: 'ok'; added: number; claimed: ClaimOutcome } | { kind: 'already'; claimed: ClaimOutcome | null } | { kind: 'stale'; claimed: null }) & QueueAnswer;

/** Budget limits of a claim. */
export interface ClaimLimits {
  maxDocs: number;
  maxDocsPerPld: number;
}
