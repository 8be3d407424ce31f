// **QueueHeads** keeps the head of each PLD's on-disk queue in memory (LevelFrontier's buffers), refilled by range reads.
import { RdfscoutError } from '../errors.ts';
import { type AnySublevel, type Txn, levelTxn } from '../state/txn.ts';
import { pldRange, queueKey, SORT_KEY_MAX } from './queue-keys.ts';
import { decodeQueued } from './queued-value.ts';
import type { FrontierEntry, PldQueue } from './types.ts';

export interface Buffered {
  sortKey: string;
  entry: FrontierEntry;
}

/** One PLD's queue in memory: counters and the head of its on-disk queue. */
export interface PldState {
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

export interface QueueHeadsOptions {
  /** The queue sublevel (`q!<pld>!<sort key>` → entry). */
  queue: AnySublevel;
  /** Most entries held at the head of one PLD's queue (up to twice that between trims). */
  headSize: number;
  /** Most entries held in all head buffers together; with many PLDs each buffer shrinks (to 2 at least). */
  maxBuffered: number;
  /** Whether a URL is done (its queued keys are stale). */
  isDone(url: string): boolean;
  /** Whether a URL is in flight (a refill must not hand it out again). */
  isInFlight(url: string): boolean;
}

/**
 * Per PLD: its counters and a sorted head buffer of at most `headSize` entries, exactly the live queued entries up
 * to its bound, refilled asynchronously by a range read when it runs low (so a hand-out costs the same at 10k or
 * 1M queued URLs). Stale keys (done as aliases) are collected and deleted with the next transaction.
 */
export class QueueHeads {
  readonly #o: QueueHeadsOptions;
  readonly #plds = new Map<string, PldState>();
  readonly #refills = new Set<Promise<void>>();
  #garbage: Array<{ st: PldState; sortKey: string }> = [];
  #error: unknown = null;

  constructor(o: QueueHeadsOptions) {
    this.#o = o;
  }

  get(pld: string): PldState | undefined {
    return this.#plds.get(pld);
  }

  values(): IterableIterator<PldState> {
    return this.#plds.values();
  }

  /** A PLD's state, created with `bound` when new. */
  of(pld: string, bound: string): PldState {
    let st = this.#plds.get(pld);
    if (st === undefined) {
      st = { pld, queued: 0, inFlight: 0, buffer: [], bound, refilling: false, lateAdds: [], removing: new Set(), deferred: [] };
      this.#plds.set(pld, st);
    }
    return st;
  }

  /** The read error that stopped the frontier, thrown by the next hand-out. */
  throwIfFailed(): void {
    if (this.#error !== null) throw this.#error;
  }

  get loading(): boolean {
    return this.#refills.size > 0;
  }

  async settled(): Promise<void> {
    while (this.#refills.size > 0) await Promise.all(this.#refills);
    this.throwIfFailed();
  }

  /** Entries per head buffer: `headSize`, less when many PLDs share `maxBuffered`. */
  #target(): number {
    return Math.max(2, Math.min(this.#o.headSize, Math.floor(this.#o.maxBuffered / Math.max(1, this.#plds.size))));
  }

  /** Puts a committed queued entry into the head buffer when it falls inside it. */
  insert(st: PldState, b: Buffered): void {
    if (b.sortKey > st.bound) {
      if (st.refilling) st.lateAdds.push(b);
      else this.maybeRefill(st);
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

  maybeRefill(st: PldState): void {
    if (!st.refilling && st.queued > st.buffer.length && st.buffer.length <= this.#target() >> 1) this.refill(st);
  }

  /** Reads the next keys after the buffer's bound into the buffer (asynchronously; see `settled`). */
  refill(st: PldState): void {
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
        const rows = (await this.#o.queue.iterator(opts).all()) as Array<[string, unknown]>;
        if (st.bound !== startBound) return; // trimmed meanwhile: the buffer is full, what was read stays on disk
        const newBound = rows.length < want ? SORT_KEY_MAX : (rows[rows.length - 1] as [string, unknown])[0].slice(-33);
        const merged = new Map<string, Buffered>();
        for (const b of st.buffer) merged.set(b.sortKey, b);
        for (const [key, value] of rows) {
          const sortKey = key.slice(-33);
          const entry = decodeQueued(key, value);
          if (merged.has(sortKey) || st.removing.has(sortKey) || this.#o.isInFlight(entry.url)) continue;
          if (this.#o.isDone(entry.url)) {
            this.dropStale(st, sortKey);
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
      if (this.#error === null) this.maybeRefill(st);
    })();
    this.#refills.add(p);
    void p.finally(() => this.#refills.delete(p));
  }

  /** A queued key whose URL is done (an alias; already uncounted): delete it with the next transaction. */
  dropStale(st: PldState, sortKey: string): void {
    st.removing.add(sortKey);
    this.#garbage.push({ st, sortKey });
  }

  /** Stages the deletion of the stale keys collected so far in `txn`. */
  stageGarbage(txn: Txn): void {
    if (this.#garbage.length === 0) return;
    const garbage = this.#garbage;
    this.#garbage = [];
    for (const g of garbage) levelTxn(txn).del(this.#o.queue, queueKey(g.st.pld, g.sortKey));
    txn.onCommit(() => {
      for (const g of garbage) this.finishRemoval(g.st, g.sortKey);
    });
  }

  /** A staged deletion is committed: the key may be read again (after the refill under way, if any). */
  finishRemoval(st: PldState, sortKey: string): void {
    if (st.refilling) st.deferred.push(sortKey);
    else st.removing.delete(sortKey);
  }
}

/** The scheduler's view of a PLD's queue. */
export function queueOfState(st: PldState): PldQueue {
  const head = st.buffer[0]?.entry;
  return {
    pld: st.pld,
    queued: st.queued,
    inFlight: st.inFlight,
    headPriority: head?.priority ?? Number.POSITIVE_INFINITY,
    headSeq: head?.seq ?? Number.POSITIVE_INFINITY,
  };
}
