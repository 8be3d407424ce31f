// **SharedMirror**: a worker's copy of the shared queue's counters and PLD views, plus the changes it expects from writes under way.
import type { QueueAnswer, QueueStat, QueueView } from './redis/shared-queue.ts';
import type { PldQueue } from '../frontier/types.ts';

/** A change a write will make, counted before Redis answers (so the sync calls see a committed write at once). */
export interface ExpectedChange {
  pld: string;
  queued?: number;
  inFlight?: number;
  done?: number;
  /** Queued entries waiting for a back-off (part of `queued`: a retry), and when the back-off ends (epoch ms). */
  waiting?: number;
  waitingUntil?: number;
}

interface Sums {
  queued: number;
  inFlight: number;
  done: number;
  waiting: number;
}

/**
 * What the sync calls of RedisFrontier read. Each Redis answer carries the shared counters and the views of the
 * PLDs it changed, taken atomically after the script; answers on one connection come in order, so the newest
 * answer includes every write sent before it, and the expected changes of the writes still under way are added
 * on top (kept as sums per PLD: every read is O(1)). Other workers' writes arrive with `QUEUE_CHANGES_LUA`'s
 * answers: the PLDs changed since the version the mirror last read (`ver`).
 */
export class SharedMirror {
  stat: QueueStat = { queued: 0, inFlight: 0, done: 0, spent: 0, refetched: 0 };
  /** The change-feed version the views are of (-1: none read yet; the first read is of every PLD). */
  ver = -1;
  readonly #views = new Map<string, QueueView>();
  readonly #expected = new Map<number, ExpectedChange[]>();
  /** Sums of the expected changes, per PLD and in total. */
  readonly #pending = new Map<string, Sums>();
  readonly #total: Sums = { queued: 0, inFlight: 0, done: 0, waiting: 0 };
  readonly #changed = new Set<string>();
  #nextId = 0;

  /** Registers a write's expected changes; returns the id its answer confirms. */
  expect(changes: readonly ExpectedChange[]): number {
    const id = ++this.#nextId;
    this.#expected.set(id, [...changes]);
    this.#addPending(changes, 1);
    for (const c of changes) this.#changed.add(c.pld);
    return id;
  }

  /** Forgets a write that failed. */
  forget(id: number): void {
    const changes = this.#expected.get(id);
    if (changes === undefined) return;
    this.#expected.delete(id);
    this.#addPending(changes, -1);
  }

  /** Applies an answer (dropping the expected changes of the write it `confirms`). */
  apply(a: QueueAnswer, confirms?: number): void {
    if (confirms !== undefined) this.forget(confirms);
    this.stat = a.stat;
    for (const v of a.views) {
      const before = this.#views.get(v.pld);
      if (before === undefined || before.queued !== v.queued || before.inFlight !== v.inFlight || before.waiting !== v.waiting) this.#changed.add(v.pld);
      if (v.queued + v.inFlight > 0) this.#views.set(v.pld, v);
      else this.#views.delete(v.pld);
    }
  }

  /** The view of `pld` with the expected changes added (null when it has no work). */
  view(pld: string): QueueView | null {
    const base = this.#views.get(pld);
    const p = this.#pending.get(pld);
    const queued = (base?.queued ?? 0) + (p?.queued ?? 0);
    const inFlight = (base?.inFlight ?? 0) + (p?.inFlight ?? 0);
    if (queued + inFlight <= 0) return null;
    if (p === undefined && base !== undefined) return base;
    return {
      pld,
      queued,
      inFlight,
      headPriority: base?.headPriority ?? 0,
      headSeq: base?.headSeq ?? 0,
      backoffUntil: p !== undefined && p.waiting > 0 ? this.#waitingUntil(pld, base?.backoffUntil ?? null) : (base?.backoffUntil ?? null),
      waiting: (base?.waiting ?? 0) + (p?.waiting ?? 0),
    };
  }

  /** The earliest back-off end of `pld`: Redis's, or an expected retry's (rare: a scan of the writes under way). */
  #waitingUntil(pld: string, base: number | null): number | null {
    let until = base;
    for (const changes of this.#expected.values()) {
      for (const c of changes) {
        if (c.pld === pld && c.waitingUntil !== undefined && (until === null || c.waitingUntil < until)) until = c.waitingUntil;
      }
    }
    return until;
  }

  queueOf(pld: string): PldQueue | null {
    const v = this.view(pld);
    if (v === null) return null;
    return { pld, queued: v.queued, inFlight: v.inFlight, headPriority: v.queued > 0 ? v.headPriority : Number.POSITIVE_INFINITY, headSeq: v.queued > 0 ? v.headSeq : Number.POSITIVE_INFINITY };
  }

  /** PLDs with work, known or expected. */
  plds(): string[] {
    const all = new Set(this.#views.keys());
    for (const pld of this.#pending.keys()) all.add(pld);
    return [...all];
  }

  queues(): PldQueue[] {
    return this.plds().flatMap((pld) => this.queueOf(pld) ?? []);
  }

  size(): { queued: number; inFlight: number; done: number } {
    const { queued, inFlight, done } = this.stat;
    return { queued: queued + this.#total.queued, inFlight: inFlight + this.#total.inFlight, done: done + this.#total.done };
  }

  /** PLDs whose view changed since the last call. */
  drainChanged(): string[] {
    const out = [...this.#changed];
    this.#changed.clear();
    return out;
  }

  #addPending(changes: readonly ExpectedChange[], sign: 1 | -1): void {
    for (const c of changes) {
      const p = this.#pending.get(c.pld) ?? { queued: 0, inFlight: 0, done: 0, waiting: 0 };
      for (const k of ['queued', 'inFlight', 'done', 'waiting'] as const) {
        p[k] += sign * (c[k] ?? 0);
        this.#total[k] += sign * (c[k] ?? 0);
      }
      if (p.queued === 0 && p.inFlight === 0 && p.done === 0 && p.waiting === 0) this.#pending.delete(c.pld);
      else this.#pending.set(c.pld, p);
    }
  }
}
