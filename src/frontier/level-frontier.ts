// **LevelFrontier** is the persistent crawl frontier: per-PLD queues in LevelDB, small head buffers and a hashed seen set in memory.
import { RdfscoutError } from '../errors.ts';
import { hostOf, pldOf } from '../links/normalize-url.ts';
import type { CrawlState } from '../state/open-state.ts';
import { type AnySublevel, type Txn, levelTxn } from '../state/txn.ts';
import { type Buffered, type PldState, QueueHeads, queueOfState } from './queue-heads.ts';
import { QUEUE_END, QUEUE_PREFIX, queueKey, SORT_KEY_MAX, sortKeyOf } from './queue-keys.ts';
import { RejudgingFrontier } from './similar-queued.ts';
import type { Frontier, FrontierEntry, FrontierIndexOptions, NewEntry, PldQueue } from './types.ts';
import { claimInFlight, type InFlight } from './in-flight.ts';
import { decodeQueued, encodeQueued } from './queued-value.ts';
import { loadSeen, type SeenRecord } from './seen-load.ts';
import { URL_STATE, UrlTable } from './url-table.ts';

export interface LevelFrontierOptions extends FrontierIndexOptions {
  /** Clock used when `next()` is called without `now`. Default: `Date.now`. */
  now?: () => number;
  /**
   * Most entries held in memory at the head of one PLD's queue (up to twice that between trims). Default: 128 (a refill
   * is one LevelDB seek: at 16 they took ~3% of a breadth-first crawl's main thread, at 128 an eighth of that).
   */
  headSize?: number;
  /** Most entries held in all head buffers together; with many PLDs each buffer shrinks (to 2 at least). Default: 50,000. */
  maxBuffered?: number;
  /** Sublevels to keep the queue and the seen set in. Default: the state's `frontier` and `seen`. */
  sublevels?: { queue: AnySublevel; seen: AnySublevel };
}

/**
 * The `Frontier` on the crawl's LevelDB (see the lifecycle in `types.ts`).
 *
 * On disk, in the `frontier` sublevel, `q!<pld>!<priority>!<seq>` → `FrontierEntry`, so LevelDB's order is each
 * PLD's queue order; in `seen`, URL → `SeenRecord`. Both change only in the same batch. In memory: per PLD its
 * counters and a head buffer of at most `headSize` entries, refilled by a range read when it runs low (so `next()`
 * costs the same at 10k or 1M queued URLs); a `UrlTable` (≈17 bytes per URL) for dedupe; the in-flight URLs.
 * `open()` rebuilds all of it from one batched scan of `seen` (~1 s per 100k URLs on a loaded 2-core machine), so a
 * crash needs no repair: in-flight entries are still queued on disk and in `seen`.
 *
 * A `Txn` that is staged into but never committed leaves its URLs reserved (not handed out, not re-added) until the
 * frontier is reopened; a failed commit is fatal to a crawl anyway (RDFSCOUT_STORE_FAILED), and a restart is exact.
 */
export class LevelFrontier extends RejudgingFrontier implements Frontier {
  readonly #state: CrawlState;
  readonly #queue: AnySublevel;
  readonly #seen: AnySublevel;
  readonly #now: () => number;
  readonly #table = new UrlTable();
  readonly #heads: QueueHeads;
  readonly #inFlight = new Map<string, InFlight>();
  /** One set per upgrade whose seen records are being read: the URLs handed out meanwhile (their records are stale). */
  readonly #handedOutDuringReads = new Set<Set<string>>();
  #seq = 0;
  #queued = 0;
  #done = 0;

  private constructor(state: CrawlState, opts: LevelFrontierOptions) {
    super(opts);
    this.#state = state;
    this.#queue = opts.sublevels?.queue ?? state.sub.frontier;
    this.#seen = opts.sublevels?.seen ?? state.sub.seen;
    this.#now = opts.now ?? Date.now;
    this.#heads = new QueueHeads({
      queue: this.#queue,
      headSize: Math.max(2, opts.headSize ?? 128),
      maxBuffered: opts.maxBuffered ?? 50_000,
      isDone: (url) => this.#table.state(url) === URL_STATE.done,
      isInFlight: (url) => this.#inFlight.has(url),
    });
  }

  /** Opens the frontier of a crawl state, loading counters, the seen set and each PLD's head. */
  static async open(state: CrawlState, opts: LevelFrontierOptions = {}): Promise<LevelFrontier> {
    const f = new LevelFrontier(state, opts);
    await f.#load();
    await f.indexQueue();
    return f;
  }

  async #load(): Promise<void> {
    const counts = await loadSeen(this.#seen, this.#table, this.#heads);
    this.#seq = counts.seq;
    this.#queued = counts.queued;
    this.#done = counts.done;
  }

  async add(entries: readonly NewEntry[], txn?: Txn): Promise<number> {
    const t = txn ?? this.#state.txn();
    const best = new Map<string, NewEntry>();
    for (const e of entries) {
      if (!Number.isFinite(e.priority)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Frontier priority must be a finite number, got ${e.priority} for ${e.url}`);
      const b = best.get(e.url);
      if (b === undefined || e.priority < b.priority) best.set(e.url, e);
    }
    const fresh: Array<{ st: PldState; b: Buffered }> = [];
    const upgrades: NewEntry[] = [];
    for (const e of best.values()) {
      const state = this.#table.state(e.url);
      if (state === URL_STATE.absent) {
        const entry = this.#entryOf(e, ++this.#seq);
        const b = { sortKey: sortKeyOf(e.priority, entry.seq), entry };
        levelTxn(t).put(this.#queue, queueKey(entry.pld, b.sortKey), encodeQueued(entry));
        levelTxn(t).put(this.#seen, e.url, { state: 'queued', priority: e.priority, seq: entry.seq } satisfies SeenRecord);
        this.#table.set(e.url, URL_STATE.reserved, e.priority);
        fresh.push({ st: this.#heads.of(entry.pld, SORT_KEY_MAX), b });
      } else if (state === URL_STATE.queued && e.priority < this.#table.priority(e.url) && !this.#inFlight.has(e.url)) {
        upgrades.push(e);
      }
    }
    const moved = upgrades.length > 0 ? await this.#stageUpgrades(upgrades, t) : [];
    this.#heads.stageGarbage(t);
    t.onCommit(() => {
      for (const { st, b } of fresh) {
        this.#table.set(b.entry.url, URL_STATE.queued, b.entry.priority);
        st.queued++;
        this.#queued++;
        this.#heads.insert(st, b);
      }
      for (const { st, oldSortKey, b } of moved) {
        this.#table.set(b.entry.url, URL_STATE.queued, b.entry.priority);
        this.#heads.finishRemoval(st, oldSortKey);
        this.#heads.insert(st, b);
      }
    });
    if (txn === undefined) await t.commit();
    return fresh.length;
  }

  ignores(url: string, priority: number): boolean {
    const state = this.#table.state(url); // add()'s tests, negated
    return state !== URL_STATE.absent && (state !== URL_STATE.queued || !(priority < this.#table.priority(url)) || this.#inFlight.has(url));
  }

  /** Re-prioritises queued URLs found again with a more urgent priority: the old key goes, a new one comes. */
  async #stageUpgrades(upgrades: NewEntry[], t: Txn): Promise<Array<{ st: PldState; oldSortKey: string; b: Buffered }>> {
    const handedOut = new Set<string>();
    this.#handedOutDuringReads.add(handedOut);
    let records: Array<SeenRecord | undefined>;
    try {
      records = (await this.#seen.getMany(upgrades.map((u) => u.url))) as Array<SeenRecord | undefined>;
    } finally {
      this.#handedOutDuringReads.delete(handedOut);
    }
    const moved: Array<{ st: PldState; oldSortKey: string; b: Buffered }> = [];
    upgrades.forEach((e, i) => {
      const rec = records[i];
      // Re-check after the read: the URL may have been handed out or completed meanwhile. The record read must be
      // the URL's current queue key, else that key would stay and the URL be queued twice: one handed out and put
      // back during the read (a retry, a strategy's second thoughts) has a new seq, and one upgraded by another
      // transaction committed during the read a new priority. Such an upgrade is left out (a later one may come).
      if (rec?.state !== 'queued' || this.#table.state(e.url) !== URL_STATE.queued || this.#inFlight.has(e.url) || handedOut.has(e.url)) return;
      if (rec.priority !== this.#table.priority(e.url) || !(e.priority < rec.priority)) return;
      const entry = this.#entryOf(e, rec.seq);
      const st = this.#heads.of(entry.pld, SORT_KEY_MAX);
      const oldSortKey = sortKeyOf(rec.priority, rec.seq);
      const b = { sortKey: sortKeyOf(e.priority, rec.seq), entry };
      levelTxn(t).del(this.#queue, queueKey(entry.pld, oldSortKey));
      levelTxn(t).put(this.#queue, queueKey(entry.pld, b.sortKey), encodeQueued(entry));
      levelTxn(t).put(this.#seen, e.url, { state: 'queued', priority: e.priority, seq: rec.seq } satisfies SeenRecord);
      // From now on the old entry must not be handed out nor reloaded.
      st.removing.add(oldSortKey);
      const at = st.buffer.findIndex((x) => x.sortKey === oldSortKey);
      if (at >= 0) st.buffer.splice(at, 1);
      this.#table.set(e.url, URL_STATE.reserved, e.priority);
      moved.push({ st, oldSortKey, b });
    });
    return moved;
  }

  next(pld: string, now?: number): FrontierEntry | null {
    this.#heads.throwIfFailed();
    const st = this.#heads.get(pld);
    if (st === undefined) return null;
    const time = now ?? this.#now();
    const buf = st.buffer;
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i] as Buffered;
      if (this.#table.state(b.entry.url) === URL_STATE.done) {
        // Marked done as an alias of another URL after it was queued: drop its key.
        buf.splice(i--, 1);
        this.#heads.dropStale(st, b.sortKey);
        continue;
      }
      if (b.entry.notBefore > time) continue;
      buf.splice(i, 1);
      st.queued--;
      this.#queued--;
      st.inFlight++;
      this.#inFlight.set(b.entry.url, { pld, sortKey: b.sortKey, finishing: false });
      for (const during of this.#handedOutDuringReads) during.add(b.entry.url);
      this.#heads.maybeRefill(st);
      this.handedOut(b.entry.url);
      return b.entry;
    }
    // Nothing eligible here (empty, or all held back by notBefore) but more on disk: read further.
    if (st.queued > buf.length) this.#heads.refill(st);
    return null;
  }

  complete(entry: FrontierEntry, txn: Txn, aliases: readonly string[] = []): void {
    const f = claimInFlight(this.#inFlight, entry, 'complete');
    const st = this.#heads.get(f.pld) as PldState;
    levelTxn(txn).del(this.#queue, queueKey(f.pld, f.sortKey));
    st.removing.add(f.sortKey);
    const done: SeenRecord = { state: 'done', seq: entry.seq };
    levelTxn(txn).put(this.#seen, entry.url, done);
    const newlyDone = [entry.url];
    const unqueued: Array<{ st: PldState; sortKey: string }> = [];
    const uncounted: Array<{ st: PldState; url: string }> = [];
    for (const alias of aliases) {
      if (alias === entry.url || newlyDone.includes(alias)) continue;
      const state = this.#table.state(alias);
      if (state === URL_STATE.done || state === URL_STATE.reserved) continue;
      levelTxn(txn).put(this.#seen, alias, done);
      newlyDone.push(alias);
      if (state === URL_STATE.queued && !this.#inFlight.has(alias)) {
        // Reserved until the commit: an upgrade staged meanwhile (in this transaction or another) leaves it alone.
        this.#table.set(alias, URL_STATE.reserved, this.#table.priority(alias));
        // A queued alias in a head buffer is unqueued now; one further back is dropped when met (`next`, refill).
        const ast = this.#heads.get(pldOf(alias));
        if (ast !== undefined) uncounted.push({ st: ast, url: alias });
        const at = ast?.buffer.findIndex((x) => x.entry.url === alias) ?? -1;
        if (ast !== undefined && at >= 0) {
          const [b] = ast.buffer.splice(at, 1) as [Buffered];
          levelTxn(txn).del(this.#queue, queueKey(ast.pld, b.sortKey));
          ast.removing.add(b.sortKey);
          unqueued.push({ st: ast, sortKey: b.sortKey });
        }
      }
      if (state === URL_STATE.absent) this.#table.set(alias, URL_STATE.reserved, Number.NaN);
    }
    this.#heads.stageGarbage(txn);
    txn.onCommit(() => {
      this.#inFlight.delete(entry.url);
      st.inFlight--;
      this.#heads.finishRemoval(st, f.sortKey);
      for (const url of newlyDone) {
        if (this.#table.state(url) !== URL_STATE.done) this.#done++;
        this.#table.set(url, URL_STATE.done, Number.NaN);
      }
      for (const u of unqueued) this.#heads.finishRemoval(u.st, u.sortKey);
      for (const u of uncounted) {
        // Handed out meanwhile (it left `queued` then): its own complete() finishes it.
        if (this.#inFlight.has(u.url)) continue;
        u.st.queued--;
        this.#queued--;
      }
    });
  }

  retry(entry: FrontierEntry, notBefore: number, txn: Txn): void {
    const f = claimInFlight(this.#inFlight, entry, 'retry');
    const st = this.#heads.get(f.pld) as PldState;
    if (this.#table.state(entry.url) === URL_STATE.done) {
      // Done meanwhile as another URL's alias: nothing left to retry.
      levelTxn(txn).del(this.#queue, queueKey(f.pld, f.sortKey));
      st.removing.add(f.sortKey);
      txn.onCommit(() => {
        this.#inFlight.delete(entry.url);
        st.inFlight--;
        this.#heads.finishRemoval(st, f.sortKey);
      });
      return;
    }
    // A new seq: the retried entry goes behind the others of its priority, so it does not block the head.
    const again: FrontierEntry = { ...entry, attempts: entry.attempts + 1, notBefore, seq: ++this.#seq };
    const b = { sortKey: sortKeyOf(again.priority, again.seq), entry: again };
    levelTxn(txn).del(this.#queue, queueKey(f.pld, f.sortKey));
    st.removing.add(f.sortKey);
    levelTxn(txn).put(this.#queue, queueKey(f.pld, b.sortKey), encodeQueued(again));
    levelTxn(txn).put(this.#seen, entry.url, { state: 'queued', priority: again.priority, seq: again.seq } satisfies SeenRecord);
    this.#heads.stageGarbage(txn);
    txn.onCommit(() => {
      this.#inFlight.delete(entry.url);
      // Upgrades compare with the priority it waits at now (a retry may change it: `Strategy.reprioritise`).
      if (this.#table.state(entry.url) === URL_STATE.queued) this.#table.set(entry.url, URL_STATE.queued, again.priority);
      st.inFlight--;
      st.queued++;
      this.#queued++;
      this.#heads.finishRemoval(st, f.sortKey);
      this.#heads.insert(st, b);
      this.putBack(again);
    });
  }

  dueAt(pld: string): number {
    const st = this.#heads.get(pld);
    if (st === undefined || st.queued === 0) return Number.POSITIVE_INFINITY;
    if (st.queued > st.buffer.length) return 0; // some are on disk only, and may be due
    let earliest = Number.POSITIVE_INFINITY;
    for (const b of st.buffer) {
      if (b.entry.notBefore === 0) return 0; // never retried: due (the usual head)
      if (b.entry.notBefore < earliest) earliest = b.entry.notBefore;
    }
    return earliest;
  }

  queues(): PldQueue[] {
    const out: PldQueue[] = [];
    for (const st of this.#heads.values()) {
      if (st.queued + st.inFlight > 0) out.push(queueOfState(st));
    }
    return out;
  }

  queueOf(pld: string): PldQueue | null {
    const st = this.#heads.get(pld);
    return st === undefined || st.queued + st.inFlight === 0 ? null : queueOfState(st);
  }

  async has(url: string): Promise<boolean> {
    const state = this.#table.state(url);
    if (state === URL_STATE.absent) return false;
    if (state === URL_STATE.reserved) return true;
    return (await this.#seen.get(url)) !== undefined;
  }

  /** Whether the URL was ever seen here (queued, reserved by a pending txn, in flight or done): synchronous. */
  knows(url: string): boolean {
    return this.#table.state(url) !== URL_STATE.absent;
  }

  size(): { queued: number; inFlight: number; done: number } {
    return { queued: this.#queued, inFlight: this.#inFlight.size, done: this.#done };
  }

  get loading(): boolean {
    return this.#heads.loading;
  }

  settled(): Promise<void> {
    return this.#heads.settled();
  }

  /** One scan of the queue sublevel, PLD by PLD in queue order; in-flight entries and stale keys (done URLs) skipped. */
  async *queued(): AsyncGenerator<FrontierEntry> {
    for await (const [key, value] of this.#queue.iterator({ gte: QUEUE_PREFIX, lt: QUEUE_END })) {
      const e = decodeQueued(key as string, value);
      if (!this.#inFlight.has(e.url) && this.#table.state(e.url) !== URL_STATE.done) yield e;
    }
  }

  /** Bytes of the in-memory seen set (for benchmarks). */
  get seenTableBytes(): number {
    return this.#table.bytes;
  }

  #entryOf(e: NewEntry, seq: number): FrontierEntry {
    return { ...e, pld: pldOf(e.url), host: hostOf(e.url), seq, attempts: 0, notBefore: 0 };
  }
}
