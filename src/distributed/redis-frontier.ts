// **RedisFrontier**: the `Frontier` shared by worker processes through Redis — claims under PLD leases, a local mirror for the sync calls.
import { RdfscoutError } from '../errors.ts';
import type { QueueAnswer, SharedQueue } from './redis/shared-queue.ts';
import type { Txn } from '../state/txn.ts';
import { BackgroundJobs } from './background-jobs.ts';
import { ClaimBatcher } from './claim-batch.ts';
import { EndWatch } from './end-watch.ts';
import { FetchFlights, type Flight } from './fetch-flights.ts';
import { toFrontierEntry, toQueueAdd } from './shared-entry.ts';
import { SeenCache } from './seen-cache.ts';
import { SharedMirror } from './shared-mirror.ts';
import { expectedChanges, releaseOf, type Staged } from './staged-writes.ts';
import { RejudgingFrontier } from '../frontier/similar-queued.ts';
import type { FetchNote, Frontier, FrontierEntry, FrontierIndexOptions, NewEntry, PldQueue, ReleaseOutcome, SharedEnd, SharedFrontier } from '../frontier/types.ts';

/** Options of {@link RedisFrontier}. */
export interface RedisFrontierOptions extends FrontierIndexOptions {
  queue: SharedQueue;
  /** Entries claimed and in flight in this worker at most (`--concurrency`). Default: 5. */
  maxClaims?: number;
  /** Shared budgets (`--max-docs`, `--max-docs-per-pld`). Default: none. */
  maxDocs?: number;
  maxDocsPerPld?: number;
  /** After a refused claim, the PLD is not asked again for this long (ms; 0 in the contract tests). Default: 250. */
  claimBackoffMs?: number;
  /** Timers (renew, reclaim, refresh) run: a crawl's worker. Off in the contract tests. Default: false. */
  timers?: boolean;
  /** How often the mirror reads the PLDs the other workers changed (ms). Default: 500. */
  refreshMs?: number;
  /** A fetch's release is sent when `outcome()` asks, not when its transaction commits (a worker). Default: false. */
  deferRelease?: boolean;
  now?: () => number;
}

/**
 * A `Frontier` over the shared queue. `next(pld)` hands out an entry claimed for this worker under a lease on
 * `pld` (claims run in the background, batched per scheduling pass, as LevelFrontier reads heads from disk:
 * `loading`/`settled()`); the sync calls read a mirror refreshed by every answer from Redis and, every `refreshMs`,
 * by the PLDs other workers changed. Writes staged in a `Txn` go to Redis when it commits, a fetch's in one script
 * with its lease's release (so links, counts and learning apply once, or not at all).
 */
export class RedisFrontier extends RejudgingFrontier implements Frontier, SharedFrontier {
  readonly #q: SharedQueue;
  readonly #seen: SeenCache;
  readonly #mirror = new SharedMirror();
  readonly #now: () => number;
  readonly #o: Required<Omit<RedisFrontierOptions, 'queue' | 'rejudge' | 'now'>>;
  readonly #claims: ClaimBatcher;
  readonly #flights = new FetchFlights();
  readonly #reserved = new Set<string>();
  readonly #staged = new WeakMap<Txn, Staged>();
  readonly #jobs = new BackgroundJobs();
  readonly #endWatch: EndWatch;

  constructor(o: RedisFrontierOptions) {
    super(o);
    this.#q = o.queue;
    this.#seen = new SeenCache(o.queue.seen);
    this.#now = o.now ?? Date.now;
    this.#o = {
      maxClaims: o.maxClaims ?? 5,
      maxDocs: o.maxDocs ?? Number.POSITIVE_INFINITY,
      maxDocsPerPld: o.maxDocsPerPld ?? Number.POSITIVE_INFINITY,
      claimBackoffMs: o.claimBackoffMs ?? 250,
      timers: o.timers ?? false,
      refreshMs: o.refreshMs ?? 500,
      deferRelease: o.deferRelease ?? false,
    };
    this.#endWatch = new EndWatch(async () => (await this.#q.end({ maxDocs: this.#o.maxDocs, maxDocsPerPld: this.#o.maxDocsPerPld })) as SharedEnd | null, this.#now);
    this.#claims = new ClaimBatcher({
      queue: this.#q,
      maxClaims: this.#o.maxClaims,
      claimBackoffMs: this.#o.claimBackoffMs,
      limits: { maxDocs: this.#o.maxDocs, maxDocsPerPld: this.#o.maxDocsPerPld },
      now: this.#now,
      inFlight: () => this.#flights.size - this.#flights.releasing,
      run: (p) => this.#run(p),
      track: (p) => void this.#jobs.track(p),
    });
  }

  get worker(): string {
    return this.#q.worker;
  }

  get shared(): SharedFrontier {
    return this;
  }

  async add(entries: readonly NewEntry[], txn?: Txn): Promise<number> {
    for (const e of entries) {
      if (!Number.isFinite(e.priority)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Frontier priority must be a finite number, got ${e.priority} for ${e.url}`);
    }
    const best = new Map<string, NewEntry>();
    for (const e of entries) {
      const had = best.get(e.url);
      if (!this.#reserved.has(e.url) && (had === undefined || e.priority < had.priority)) best.set(e.url, e);
    }
    if (txn === undefined) {
      const list = [...best.values()];
      const r = await this.#run(this.#q.add(list.map(toQueueAdd), this.#now()));
      this.#seen.learn(list.map((e) => e.url));
      return r.fresh.filter(Boolean).length;
    }
    const staged = this.#stage(txn);
    const list = [...best.values()];
    // Fresh: not known to this worker as seen (Redis is not asked: a round trip a page). The release's script
    // queues only those new to the crawl and says how many it queued, which `outcome()` passes on (the record's
    // linksQueued is corrected when the two differ: another worker had found a link first).
    const seen = this.#seen.known(list.map((e) => e.url));
    let fresh = 0;
    for (const [i, e] of list.entries()) {
      const had = staged.adds.get(e.url);
      if (had === undefined || e.priority < had.priority) staged.adds.set(e.url, had === undefined ? e : { ...e });
      if (!seen[i] && had === undefined && !this.#reserved.has(e.url)) {
        this.#reserved.add(e.url);
        fresh++;
      }
    }
    return fresh;
  }

  next(pld: string, now?: number): FrontierEntry | null {
    const claimed = this.#claims.take(pld);
    if (claimed !== undefined) {
      this.#seen.learn([claimed.entry.url]); // queued once, so in the seen set
      this.#flights.start(claimed.entry.url, claimed.token, claimed.since);
      this.handedOut(claimed.entry.url);
      return claimed.entry;
    }
    this.#claims.want(pld, now ?? this.#now());
    return null;
  }

  complete(entry: FrontierEntry, txn: Txn, aliases: readonly string[] = []): void {
    this.#flights.finishing(entry, 'complete');
    this.#stage(txn).finish = { entry, mode: 'done', notBefore: 0, aliases: aliases.filter((a) => a !== entry.url) };
  }

  retry(entry: FrontierEntry, notBefore: number, txn: Txn): void {
    this.#flights.finishing(entry, 'retry');
    this.#stage(txn).finish = { entry, mode: 'retry', notBefore, aliases: [] };
    txn.onCommit(() => this.putBack(entry));
  }

  dueAt(pld: string): number {
    if (this.#claims.holds(pld)) return 0;
    const view = this.#mirror.view(pld);
    const blocked = this.#claims.blockedUntil(pld);
    if (view === null || view.queued <= 0) return Number.POSITIVE_INFINITY;
    const due = view.queued > view.waiting ? 0 : (view.backoffUntil ?? 0);
    return Math.max(due, blocked > this.#now() ? blocked : 0);
  }

  queues(): PldQueue[] {
    return this.#mirror.queues();
  }

  queueOf(pld: string): PldQueue | null {
    return this.#mirror.queueOf(pld);
  }

  async has(url: string): Promise<boolean> {
    return this.#reserved.has(url) || (await this.#seen.has([url]))[0] === true;
  }

  size(): { queued: number; inFlight: number; done: number } {
    return this.#mirror.size();
  }

  get loading(): boolean {
    return this.#claims.busy;
  }

  /** The first failure of a call made in the background (a Redis error), or null: the crawl must not go on without it. */
  failure(): unknown {
    return this.#jobs.failure;
  }

  async settled(): Promise<void> {
    await this.#jobs.settled();
  }

  async *queued(): AsyncGenerator<FrontierEntry> {
    for (const pld of this.#mirror.plds()) {
      for (const { entry } of await this.#q.queuedOf(pld)) yield toFrontierEntry(entry);
    }
  }

  claimed(): string[] {
    return this.#claims.claimedPlds();
  }

  saturated(): boolean {
    return this.#claims.saturated();
  }

  drainChanged(): string[] {
    return this.#mirror.drainChanged();
  }

  note(entry: FrontierEntry, note: FetchNote): void {
    this.#flights.note(entry.url, note);
  }

  /**
   * Whether the lease of `entry` is still held. A lease lasts `leaseMs` from its grant or renewal on Redis's clock,
   * which came after the call was sent: while less than half of it has passed on this process's monotonic clock
   * (which counts a SIGSTOP too) it is held — no round trip; else it is renewed, and lost if that is refused.
   */
  async confirm(entry: FrontierEntry): Promise<boolean> {
    const f = this.#flights.get(entry.url);
    if (f === undefined) return false;
    const sent = performance.now();
    if (sent - f.since < this.#q.leases.leaseMs / 2) return true;
    if ((await this.#q.leases.renew(f.token)).kind !== 'renewed') return false;
    f.since = sent;
    return true;
  }

  async outcome(entry: FrontierEntry): Promise<ReleaseOutcome> {
    return this.#flights.outcome(entry.url);
  }

  async giveBack(entry: FrontierEntry): Promise<void> {
    const f = this.#flights.get(entry.url);
    if (f === undefined || f.finishing) return;
    this.#flights.end(entry.url);
    await this.#giveBack(f.token, entry.url);
  }

  finished(): SharedEnd | null {
    if (this.#jobs.size > 0 || this.#flights.size > 0 || this.#claims.claimedPlds().length > 0) return null;
    if (this.#mirror.stat.inFlight > 0) return null;
    // Idle here and nothing in flight anywhere as far as the mirror knows: the shared counters decide. Links left
    // only on PLDs whose budget is spent end the crawl as they end one process.
    return this.#endWatch.poll();
  }

  refetched(): number {
    return this.#mirror.stat.refetched;
  }

  /** Starts renewing this worker's leases, reclaiming dead workers' and refreshing the mirror (a crawl's worker). */
  async start(): Promise<void> {
    await this.#refresh();
    if (!this.#o.timers) return;
    const leaseMs = this.#q.leases.leaseMs;
    this.#jobs.every(Math.max(50, Math.floor(leaseMs / 3)), () => this.#renewAll());
    this.#jobs.every(Math.max(100, Math.floor(leaseMs / 2)), () => this.#run(this.#q.reclaim()));
    this.#jobs.every(this.#o.refreshMs, () => this.#refresh());
  }

  async close(): Promise<void> {
    await this.#jobs.stop();
    await Promise.allSettled(this.#claims.drain().map(({ entry, token }) => this.#giveBack(token, entry.url)));
  }

  /** Puts an entry claimed or handed out back in its queue as it was, ending its lease. */
  async #giveBack(token: string, url: string): Promise<void> {
    await this.#run(this.#q.finish({ token, url, mode: 'back', spent: false, rdf: 0, waitMs: 0, now: this.#now() }));
  }

  async #renewAll(): Promise<void> {
    const tokens = this.#flights.tokens().concat(this.#claims.tokens());
    if (tokens.length === 0) await this.#q.leases.heartbeat();
    else await Promise.all(tokens.map((t) => this.#q.leases.renew(t)));
  }

  /** The writes of `txn`; the first call registers what its commit sends to Redis. */
  #stage(txn: Txn): Staged {
    let staged = this.#staged.get(txn);
    if (staged === undefined) {
      const s: Staged = { adds: new Map() };
      staged = s;
      this.#staged.set(txn, s);
      txn.onCommit(() => this.#send(s));
    }
    return staged;
  }

  /** A transaction committed: its writes go to Redis, counted in the mirror at once (a deferred release's too). */
  #send(s: Staged): void {
    const adds = [...s.adds.values()];
    const release = () => {
      for (const e of adds) this.#reserved.delete(e.url);
    };
    const learn = (kind = 'ok') => {
      if (kind === 'ok') this.#seen.learn(adds.map((e) => e.url)); // in the seen set now, whether new or not
    };
    const fresh = adds.filter((e) => this.#reserved.has(e.url));
    const { finish } = s;
    const delta = this.#mirror.expect(expectedChanges(s, fresh, this.#now()));
    if (finish === undefined) {
      void this.#jobs.track(this.#run(this.#q.add(adds.map(toQueueAdd), this.#now()), delta).then(() => learn()).finally(release));
      return;
    }
    const flight = this.#flights.get(finish.entry.url) as Flight;
    this.#flights.committed(finish.entry.url);
    const send = () => {
      const url = finish.entry.url;
      // The PLDs the scheduler asked for and not claimed yet are claimed in the release's script (no round trip of
      // their own): SharedWorker.released asks the scheduler for its next choices just before this is sent.
      const ride = this.#claims.ride();
      const info = releaseOf({ ...s, finish }, flight, this.#q.leases.delayMs, this.#now());
      const sent = this.#q.finish(ride === null ? info : { ...info, claim: { candidates: ride.candidates, limits: ride.limits } });
      const job = this.#run(sent, delta).then(
        (r) => {
          ride?.settle(r.claimed);
          return r;
        },
        (err: unknown) => {
          ride?.settle(null);
          throw err;
        },
      );
      const outcome = job.then((r): ReleaseOutcome => {
        learn(r.kind);
        if (r.kind === 'ok') this.#seen.learn(info.aliases?.map((a) => a.url) ?? []);
        return r.kind === 'stale' ? { kind: 'stale' } : { kind: 'released', linksQueued: r.kind === 'ok' ? r.added : null };
      });
      this.#flights.sent(url, outcome, this.#o.deferRelease);
      void this.#jobs.track(job.finally(() => {
        release();
        this.#flights.end(url);
      }));
    };
    if (this.#o.deferRelease && flight.send === undefined && flight.outcome === undefined) flight.send = send;
    else send();
  }

  /** Reads the PLDs changed since the mirror's version (all of them the first time): the other workers' writes. */
  async #refresh(): Promise<void> {
    const r = await this.#run(this.#q.changes(this.#mirror.ver));
    this.#mirror.ver = Math.max(this.#mirror.ver, r.ver);
  }

  /** Runs a Redis call and applies its answer to the mirror (dropping the expected change `delta` it confirms). */
  async #run<T extends QueueAnswer>(p: Promise<T>, delta?: number): Promise<T> {
    try {
      const r = await p;
      this.#mirror.apply(r, delta);
      for (const v of r.views) if (v.queued > v.waiting) this.#claims.unblock(v.pld);
      return r;
    } catch (err) {
      if (delta !== undefined) this.#mirror.forget(delta);
      throw err;
    }
  }
}
