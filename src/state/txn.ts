// **Txn** collects writes to several parts of the crawl state so that they become durable in one LevelDB batch.
import type { AbstractChainedBatch, AbstractSublevel } from 'abstract-level';
import type { ClassicLevel } from 'classic-level';
import { RdfscoutError } from '../errors.ts';

// biome-ignore lint/suspicious/noExplicitAny: sublevels of any key/value encoding may be written in one batch
export type AnySublevel = AbstractSublevel<any, any, any, any>;

type Batch = AbstractChainedBatch<ClassicLevel<string, string>, string, string>;

type Op =
  | { type: 'put'; sublevel: AnySublevel; key: string; value: unknown }
  | { type: 'del'; sublevel: AnySublevel; key: string };

/** Where a transaction goes when it commits (one per store: see GroupCommitter). */
export interface CommitSink {
  submit(txn: LevelTxn): Promise<void>;
}

/**
 * The transaction the crawl core sees, one per fetch: stores stage their writes into it, and `commit()` makes every
 * staged write durable, or none. A backend implements it together with its stores: `LevelTxn` for the LevelDB
 * state; a remote backend its own, whose commit also applies its remote writes. Crawl code only creates,
 * passes and commits transactions; what goes into one is each store's business.
 */
export interface Txn {
  /**
   * Runs `fn` just before the write, after every transaction committed before this one: for state saved as changes
   * since the previous save (the bandit's arms), whose writes must land in the order they were taken.
   */
  beforeWrite(fn: () => void): this;
  /** Runs `fn` after a successful commit (to update in-memory mirrors of what was written). */
  onCommit(fn: () => void): this;
  /** Writes staged so far. */
  readonly size: number;
  /** Makes every staged write durable, or none (RDFSCOUT_STORE_FAILED); then runs the `onCommit` callbacks. */
  commit(): Promise<void>;
}

/** The LevelDB transaction behind `txn`: what the stores on the LevelDB state stage their writes with. */
export function levelTxn(txn: Txn): LevelTxn {
  if (txn instanceof LevelTxn) return txn;
  throw new RdfscoutError('RDFSCOUT_INTERNAL', 'A LevelDB store was given a transaction of another backend: open the stores and the transaction from one crawl state.');
}

/**
 * A write transaction over the LevelDB crawl state. Stage writes with `put`/`del`, register in-memory updates
 * with `onCommit`, then `commit()` once: either every staged write is durable or none is (LevelDB batches are
 * atomic), and the `onCommit` callbacks run only after success. Transactions of one store are written one after
 * the other, in `commit()` order, several in one batch when they are ready together (GroupCommitter).
 */
export class LevelTxn implements Txn {
  #ops: Op[] = [];
  #beforeWrite: Array<() => void> = [];
  #afterCommit: Array<() => void> = [];
  #done = false;
  readonly #sink: CommitSink;

  constructor(sink: CommitSink) {
    this.#sink = sink;
  }

  put(sublevel: AnySublevel, key: string, value: unknown): this {
    this.#ops.push({ type: 'put', sublevel, key, value });
    return this;
  }

  del(sublevel: AnySublevel, key: string): this {
    this.#ops.push({ type: 'del', sublevel, key });
    return this;
  }


  /** As `Txn.beforeWrite`; `fn` may `put`/`del`. */
  beforeWrite(fn: () => void): this {
    this.#beforeWrite.push(fn);
    return this;
  }

  onCommit(fn: () => void): this {
    this.#afterCommit.push(fn);
    return this;
  }

  get size(): number {
    return this.#ops.length;
  }

  async commit(): Promise<void> {
    if (this.#done) throw new RdfscoutError('RDFSCOUT_INTERNAL', 'Txn already committed');
    this.#done = true;
    await this.#sink.submit(this);
  }

  /** GroupCommitter's side: the late writes, then the staged ones into `batch`. */
  stageInto(batch: Batch): void {
    for (const fn of this.#beforeWrite) fn();
    for (const op of this.#ops) {
      if (op.type === 'put') batch.put(op.key, op.value as string, { sublevel: op.sublevel });
      else batch.del(op.key, { sublevel: op.sublevel });
    }
  }

  /** GroupCommitter's side: the in-memory updates, once written. */
  committed(): void {
    for (const fn of this.#afterCommit) fn();
  }
}

/**
 * Writes the transactions of one store in commit order. While a batch is being written, transactions that
 * commit queue up and go together in the next batch: one LevelDB write for many
 * fetches when the crawl is fast (profiled: a write per fetch). A group is atomic as a whole; a
 * failure fails every transaction in it with RDFSCOUT_STORE_FAILED, and nothing of them is written.
 */
export class GroupCommitter implements CommitSink {
  readonly #db: ClassicLevel<string, string>;
  #queue: Array<{ txn: LevelTxn; resolve: () => void; reject: (err: unknown) => void }> = [];
  #writing = false;

  constructor(db: ClassicLevel<string, string>) {
    this.#db = db;
  }

  submit(txn: LevelTxn): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.#queue.push({ txn, resolve, reject }));
    if (!this.#writing) void this.#drain();
    return done;
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queue.length > 0) {
        const group = this.#queue.splice(0);
        try {
          await this.#write(group.map((g) => g.txn));
        } catch (err) {
          const failure = new RdfscoutError('RDFSCOUT_STORE_FAILED', `Could not write to the crawl store: ${(err as Error).message}`, { cause: err });
          for (const g of group) g.reject(failure);
          continue;
        }
        for (const g of group) {
          g.txn.committed();
          g.resolve();
        }
      }
    } finally {
      this.#writing = false;
    }
  }

  async #write(txns: readonly LevelTxn[]): Promise<void> {
    const batch = this.#db.batch();
    for (const t of txns) t.stageInto(batch);
    if (batch.length > 0) await batch.write();
    else await batch.close();
  }
}
