// **PldLeases**: a worker's side of the shared politeness — leases on PLDs granted atomically by Redis on its own clock.
import type { Redis } from 'ioredis';
import { RdfscoutError } from '../../errors.ts';
import { type CrawlKeys, crawlKeys } from './keys.ts';
import { type CountIncrement, encodeIncrements } from './learned-counts.ts';
import { ACQUIRE_LUA, GATE_LUA, HEARTBEAT_LUA, LEASE_KEY_NAMES, OFFER_LUA, RECLAIM_LUA, RELEASE_LUA, RENEW_LUA } from './lease-scripts.ts';
import { type RunScript, redisScript } from './script.ts';

/** Options of {@link PldLeases}; every worker of a crawl must use the same values (they are crawl options). */
export interface PldLeasesOptions {
  /** The crawl's name in Redis (see `crawlKeys`). */
  crawl: string;
  /** This worker's id, unique in the crawl (no whitespace). */
  worker: string;
  /** Leases held on one PLD at once across all workers (`--host-concurrency`). Default: 1. */
  hostConcurrency?: number;
  /** Minimum time between two lease starts on one PLD, and after a release (`--delay-ms`). Default: 1000 ms. */
  delayMs?: number;
  /** A lease not renewed for this long is reclaimed. Default: 30 000 ms. */
  leaseMs?: number;
  /** A worker without a heartbeat for this long loses all its leases at the next `reclaim`. Default: 3 × leaseMs. */
  heartbeatTimeoutMs?: number;
  /** How long a fetch id is remembered, so that a retried release is recognised. Default: 3 600 000 ms. */
  appliedRetentionMs?: number;
}

/** The answer to `acquire`. Times are epoch ms on Redis's clock. */
export type AcquireResult =
  | { kind: 'granted'; pld: string; token: string; expiresAt: number; now: number }
  /** No candidate is ready; `nextDueAt` is the earliest politeness time among them (null: none is waiting for time). */
  | { kind: 'none'; now: number; nextDueAt: number | null };

/** The answer to `release`. */
export type ReleaseResult =
  /** Lease ended, counts added; the PLD takes a new lease from `readyAt` on. */
  | { kind: 'released'; readyAt: number }
  /** The token is no longer valid (expired and reclaimed): nothing was applied, the fetch's results must be dropped. */
  | { kind: 'stale' }
  /**
   * This fetch id was released before (a retried release): no count was added again. `readyAt` is set when this
   * call still held a live lease (which it ended), null when the lease had ended already.
   */
  | { kind: 'already-applied'; readyAt: number | null };

/** What a release reports besides the token. */
export interface ReleaseInfo {
  /** The host's robots.txt Crawl-delay, ms. Default: 0. */
  crawlDelayMs?: number;
  /** A 429/503's Retry-After, ms. Default: 0. */
  retryAfterMs?: number;
  /** Identifies this fetch: a release with an id already applied is a no-op. Default: the token. */
  fetchId?: string;
  /** Learned counts to add, atomically with the release (and only if it is not stale). */
  counts?: readonly CountIncrement[];
}

/** A lease that `reclaim` ended: its worker died or stopped renewing it. */
export interface ReclaimedLease {
  token: string;
  pld: string;
  worker: string;
}

/**
 * Leases on PLDs shared by every worker of a crawl. Lifecycle of a lease: `acquire` grants it (at most
 * `hostConcurrency` per PLD across the cluster, never before the PLD's politeness time); `renew` extends it during a
 * slow fetch; `release` ends it with its token, adds the fetch's learned counts and makes the PLD ready again at
 * now + max(delayMs, Crawl-delay, Retry-After). A lease not renewed in time, or whose worker's heartbeat stopped, is
 * ended by any worker's `reclaim`; its late release is then refused (`stale`). All decisions run in Lua scripts
 * on Redis's clock (`TIME`), so the workers' clocks never matter.
 */
export class PldLeases {
  readonly keys: CrawlKeys;
  readonly worker: string;
  readonly hostConcurrency: number;
  readonly delayMs: number;
  readonly leaseMs: number;
  readonly heartbeatTimeoutMs: number;
  readonly appliedRetentionMs: number;
  readonly #client: Redis;
  readonly #lease: string[];
  readonly #acquire: RunScript;
  readonly #renew: RunScript;
  readonly #release: RunScript;
  readonly #reclaim: RunScript;
  readonly #heartbeat: RunScript;
  readonly #offer: RunScript;
  readonly #gate: RunScript;

  constructor(client: Redis, options: PldLeasesOptions) {
    const { crawl, worker, hostConcurrency = 1, delayMs = 1000, leaseMs = 30_000, ...rest } = options;
    const { heartbeatTimeoutMs = 3 * leaseMs, appliedRetentionMs = 3_600_000, ...unknown } = rest;
    const extra = Object.keys(unknown);
    if (extra.length > 0) throw invalid(`Unknown lease option "${extra[0]}"`);
    if (!/^\S{1,100}$/.test(worker)) throw invalid(`A worker id is 1–100 characters without whitespace (got ${JSON.stringify(worker)})`);
    if (!Number.isSafeInteger(hostConcurrency) || hostConcurrency < 1) throw invalid(`hostConcurrency must be an integer ≥ 1, got ${hostConcurrency}`);
    for (const [name, value] of Object.entries({ delayMs, leaseMs, heartbeatTimeoutMs, appliedRetentionMs })) {
      if (!Number.isSafeInteger(value) || value < (name === 'delayMs' ? 0 : 1)) throw invalid(`${name} must be a whole number of ms, got ${value}`);
    }
    this.keys = crawlKeys(crawl);
    this.worker = worker;
    this.hostConcurrency = hostConcurrency;
    this.delayMs = delayMs;
    this.leaseMs = leaseMs;
    this.heartbeatTimeoutMs = heartbeatTimeoutMs;
    this.appliedRetentionMs = appliedRetentionMs;
    this.#client = client;
    this.#lease = LEASE_KEY_NAMES.map((name) => this.keys[name]);
    this.#acquire = redisScript(client, 'rdfscoutLeaseAcquire', ACQUIRE_LUA);
    this.#renew = redisScript(client, 'rdfscoutLeaseRenew', RENEW_LUA);
    this.#release = redisScript(client, 'rdfscoutLeaseRelease', RELEASE_LUA);
    this.#reclaim = redisScript(client, 'rdfscoutLeaseReclaim', RECLAIM_LUA);
    this.#heartbeat = redisScript(client, 'rdfscoutLeaseHeartbeat', HEARTBEAT_LUA);
    this.#offer = redisScript(client, 'rdfscoutLeaseOffer', OFFER_LUA);
    this.#gate = redisScript(client, 'rdfscoutLeaseGate', GATE_LUA);
  }

  /**
   * The send gate, asked just before a request to `pld` leaves: `passed` (on Redis's clock at `now`) or
   * not yet, and then `waitMs` until the gate opens. Requests that pass are ≥ max(delayMs, `crawlDelayMs`) apart
   * across the cluster, and none passes before a release's ready time (Crawl-delay, Retry-After). `unleased`: the
   * caller lost its lease (see GATE_LUA): it also waits for the PLD to have no lease and its politeness time to pass.
   */
  async gate(pld: string, crawlDelayMs = 0, unleased = false): Promise<{ passed: true; now: number } | { passed: false; now: number; waitMs: number }> {
    const r = (await this.#gate(this.#lease, [pld, Math.ceil(Math.max(this.delayMs, crawlDelayMs)), unleased ? 1 : 0])) as number[];
    const now = Number(r[1]);
    return r[0] === 1 ? { passed: true, now } : { passed: false, now, waitMs: Number(r[2]) - now };
  }

  /** Puts a PLD with work among those that can be leased (no-op if it is there). Returns whether it was added. */
  async offer(pld: string): Promise<boolean> {
    return (await this.#offer(this.#lease, [pld, this.hostConcurrency])) === 1;
  }

  /** Takes a PLD out of the leasable set (its queue is empty); its politeness time and current leases stay. */
  async withdraw(pld: string): Promise<void> {
    await this.#client.zrem(this.keys.ready, pld);
  }

  /**
   * Leases the first of `candidates` that is ready (in the given order, e.g. the bandit's preference), or, with no
   * candidates, any ready PLD. Heartbeats this worker.
   */
  async acquire(candidates: readonly string[] = []): Promise<AcquireResult> {
    const args = [this.worker, this.hostConcurrency, this.leaseMs, this.delayMs, ...candidates];
    const r = (await this.#acquire(this.#lease, args)) as [number, number, ...Array<string | number>];
    if (r[0] === 1) return { kind: 'granted', now: r[1], pld: String(r[2]), token: String(r[3]), expiresAt: Number(r[4]) };
    return { kind: 'none', now: r[1], nextDueAt: Number(r[2]) < 0 ? null : Number(r[2]) };
  }

  /** Extends a lease to now + leaseMs; `stale` when it was reclaimed meanwhile. Heartbeats this worker. */
  async renew(token: string): Promise<{ kind: 'renewed'; expiresAt: number } | { kind: 'stale' }> {
    const r = (await this.#renew(this.#lease, [token, this.leaseMs])) as number[];
    return r[0] === 1 ? { kind: 'renewed', expiresAt: r[2]! } : { kind: 'stale' };
  }

  /** Ends a lease (see {@link ReleaseResult}); the wait before the PLD's next lease is max(delayMs, Crawl-delay, Retry-After). */
  async release(token: string, info: ReleaseInfo = {}): Promise<ReleaseResult> {
    const wait = Math.max(this.delayMs, info.crawlDelayMs ?? 0, info.retryAfterMs ?? 0);
    if (!Number.isFinite(wait)) throw invalid(`A release needs finite delays (got ${JSON.stringify(info)})`);
    const counts = encodeIncrements(this.keys, info.counts ?? [], this.#lease.length + 1);
    const args = [token, Math.ceil(wait), this.hostConcurrency, info.fetchId ?? token, this.appliedRetentionMs, ...counts.args];
    const r = (await this.#release([...this.#lease, ...counts.keys], args)) as number[];
    if (r[0] === 1) return { kind: 'released', readyAt: r[2]! };
    return r[0] === 2 ? { kind: 'already-applied', readyAt: r[2] ?? null } : { kind: 'stale' };
  }

  /** Ends the leases that expired or whose worker's heartbeat stopped (any worker may call it, e.g. every few seconds). */
  async reclaim(): Promise<{ now: number; reclaimed: ReclaimedLease[] }> {
    const r = (await this.#reclaim(this.#lease, [this.heartbeatTimeoutMs, this.delayMs, this.hostConcurrency])) as Array<number | string>;
    const reclaimed: ReclaimedLease[] = [];
    for (let i = 1; i + 2 < r.length; i += 3) reclaimed.push({ token: String(r[i]), pld: String(r[i + 1]), worker: String(r[i + 2]) });
    return { now: Number(r[0]), reclaimed };
  }

  /** Tells the others this worker is alive (acquire, renew and release do it too). Returns Redis's now. */
  async heartbeat(): Promise<number> {
    return Number(await this.#heartbeat(this.#lease, [this.worker]));
  }

  /** Leases held on a PLD now, across the cluster. */
  async holders(pld: string): Promise<number> {
    return Number((await this.#client.hget(this.keys.held, pld)) ?? 0);
  }

  /** The PLD's politeness time (epoch ms on Redis's clock; 0 if it never had a lease). */
  async politeAt(pld: string): Promise<number> {
    return Number((await this.#client.hget(this.keys.polite, pld)) ?? 0);
  }
}

function invalid(message: string): RdfscoutError {
  return new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', message);
}
