// **Txn** collects writes to several parts of the crawl state so that they become durable in one LevelDB batch.
import type { Quad } from '@rdfjs/types';
import type { AbstractChainedBatch, AbstractSublevel } from 'abstract-level';
import type { ClassicLevel } from 'classic-level';
import type { Quadstore } from 'quadstore';
import { RdfscoutError } from '../errors.ts';

// biome-ignore lint/suspicious/noExplicitAny: sublevels of any key/value encoding may be written in one batch
export type AnySublevel = AbstractSublevel<any, any, any, any>;

type Batch = AbstractChainedBatch<ClassicLevel<string, string>, string, string>;

type Op =
  | { type: 'put'; sublevel: AnySublevel; key: string; value: unknown }
  | { type: 'del'; sublevel: AnySublevel; key: string };

/**
 * A write transaction over the crawl state. Stage writes with `put`/`del`/`putQuads`, register in-memory updates
 * with `onCommit`, then `commit()` once: either every staged write is durable or none is (LevelDB batches are
 * atomic), and the `onCommit` callbacks run only after success.
 */
export class Txn {
  #ops: Op[] = [];
  #quads: Quad[] = [];
  #afterCommit: Array<() => void> = [];
  #done = false;
  readonly #db: ClassicLevel<string, string>;
  readonly #quadstore: Quadstore;

  constructor(db: ClassicLevel<string, string>, quadstore: Quadstore) {
    this.#db = db;
    this.#quadstore = quadstore;
  }

  put(sublevel: AnySublevel, key: string, value: unknown): this {
    this.#ops.push({ type: 'put', sublevel, key, value });
    return this;
  }

  del(sublevel: AnySublevel, key: string): this {
    this.#ops.push({ type: 'del', sublevel, key });
    return this;
  }

  /** Stages quads for the quadstore (graph terms must already be set). */
  putQuads(quads: readonly Quad[]): this {
    for (const q of quads) this.#quads.push(q);
    return this;
  }

  /** Runs `fn` after a successful commit (to update in-memory mirrors of what was written). */
  onCommit(fn: () => void): this {
    this.#afterCommit.push(fn);
    return this;
  }

  get size(): number {
    return this.#ops.length + this.#quads.length;
  }

  async commit(): Promise<void> {
    if (this.#done) throw new Error('Txn already committed');
    this.#done = true;
    const stage = (batch: Batch): void => {
      for (const op of this.#ops) {
        if (op.type === 'put') batch.put(op.key, op.value as string, { sublevel: op.sublevel });
        else batch.del(op.key, { sublevel: op.sublevel });
      }
    };
    try {
      if (this.#quads.length > 0) {
        // quadstore writes its index entries and lets us add ours to the same batch (preWrite).
        await this.#quadstore.multiPut(this.#quads, {
          preWrite: async (batch) => stage(batch as unknown as Batch),
        });
      } else if (this.#ops.length > 0) {
        const batch = this.#db.batch();
        stage(batch);
        await batch.write();
      }
    } catch (err) {
      throw new RdfscoutError('RDFSCOUT_STORE_FAILED', `Could not write to the crawl store: ${(err as Error).message}`, { cause: err });
    }
    for (const fn of this.#afterCommit) fn();
  }
}
