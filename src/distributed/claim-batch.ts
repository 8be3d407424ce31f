// **ClaimBatcher**: a worker's claims on the shared queue — PLDs asked for in one scheduling pass go to Redis in one script.
import type { ClaimBatch, ClaimLimits, ClaimOutcome, SharedQueue } from './redis/shared-queue.ts';
import { toFrontierEntry } from './shared-entry.ts';
import type { FrontierEntry } from '../frontier/types.ts';

/** An entry claimed for this worker under a lease on its PLD, not handed out yet. */
export interface Claimed {
  entry: FrontierEntry;
  token: string;
  /** When the claim was sent (`performance.now()`): its lease runs at least `leaseMs` from then. */
  since: number;
}

/** Options of {@link ClaimBatcher}. */
export interface ClaimBatcherOptions {
  queue: SharedQueue;
  /** Entries claimed and in flight in this worker at most (`--concurrency`). */
  maxClaims: number;
  /** After a refused claim with no known wait, the PLD is not asked again for this long (ms; 0: ask at once). */
  claimBackoffMs: number;
  limits: ClaimLimits;
  now: () => number;
  /** Entries handed out and not finished (they count against `maxClaims`). */
  inFlight: () => number;
  /** Sends a Redis call, applying its answer to the mirror. */
  run: (p: Promise<ClaimBatch>) => Promise<ClaimBatch>;
  /** Tracks a background job (its failure fails the frontier; `settled()` waits for it). */
  track: (p: Promise<unknown>) => void;
}

/** A claim that rides with a fetch's release (`ClaimBatcher.ride`). */
export interface Ride {
  /** The PLDs asked for, in order of preference. */
  candidates: string[];
  limits: ClaimLimits;
  /** Takes the release's answer: its claim (null: the release failed or was refused, nothing was claimed). */
  settle(outcome: ClaimOutcome | null): void;
}

/**
 * `want(pld)` asks for an entry of `pld`; the PLDs asked for during one synchronous pass of the scheduler (its
 * candidates in order of preference) are claimed together, in one `claimMany` script sent on the next microtask, so
 * a worker's claims cost one round trip per pass instead of one per PLD — or none, when a fetch's release is sent
 * before that microtask: `ride()` hands the PLDs asked for to the release, whose script claims them.
 * Claimed entries wait in a per-PLD buffer until `take(pld)`; a refused PLD is not asked again until it may be ready
 * (the script says when).
 */
export class ClaimBatcher {
  readonly #o: ClaimBatcherOptions;
  readonly #buffer = new Map<string, Claimed[]>();
  #buffered = 0;
  readonly #wanted = new Set<string>();
  readonly #claiming = new Set<string>();
  /** PLDs not asked for until a time; `known`: the script said when it may be ready (else a guess). */
  readonly #blocked = new Map<string, { until: number; known: boolean }>();

  constructor(o: ClaimBatcherOptions) {
    this.#o = o;
  }

  /** A claimed entry of `pld`, now this worker's to fetch, or undefined. */
  take(pld: string): Claimed | undefined {
    const list = this.#buffer.get(pld);
    const claimed = list?.shift();
    if (claimed === undefined) return undefined;
    this.#buffered--;
    if (list?.length === 0) this.#buffer.delete(pld);
    return claimed;
  }

  /** Asks for an entry of `pld` in the next batch, unless it is blocked, asked for already, or no claim is free. */
  want(pld: string, now: number): void {
    if (this.blockedUntil(pld) > now || this.#claiming.has(pld) || this.#wanted.has(pld) || this.saturated()) return;
    if (this.#wanted.size === 0) this.#o.track(Promise.resolve().then(() => this.#flush()));
    this.#wanted.add(pld);
  }

  /** No claim can be asked for now: the entries claimed, asked for and in flight reach `maxClaims`. */
  saturated(): boolean {
    return this.#o.inFlight() + this.#buffered + this.#claiming.size + this.#wanted.size >= this.#o.maxClaims;
  }

  /** Claims are asked for or under way. */
  get busy(): boolean {
    return this.#wanted.size > 0 || this.#claiming.size > 0;
  }

  /** Until when `pld` is not asked for again (epoch ms; 0: it may be). */
  blockedUntil(pld: string): number {
    return this.#blocked.get(pld)?.until ?? 0;
  }

  /** `pld` has work due (another worker queued some): ask for it at the next chance, unless Redis said it must wait. */
  unblock(pld: string): void {
    if (this.#blocked.get(pld)?.known === false) this.#blocked.delete(pld);
  }

  /** Whether an entry of `pld` is claimed and waits to be handed out. */
  holds(pld: string): boolean {
    return this.#buffer.has(pld);
  }

  /** PLDs with claimed entries waiting to be handed out. */
  claimedPlds(): string[] {
    return [...this.#buffer.keys()];
  }

  /** Empties the buffer: the claims it held (to give back). */
  drain(): Claimed[] {
    const all = [...this.#buffer.values()].flat();
    this.#buffer.clear();
    this.#buffered = 0;
    return all;
  }

  /** Leases of the claims waiting in the buffer (they are renewed with the fetches'). */
  tokens(): string[] {
    return [...this.#buffer.values()].flatMap((list) => list.map((c) => c.token));
  }

  /**
   * The PLDs asked for and not sent yet, to be claimed by a release about to be sent (null: none): they count as
   * claims under way until `settle` gets the release's answer (which must be called once, also on failure).
   */
  ride(): Ride | null {
    if (this.#wanted.size === 0) return null;
    const plds = this.#begin();
    const since = performance.now();
    let settled = false;
    return {
      candidates: plds,
      limits: this.#o.limits,
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        try {
          if (outcome !== null) this.#accept(plds, outcome, since);
        } finally {
          for (const pld of plds) this.#claiming.delete(pld);
        }
      },
    };
  }

  /** The PLDs asked for move to the claims under way. */
  #begin(): string[] {
    const plds = [...this.#wanted];
    this.#wanted.clear();
    for (const pld of plds) this.#claiming.add(pld);
    return plds;
  }

  async #flush(): Promise<void> {
    if (this.#wanted.size === 0) return; // a release took them (ride)
    const plds = this.#begin();
    const since = performance.now();
    try {
      const r = await this.#o.run(this.#o.queue.claimMany(plds, plds.length, this.#o.now(), this.#o.limits));
      this.#accept(plds, r, since);
    } finally {
      for (const pld of plds) this.#claiming.delete(pld);
    }
  }

  /** Buffers the entries claimed for `plds` (sent at `since`) and blocks the refused PLDs until they may be ready. */
  #accept(plds: readonly string[], r: ClaimOutcome, since: number): void {
    for (const c of r.claims) {
      const entry = toFrontierEntry(c.entry);
      const list = this.#buffer.get(entry.pld) ?? [];
      list.push({ entry, token: c.token, since });
      this.#buffer.set(entry.pld, list);
      this.#buffered++;
      this.#blocked.delete(entry.pld);
    }
    const backoff = this.#o.claimBackoffMs;
    if (backoff <= 0) return;
    const now = this.#o.now();
    if (r.kind === 'budget') for (const pld of plds) this.#blocked.set(pld, { until: now + backoff, known: false });
    for (const { pld, waitMs } of r.refused) {
      const until = now + (waitMs === null ? backoff : Math.min(Math.max(waitMs, 5), 10 * backoff));
      this.#blocked.set(pld, { until, known: waitMs !== null });
    }
  }
}
