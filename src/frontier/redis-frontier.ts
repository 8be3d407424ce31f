// **RedisFrontier**: the `Frontier` shared by worker processes through Redis — claims under PLD leases, a local mirror for the sync calls (issue 15).
import { RdfscoutError } from '../errors.ts';
import { hostOf, pldOf } from '../links/normalize-url.ts';
import type { QueueAdd, QueueAnswer, QueueEntry, SharedQueue } from '../redis/shared-queue.ts';
import type { SeenSet } from '../redis/seen-set.ts';
import type { Txn } from '../state/txn.ts';
import { SharedMirror } from './shared-mirror.ts';
import { RejudgingFrontier } from './similar-queued.ts';
import type { FetchNote, Frontier, FrontierEntry, FrontierIndexOptions, NewEntry, PldQueue, SharedEnd, SharedFrontier } from './types.ts';

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
  /** How often the mirror of the shared queues is refreshed (ms). Default: 500. */
  refreshMs?: number;
  /**
   * A fetch's release is sent when `outcome()` asks for it rather than as soon as its transaction commits (a crawl's
   * worker: a test can stop it between the two). Default: false.
   */
  deferRelease?: boolean;
  now?: () => number;
}

interface Flight {
  token: string;
  finishing: boolean;
  note: FetchNote;
  outcome?: Promise<'released' | 'stale'>;
  /** The release, committed and not sent yet (`deferRelease`). */
  send?: () => void;
}

/** Writes staged in one transaction: links to add, and the fetch it finishes (if any). */
interface Staged {
  adds: Map<string, NewEntry>;
  finish?: { entry: FrontierEntry; mode: 'done' | 'retry'; notBefore: number; aliases: string[] };
}

/**
 * A `Frontier` over the shared queue. `next(pld)` hands out an entry claimed for this worker under a lease on
 * `pld` (claims run in the background, as LevelFrontier reads heads from disk: `loading`/`settled()`); the sync
 * calls read a mirror refreshed by every answer from Redis. Writes staged in a `Txn` go to Redis when it commits,
 * a fetch's in one script with its lease's release (so links, counts and learning apply once, or not at all).
 */
export class RedisFrontier extends RejudgingFrontier implements Frontier, SharedFrontier {
  readonly #q: SharedQueue;
  readonly #seen: SeenSet;
  readonly #mirror = new SharedMirror();
  readonly #now: () => number;
  readonly #o: Required<Omit<RedisFrontierOptions, 'queue' | 'rejudge' | 'now'>>;
  /** Claimed, not handed out yet, per PLD. */
  readonly #buffer = new Map<string, Array<{ entry: FrontierEntry; token: string }>>();
  readonly #flights = new Map<string, Flight>();
  /** Releases sent, by URL, until `outcome()` reads them (a crawl's worker reads each). */
  readonly #outcomes = new Map<string, Promise<'released' | 'stale'>>();
  readonly #claiming = new Set<string>();
  readonly #blocked = new Map<string, number>();
  readonly #reserved = new Set<string>();
  readonly #staged = new WeakMap<Txn, Staged>();
  readonly #pending = new Set<Promise<unknown>>();
  readonly #timers: NodeJS.Timeout[] = [];
  #failure: unknown = null;

  constructor(o: RedisFrontierOptions) {
    super(o);
    this.#q = o.queue;
    this.#seen = o.queue.seen;
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
      const r = await this.#run(this.#q.add([...best.values()].map(toAdd), this.#now()));
      return r.fresh.filter(Boolean).length;
    }
    const staged = this.#stage(txn);
    const list = [...best.values()];
    const seen = await this.#seen.has(list.map((e) => e.url));
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
    const time = now ?? this.#now();
    const claimed = this.#buffer.get(pld)?.shift();
    if (claimed !== undefined) {
      if (this.#buffer.get(pld)?.length === 0) this.#buffer.delete(pld);
      this.#flights.set(claimed.entry.url, { token: claimed.token, finishing: false, note: {} });
      this.handedOut(claimed.entry.url);
      return claimed.entry;
    }
    if ((this.#blocked.get(pld) ?? 0) > time || this.#claiming.has(pld)) return null;
    let held = this.#flights.size + this.#claiming.size;
    for (const b of this.#buffer.values()) held += b.length;
    if (held < this.#o.maxClaims) this.#claim(pld, time);
    return null;
  }

  complete(entry: FrontierEntry, txn: Txn, aliases: readonly string[] = []): void {
    this.#finishing(entry, 'complete');
    this.#stage(txn).finish = { entry, mode: 'done', notBefore: 0, aliases: aliases.filter((a) => a !== entry.url) };
  }

  retry(entry: FrontierEntry, notBefore: number, txn: Txn): void {
    this.#finishing(entry, 'retry');
    this.#stage(txn).finish = { entry, mode: 'retry', notBefore, aliases: [] };
    txn.onCommit(() => this.putBack(entry));
  }

  dueAt(pld: string): number {
    if ((this.#buffer.get(pld)?.length ?? 0) > 0) return 0;
    const view = this.#mirror.view(pld);
    const blocked = this.#blocked.get(pld) ?? 0;
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
    return this.#claiming.size > 0;
  }

  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
    if (this.#failure !== null) throw this.#failure;
  }

  async *queued(): AsyncGenerator<FrontierEntry> {
    for (const pld of this.#mirror.plds()) {
      for (const { url, entry } of await this.#q.queuedOf(pld)) yield toEntry(url, entry);
    }
  }

  claimed(): string[] {
    return [...this.#buffer.keys()];
  }

  drainChanged(): string[] {
    return this.#mirror.drainChanged();
  }

  note(entry: FrontierEntry, note: FetchNote): void {
    const f = this.#flights.get(entry.url);
    if (f !== undefined) f.note = { ...f.note, ...note, waitMs: Math.max(f.note.waitMs ?? 0, note.waitMs ?? 0) };
  }

  async confirm(entry: FrontierEntry): Promise<boolean> {
    const f = this.#flights.get(entry.url);
    return f !== undefined && (await this.#q.leases.renew(f.token)).kind === 'renewed';
  }

  async outcome(entry: FrontierEntry): Promise<'released' | 'stale'> {
    const f = this.#flights.get(entry.url);
    const send = f?.send;
    if (f !== undefined && send !== undefined) {
      f.send = undefined;
      send();
    }
    const outcome = this.#outcomes.get(entry.url);
    if (outcome === undefined) throw new RdfscoutError('RDFSCOUT_INTERNAL', `No release was sent for ${entry.url}: commit its transaction first.`);
    this.#outcomes.delete(entry.url);
    return outcome;
  }

  async giveBack(entry: FrontierEntry): Promise<void> {
    const f = this.#flights.get(entry.url);
    if (f === undefined || f.finishing) return;
    this.#flights.delete(entry.url);
    await this.#run(this.#q.finish({ token: f.token, url: entry.url, mode: 'back', spent: false, rdf: 0, waitMs: 0, now: this.#now() }));
  }

  finished(): SharedEnd | null {
    if (this.#pending.size > 0 || this.#flights.size > 0 || this.#buffer.size > 0) return null;
    const { stat } = this.#mirror;
    if (stat.inFlight > 0) return null;
    if (stat.spent >= this.#o.maxDocs) return 'max-docs';
    return stat.queued === 0 ? 'frontier-empty' : null;
  }

  refetched(): number {
    return this.#mirror.stat.refetched;
  }

  /** Starts renewing this worker's leases, reclaiming dead workers' and refreshing the mirror (a crawl's worker). */
  async start(): Promise<void> {
    await this.#run(this.#q.view(), undefined, true);
    if (!this.#o.timers) return;
    const every = (ms: number, fn: () => Promise<unknown>) => {
      const t = setInterval(() => void this.#track(fn()), ms);
      t.unref();
      this.#timers.push(t);
    };
    const leaseMs = this.#q.leases.leaseMs;
    every(Math.max(50, Math.floor(leaseMs / 3)), () => this.#renewAll());
    every(Math.max(100, Math.floor(leaseMs / 2)), () => this.#run(this.#q.reclaim()));
    every(this.#o.refreshMs, () => this.#run(this.#q.view(), undefined, true));
  }

  async close(): Promise<void> {
    for (const t of this.#timers) clearInterval(t);
    await Promise.allSettled([...this.#pending]);
    const back = [...this.#buffer.values()].flat();
    this.#buffer.clear();
    await Promise.allSettled(back.map(({ entry, token }) => this.#q.finish({ token, url: entry.url, mode: 'back', spent: false, rdf: 0, waitMs: 0, now: this.#now() })));
  }

  async #renewAll(): Promise<void> {
    const tokens = [...this.#flights.values()].map((f) => f.token);
    for (const b of this.#buffer.values()) tokens.push(...b.map((c) => c.token));
    if (tokens.length === 0) await this.#q.leases.heartbeat();
    else await Promise.all(tokens.map((t) => this.#q.leases.renew(t)));
  }

  #claim(pld: string, now: number): void {
    this.#claiming.add(pld);
    const limits = { maxDocs: this.#o.maxDocs, maxDocsPerPld: this.#o.maxDocsPerPld };
    const job = this.#run(this.#q.claim([pld], now, limits)).then((r) => {
      if (r.kind === 'ok') {
        const entry = toEntry(r.url, r.entry);
        const list = this.#buffer.get(entry.pld) ?? [];
        list.push({ entry, token: r.token });
        this.#buffer.set(entry.pld, list);
        this.#blocked.delete(pld);
      } else if (this.#o.claimBackoffMs > 0) {
        const wait = r.kind === 'none' && r.nextDueAt !== null ? Math.min(Math.max(r.nextDueAt - r.now, 5), 10 * this.#o.claimBackoffMs) : this.#o.claimBackoffMs;
        this.#blocked.set(pld, this.#now() + wait);
      }
    });
    void this.#track(job.finally(() => this.#claiming.delete(pld)));
  }

  #finishing(entry: FrontierEntry, what: string): void {
    const f = this.#flights.get(entry.url);
    if (f === undefined || f.finishing) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Frontier.${what}(${entry.url}): the URL is not in flight; only entries from next() can be finished, once.`);
    }
    f.finishing = true;
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

  /** A transaction committed: its writes go to Redis (the mirror counts them at once). */
  #send(s: Staged): void {
    const adds = [...s.adds.values()];
    const release = () => {
      for (const e of adds) this.#reserved.delete(e.url);
    };
    const fresh = adds.filter((e) => this.#reserved.has(e.url));
    const { finish } = s;
    if (finish === undefined) {
      const delta = this.#mirror.expect(fresh.map((e) => ({ pld: pldOf(e.url), queued: 1 })));
      void this.#track(this.#run(this.#q.add(adds.map(toAdd), this.#now()), delta).finally(release));
      return;
    }
    const { entry } = finish;
    const flight = this.#flights.get(entry.url) as Flight;
    if (this.#o.deferRelease && flight.send === undefined && flight.outcome === undefined) {
      flight.send = () => this.#sendFinish(s, flight, fresh, release);
      return;
    }
    this.#sendFinish(s, flight, fresh, release);
  }

  #sendFinish(s: Staged, flight: Flight, fresh: readonly NewEntry[], release: () => void): void {
    const adds = [...s.adds.values()];
    const { entry, mode } = s.finish as NonNullable<Staged['finish']>;
    const finish = s.finish as NonNullable<Staged['finish']>;
    const changes = [...fresh.map((e) => ({ pld: pldOf(e.url), queued: 1 })), { pld: entry.pld, inFlight: -1, queued: mode === 'retry' ? 1 : 0, done: mode === 'done' ? 1 : 0 }];
    const delta = this.#mirror.expect(changes);
    const { note } = flight;
    const job = this.#run(
      this.#q.finish({
        token: flight.token,
        url: entry.url,
        mode,
        spent: mode === 'done' && note.spent !== false,
        rdf: note.rdf ?? 0,
        notBefore: finish.notBefore,
        // A retry may change its priority and rules (`Strategy.reprioritise`): it waits with them from now on.
        ...(mode === 'retry' ? { requeueAs: { ...toAdd(newEntryOf(entry)), attempts: entry.attempts + 1 } } : {}),
        waitMs: Math.max(this.#q.leases.delayMs, note.waitMs ?? 0),
        aliases: finish.aliases.map((url) => ({ url, pld: pldOf(url) })),
        adds: adds.map(toAdd),
        log: mode === 'done' ? (note.learned ?? '') : '',
        now: this.#now(),
      }),
      delta,
    );
    flight.outcome = job.then((r) => (r.kind === 'stale' ? 'stale' : 'released'));
    flight.outcome.catch(() => {});
    if (this.#o.deferRelease) this.#outcomes.set(entry.url, flight.outcome);
    void this.#track(job.finally(() => {
      release();
      this.#flights.delete(entry.url);
    }));
  }

  /** Runs a Redis call and applies its answer to the mirror (dropping the expected change `delta` it confirms). */
  async #run<T extends QueueAnswer>(p: Promise<T>, delta?: number, full = false): Promise<T> {
    try {
      const r = await p;
      this.#mirror.apply(r, delta, full);
      for (const v of r.views) if (v.queued > v.waiting) this.#blocked.delete(v.pld);
      return r;
    } catch (err) {
      if (delta !== undefined) this.#mirror.forget(delta);
      throw err;
    }
  }

  #track<T>(p: Promise<T>): Promise<T | undefined> {
    const tracked = p.catch((err) => {
      this.#failure ??= err;
      return undefined;
    });
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
    return tracked;
  }
}

function toAdd(e: NewEntry): QueueAdd {
  return { url: e.url, pld: pldOf(e.url), priority: e.priority, json: JSON.stringify(e) };
}

/** The entry as queued: what `toEntry` reads back (the fields the queue keeps itself left out). */
function newEntryOf(entry: FrontierEntry): NewEntry {
  const { pld: _p, host: _h, seq: _s, attempts: _a, notBefore: _n, ...queued } = entry;
  return queued;
}

function toEntry(url: string, q: QueueEntry): FrontierEntry {
  const e = JSON.parse(q.json) as NewEntry;
  return { ...e, url, priority: q.priority, pld: pldOf(url), host: hostOf(url), seq: q.seq, attempts: q.attempts, notBefore: q.notBefore };
}
