// **SharedMirror**: a worker's copy of the shared queue's counters and PLD views, plus the changes it expects from writes under way.
import type { QueueAnswer, QueueStat, QueueView } from '../redis/shared-queue.ts';
import type { PldQueue } from './types.ts';

/** A change a write will make, counted before Redis answers (so the sync calls see a committed write at once). */
export interface ExpectedChange {
  pld: string;
  queued?: number;
  inFlight?: number;
  done?: number;
}

/**
 * What the sync calls of RedisFrontier read. Each Redis answer carries the shared counters and the views of the
 * PLDs it touched, taken atomically after the script; answers on one connection come in order, so the newest
 * answer includes every write sent before it, and the expected changes of the writes still under way are added
 * on top. With other workers writing too, the mirror is as fresh as the last answer (a refresh every ~500 ms).
 */
export class SharedMirror {
  stat: QueueStat = { queued: 0, inFlight: 0, done: 0, spent: 0, refetched: 0 };
  readonly #views = new Map<string, QueueView>();
  readonly #expected = new Map<number, ExpectedChange[]>();
  readonly #changed = new Set<string>();
  #nextId = 0;

  /** Registers a write's expected changes; returns the id its answer confirms. */
  expect(changes: readonly ExpectedChange[]): number {
    const id = ++this.#nextId;
    this.#expected.set(id, [...changes]);
    for (const c of changes) this.#changed.add(c.pld);
    return id;
  }

  /** Forgets a write that failed. */
  forget(id: number): void {
    this.#expected.delete(id);
  }

  /** Applies an answer (`full`: its views are every PLD with work, the others have none). */
  apply(a: QueueAnswer, confirms?: number, full = false): void {
    if (confirms !== undefined) this.#expected.delete(confirms);
    this.stat = a.stat;
    if (full) {
      const now = new Set(a.views.map((v) => v.pld));
      for (const pld of this.#views.keys()) {
        if (!now.has(pld)) {
          this.#views.delete(pld);
          this.#changed.add(pld);
        }
      }
    }
    for (const v of a.views) {
      const before = this.#views.get(v.pld);
      if (before === undefined || before.queued !== v.queued || before.inFlight !== v.inFlight) this.#changed.add(v.pld);
      if (v.queued + v.inFlight > 0) this.#views.set(v.pld, v);
      else this.#views.delete(v.pld);
    }
  }

  /** The view of `pld` with the expected changes added (null when it has no work). */
  view(pld: string): QueueView | null {
    const base = this.#views.get(pld);
    let queued = base?.queued ?? 0;
    let inFlight = base?.inFlight ?? 0;
    for (const changes of this.#expected.values()) {
      for (const c of changes) {
        if (c.pld !== pld) continue;
        queued += c.queued ?? 0;
        inFlight += c.inFlight ?? 0;
      }
    }
    if (queued + inFlight <= 0) return null;
    return {
      pld,
      queued,
      inFlight,
      headPriority: base?.headPriority ?? 0,
      headSeq: base?.headSeq ?? 0,
      backoffUntil: base?.backoffUntil ?? null,
      waiting: base?.waiting ?? 0,
    };
  }

  queueOf(pld: string): PldQueue | null {
    const v = this.view(pld);
    if (v === null) return null;
    return { pld, queued: v.queued, inFlight: v.inFlight, headPriority: v.queued > 0 ? v.headPriority : Number.POSITIVE_INFINITY, headSeq: v.queued > 0 ? v.headSeq : Number.POSITIVE_INFINITY };
  }

  /** PLDs with work, known or expected. */
  plds(): string[] {
    const all = new Set(this.#views.keys());
    for (const changes of this.#expected.values()) for (const c of changes) all.add(c.pld);
    return [...all];
  }

  queues(): PldQueue[] {
    return this.plds().flatMap((pld) => this.queueOf(pld) ?? []);
  }

  size(): { queued: number; inFlight: number; done: number } {
    let { queued, inFlight, done } = this.stat;
    for (const changes of this.#expected.values()) {
      for (const c of changes) {
        queued += c.queued ?? 0;
        inFlight += c.inFlight ?? 0;
        done += c.done ?? 0;
      }
    }
    return { queued, inFlight, done };
  }

  /** PLDs whose view changed since the last call. */
  drainChanged(): string[] {
    const out = [...this.#changed];
    this.#changed.clear();
    return out;
  }
}
