// **LevelFrontier** is the persistent crawl frontier: per-PLD queues in LevelDB, small head buffers and a hashed seen set in memory.
import { RdfscoutError } from '../errors.ts';
import { hostOf, pldOf } from '../links/normalize-url.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { AnySublevel, Txn } from '../state/txn.ts';
import { pldRange, queueKey, SORT_KEY_MAX, sortKeyOf } from './queue-keys.ts';
import type { Frontier, FrontierEntry, NewEntry, PldQueue } from './types.ts';
import { URL_STATE, UrlTable } from './url-table.ts';

export interface LevelFrontierOptions {
  /** Clock used when `next()` is called without `now`. Default: `Date.now`. */
  now?: () => number;
  /** Most entries held in memory at the head of one PLD's queue (up to twice that between trims). Default: 16. */
  headSize?: number;
  /** Most entries held in all head buffers together; with many PLDs each buffer shrinks (to 2 at least). Default: 50,000. */
  maxBuffered?: number;
  /** Sublevels to keep the queue and the seen set in. Default: the state's `frontier` and `seen`. */
  sublevels?: { queue: AnySublevel; seen: AnySublevel };
}

/** Value of a `seen` sublevel record (key: the URL). `seq` is the queue seq (of the completed entry for done URLs). */
export type SeenRecord = { state: 'queued'; priority: number; seq: number } | { state: 'done'; seq: number };

interface Buffered {
  sortKey: string;
  entry: FrontierEntry;
}

/** One PLD's queue in memory: counters and the head of its on-disk queue. */
interface PldState {
  pld: string;
  /** Committed queued entries not in flight (may include stale keys of done URLs, dropped when met). */
  queued: number;
  inFlight: number;
  /** Exactly the live queued entries with sort key ≤ `bound`, sorted. */
  buffer: Buffered[];
  /** '' when nothing is buffered yet, SORT_KEY_MAX when the whole queue is. */
  bound: string;
  refilling: boolean;
  /** While refilling: committed inserts beyond the bound the refill started from. */
  lateAdds: Buffered[];
  /** Sort keys whose deletion is staged (or committed during a refill): never (re)load them. */
  removing: Set<string>;
  deferred: string[];
}

interface InFlight {
  pld: string;
  sortKey: string;
  finishing: boolean;
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
export class LevelFrontier implements Frontier {
  readonly #state: CrawlState;
  readonly #queue: AnySublevel;
  readonly #seen: AnySublevel;
  readonly #now: () => number;
  readonly #headSize: number;
  readonly #maxBuffered: number;
  readonly #table = new UrlTable();
  readonly #plds = new Map<string, PldState>();
  readonly #inFlight = new Map<string, InFlight>();
  readonly #refills = new Set<Promise<void>>();
  #garbage: Array<{ st: PldState; sortKey: string }> = [];
  #seq = 0;
  #queued = 0;
  #done = 0;
  #error: unknown = null;

  private constructor(state: CrawlState, opts: LevelFrontierOptions) {
    this.#state = state;
    this.#queue = opts.sublevels?.queue ?? state.sub.frontier;
    this.#seen = opts.sublevels?.seen ?? state.sub.seen;
    this.#now = opts.now ?? Date.now;
    this.#headSize = Math.max(2, opts.headSize ?? 16);
    this.#maxBuffered = opts.maxBuffered ?? 50_000;
  }

  /** Opens the frontier of a crawl state, loading counters, the seen set and each PLD's head. */
  static async open(state: CrawlState, opts: LevelFrontierOptions = {}): Promise<LevelFrontier> {
    const f = new LevelFrontier(state, opts);
    await f.#load();
    return f;
  }

  /**
   * One scan of `seen` (in batches) rebuilds the seen table, the per-PLD counters (a URL is queued exactly while
   * its record says so: in-flight entries of a crashed run are queued again) and the seq counter; then each PLD's
   * head is read. Queue keys are not scanned: a stale key (its URL done as an alias) counts for nothing and is
   * dropped when met.
   */
  async #load(): Promise<void> {
    const it = this.#seen.iterator();
    try {
      for (;;) {
        const rows = (await it.nextv(1000)) as Array<[string, SeenRecord]>;
        if (rows.length === 0) break;
        for (const [url, rec] of rows) {
          if (rec.state === 'done') {
            this.#table.set(url, URL_STATE.done, Number.NaN);
            this.#done++;
          } else {
            this.#table.set(url, URL_STATE.queued, rec.priority);
            this.#pldState(pldOf(url), '').queued++;
            this.#queued++;
          }
          if (rec.seq > this.#seq) this.#seq = rec.seq;
        }
      }
    } finally {
      await it.close();
    }
    // Heads are read 32 PLDs at a time: 1000 iterators at once cost ~100 MB of native memory for nothing.
    let started = 0;
    for (const st of this.#plds.values()) {
      if (st.queued === 0) continue;
      this.#refill(st);
      if (++started % 32 === 0) await this.settled();
    }
    await this.settled();
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
        t.put(this.#queue, queueKey(entry.pld, b.sortKey), entry);
        t.put(this.#seen, e.url, { state: 'queued', priority: e.priority, seq: entry.seq } satisfies SeenRecord);
        this.#table.set(e.url, URL_STATE.reserved, e.priority);
        fresh.push({ st: this.#pldState(entry.pld, SORT_KEY_MAX), b });
      } else if (state === URL_STATE.queued && e.priority < this.#table.priority(e.url) && !this.#inFlight.has(e.url)) {
        upgrades.push(e);
      }
    }
    const moved = upgrades.length > 0 ? await this.#stageUpgrades(upgrades, t) : [];
    this.#stageGarbage(t);
    t.onCommit(() => {
      for (const { st, b } of fresh) {
        this.#table.set(b.entry.url, URL_STATE.queued, b.entry.priority);
        st.queued++;
        this.#queued++;
        this.#insert(st, b);
      }
      for (const { st, oldSortKey, b } of moved) {
        this.#table.set(b.entry.url, URL_STATE.queued, b.entry.priority);
        this.#finishRemoval(st, oldSortKey);
        this.#insert(st, b);
      }
    });
    if (txn === undefined) await t.commit();
    return fresh.length;
  }

  /** Re-prioritises queued URLs found again with a more urgent priority: the old key goes, a new one comes. */
  async #stageUpgrades(upgrades: NewEntry[], t: Txn): Promise<Array<{ st: PldState; oldSortKey: string; b: Buffered }>> {
    const records = (await this.#seen.getMany(upgrades.map((u) => u.url))) as Array<SeenRecord | undefined>;
    const moved: Array<{ st: PldState; oldSortKey: string; b: Buffered }> = [];
    upgrades.forEach((e, i) => {
      const rec = records[i];
      // Re-check after the read: the URL may have been handed out or completed meanwhile.
      if (rec?.state !== 'queued' || this.#table.state(e.url) !== URL_STATE.queued || this.#inFlight.has(e.url)) return;
      if (!(e.priority < this.#table.priority(e.url))) return;
      const entry = this.#entryOf(e, rec.seq);
      const st = this.#pldState(entry.pld, SORT_KEY_MAX);
      const oldSortKey = sortKeyOf(rec.priority, rec.seq);
      const b = { sortKey: sortKeyOf(e.priority, rec.seq), entry };
      t.del(this.#queue, queueKey(entry.pld, oldSortKey));
      t.put(this.#queue, queueKey(entry.pld, b.sortKey), entry);
      t.put(this.#seen, e.url, { state: 'queued', priority: e.priority, seq: rec.seq } satisfies SeenRecord);
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
    if (this.#error !== null) throw this.#error;
    const st = this.#plds.get(pld);
    if (st === undefined) return null;
    const time = now ?? this.#now();
    const buf = st.buffer;
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i] as Buffered;
      if (this.#table.state(b.entry.url) === URL_STATE.done) {
        // Marked done as an alias of another URL after it was queued: drop its key.
        buf.splice(i--, 1);
        this.#dropStale(st, b.sortKey);
        continue;
      }
      if (b.entry.notBefore > time) continue;
      buf.splice(i, 1);
      st.queued--;
      this.#queued--;
      st.inFlight++;
      this.#inFlight.set(b.entry.url, { pld, sortKey: b.sortKey, finishing: false });
      this.#maybeRefill(st);
      return b.entry;
    }
    // Nothing eligible here (empty, or all held back by notBefore) but more on disk: read further.
    if (st.queued > buf.length) this.#refill(st);
    return null;
  }

  complete(entry: FrontierEntry, txn: Txn, aliases: readonly string[] = []): void {
    const f = this.#claim(entry, 'complete');
    const st = this.#plds.get(f.pld) as PldState;
    txn.del(this.#queue, queueKey(f.pld, f.sortKey));
    st.removing.add(f.sortKey);
    const done: SeenRecord = { state: 'done', seq: entry.seq };
    txn.put(this.#seen, entry.url, done);
    const newlyDone = [entry.url];
    const unqueued: Array<{ st: PldState; sortKey: string }> = [];
    const uncounted: Array<{ st: PldState; url: string }> = [];
    for (const alias of aliases) {
      if (alias === entry.url || newlyDone.includes(alias)) continue;
      const state = this.#table.state(alias);
      if (state === URL_STATE.done || state === URL_STATE.reserved) continue;
      txn.put(this.#seen, alias, done);
      newlyDone.push(alias);
      if (state === URL_STATE.queued && !this.#inFlight.has(alias)) {
        // A queued alias in a head buffer is unqueued now; one further back is dropped when met (`next`, refill).
        const ast = this.#plds.get(pldOf(alias));
        if (ast !== undefined) uncounted.push({ st: ast, url: alias });
        const at = ast?.buffer.findIndex((x) => x.entry.url === alias) ?? -1;
        if (ast !== undefined && at >= 0) {
          const [b] = ast.buffer.splice(at, 1) as [Buffered];
          txn.del(this.#queue, queueKey(ast.pld, b.sortKey));
          ast.removing.add(b.sortKey);
          unqueued.push({ st: ast, sortKey: b.sortKey });
        }
      }
      if (state === URL_STATE.absent) this.#table.set(alias, URL_STATE.reserved, Number.NaN);
    }
    this.#stageGarbage(txn);
    txn.onCommit(() => {
      this.#inFlight.delete(entry.url);
      st.inFlight--;
      this.#finishRemoval(st, f.sortKey);
      for (const url of newlyDone) {
        if (this.#table.state(url) !== URL_STATE.done) this.#done++;
        this.#table.set(url, URL_STATE.done, Number.NaN);
      }
      for (const u of unqueued) this.#finishRemoval(u.st, u.sortKey);
      for (const u of uncounted) {
        // Handed out meanwhile (it left `queued` then): its own complete() finishes it.
        if (this.#inFlight.has(u.url)) continue;
        u.st.queued--;
        this.#queued--;
      }
    });
  }

  retry(entry: FrontierEntry, notBefore: number, txn: Txn): void {
    const f = this.#claim(entry, 'retry');
    const st = this.#plds.get(f.pld) as PldState;
    if (this.#table.state(entry.url) === URL_STATE.done) {
      // Done meanwhile as another URL's alias: nothing left to retry.
      txn.del(this.#queue, queueKey(f.pld, f.sortKey));
      st.removing.add(f.sortKey);
      txn.onCommit(() => {
        this.#inFlight.delete(entry.url);
        st.inFlight--;
        this.#finishRemoval(st, f.sortKey);
      });
      return;
    }
    // A new seq: the retried entry goes behind the others of its priority, so it does not block the head.
    const again: FrontierEntry = { ...entry, attempts: entry.attempts + 1, notBefore, seq: ++this.#seq };
    const b = { sortKey: sortKeyOf(again.priority, again.seq), entry: again };
    txn.del(this.#queue, queueKey(f.pld, f.sortKey));
    st.removing.add(f.sortKey);
    txn.put(this.#queue, queueKey(f.pld, b.sortKey), again);
    txn.put(this.#seen, entry.url, { state: 'queued', priority: again.priority, seq: again.seq } satisfies SeenRecord);
    this.#stageGarbage(txn);
    txn.onCommit(() => {
      this.#inFlight.delete(entry.url);
      st.inFlight--;
      st.queued++;
      this.#queued++;
      this.#finishRemoval(st, f.sortKey);
      this.#insert(st, b);
    });
  }

  dueAt(pld: string): number {
    const st = this.#plds.get(pld);
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
    for (const st of this.#plds.values()) {
      if (st.queued + st.inFlight > 0) out.push(queueOfState(st));
    }
    return out;
  }

  queueOf(pld: string): PldQueue | null {
    const st = this.#plds.get(pld);
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

  /** Whether head buffers are being read from disk (then `next()` may give null for a PLD with queued entries). */
  get loading(): boolean {
    return this.#refills.size > 0;
  }

  /** Resolves when no head buffer is being refilled (a PLD with queued entries may give `next() === null` until then). */
  async settled(): Promise<void> {
    while (this.#refills.size > 0) await Promise.all(this.#refills);
    if (this.#error !== null) throw this.#error;
  }

  /** Bytes of the in-memory seen set (for benchmarks). */
  get seenTableBytes(): number {
    return this.#table.bytes;
  }

  #claim(entry: FrontierEntry, what: string): InFlight {
    const f = this.#inFlight.get(entry.url);
    if (f === undefined || f.finishing) {
      throw new RdfscoutError(
        'RDFSCOUT_INVALID_ARGUMENT',
        `Frontier.${what}(${entry.url}): the URL is not in flight${f?.finishing ? ' (already completed or retried)' : ''}; only entries from next() can be finished, once.`,
      );
    }
    f.finishing = true;
    return f;
  }

  #entryOf(e: NewEntry, seq: number): FrontierEntry {
    return { ...e, pld: pldOf(e.url), host: hostOf(e.url), seq, attempts: 0, notBefore: 0 };
  }

  #pldState(pld: string, bound: string): PldState {
    let st = this.#plds.get(pld);
    if (st === undefined) {
      st = { pld, queued: 0, inFlight: 0, buffer: [], bound, refilling: false, lateAdds: [], removing: new Set(), deferred: [] };
      this.#plds.set(pld, st);
    }
    return st;
  }

  /** Entries per head buffer: `headSize`, less when many PLDs share `maxBuffered`. */
  #target(): number {
    return Math.max(2, Math.min(this.#headSize, Math.floor(this.#maxBuffered / Math.max(1, this.#plds.size))));
  }

  /** Puts a committed queued entry into the head buffer when it falls inside it. */
  #insert(st: PldState, b: Buffered): void {
    if (b.sortKey > st.bound) {
      if (st.refilling) st.lateAdds.push(b);
      else this.#maybeRefill(st);
      return;
    }
    const buf = st.buffer;
    let lo = 0;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((buf[mid] as Buffered).sortKey < b.sortKey) lo = mid + 1;
      else hi = mid;
    }
    buf.splice(lo, 0, b);
    const target = this.#target();
    if (buf.length > 2 * target) {
      // The tail stays on disk only; the buffer then covers keys up to its new last one.
      buf.length = target;
      st.bound = (buf[target - 1] as Buffered).sortKey;
    }
  }

  #maybeRefill(st: PldState): void {
    if (!st.refilling && st.queued > st.buffer.length && st.buffer.length <= this.#target() >> 1) this.#refill(st);
  }

  /** Reads the next keys after the buffer's bound into the buffer (asynchronously; see `settled`). */
  #refill(st: PldState): void {
    if (st.refilling || st.bound === SORT_KEY_MAX) return;
    st.refilling = true;
    st.lateAdds = [];
    const startBound = st.bound;
    // At least a few rows: when PLDs multiply, a PLD's share (#target) can fall below what its buffer already holds,
    // and a head held back by retries must still be read past (a limit of 0 read nothing, and a negative one all).
    const want = Math.max(4, this.#target() - st.buffer.length + 4);
    const range = pldRange(st.pld);
    const opts = startBound === '' ? { ...range, limit: want } : { gt: queueKey(st.pld, startBound), lt: range.lt, limit: want };
    const p = (async () => {
      try {
        const rows = (await this.#queue.iterator(opts).all()) as Array<[string, FrontierEntry]>;
        if (st.bound !== startBound) return; // trimmed meanwhile: the buffer is full, what was read stays on disk
        const newBound = rows.length < want ? SORT_KEY_MAX : (rows[rows.length - 1] as [string, FrontierEntry])[0].slice(-33);
        const merged = new Map<string, Buffered>();
        for (const b of st.buffer) merged.set(b.sortKey, b);
        for (const [key, entry] of rows) {
          const sortKey = key.slice(-33);
          if (merged.has(sortKey) || st.removing.has(sortKey) || this.#inFlight.has(entry.url)) continue;
          if (this.#table.state(entry.url) === URL_STATE.done) {
            this.#dropStale(st, sortKey);
            continue;
          }
          merged.set(sortKey, { sortKey, entry });
        }
        for (const b of st.lateAdds) {
          if (b.sortKey <= newBound && !st.removing.has(b.sortKey)) merged.set(b.sortKey, b);
        }
        st.buffer = [...merged.values()].sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
        st.bound = newBound;
      } catch (err) {
        this.#error = new RdfscoutError('RDFSCOUT_STORE_FAILED', `Could not read the frontier of ${st.pld}: ${(err as Error).message}`, { cause: err });
      } finally {
        st.refilling = false;
        st.lateAdds = [];
        for (const k of st.deferred) st.removing.delete(k);
        st.deferred = [];
      }
      if (this.#error === null) this.#maybeRefill(st);
    })();
    this.#refills.add(p);
    void p.finally(() => this.#refills.delete(p));
  }

  /** A queued key whose URL is done (an alias; already uncounted): delete it with the next transaction. */
  #dropStale(st: PldState, sortKey: string): void {
    st.removing.add(sortKey);
    this.#garbage.push({ st, sortKey });
  }

  #stageGarbage(txn: Txn): void {
    if (this.#garbage.length === 0) return;
    const garbage = this.#garbage;
    this.#garbage = [];
    for (const g of garbage) txn.del(this.#queue, queueKey(g.st.pld, g.sortKey));
    txn.onCommit(() => {
      for (const g of garbage) this.#finishRemoval(g.st, g.sortKey);
    });
  }

  #finishRemoval(st: PldState, sortKey: string): void {
    if (st.refilling) st.deferred.push(sortKey);
    else st.removing.delete(sortKey);
  }
}

function queueOfState(st: PldState): PldQueue {
  const head = st.buffer[0]?.entry;
  return {
    pld: st.pld,
    queued: st.queued,
    inFlight: st.inFlight,
    headPriority: head?.priority ?? Number.POSITIVE_INFINITY,
    headSeq: head?.seq ?? Number.POSITIVE_INFINITY,
  };
}
