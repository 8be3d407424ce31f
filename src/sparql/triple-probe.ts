// **TripleProbe** asks one shard whether it holds a triple, by moving one LevelDB iterator over its SPOG index.
import type { Quad } from '@rdfjs/types';
import { quadReader, writePattern } from 'quadstore/dist/serialization/index.js';
import type { CrawlState } from '../state/open-state.ts';

/** The calls made on a LevelDB key iterator (classic-level's). */
interface KeyIterator {
  seek(target: string): void;
  nextv(size: number): Promise<string[]>;
  close(): Promise<void>;
}

/** Quadstore's upper bound of a key range (quadstore/dist/utils/constants.js `boundary`). */
const BOUNDARY = '\uDBFF\uDFFF';
/** Keys read per step: a triple is stated by a few documents at most, as a rule. */
const STEP = 8;

/**
 * Membership of triples in one shard's SPOG index in O(1) memory: one key iterator, opened on first use and kept
 * for the whole query, is sought (`seek`) to each triple's key prefix, written with this shard's own namespace ids
 * (namespace-prefixes.ts). Shards give namespaces ids in the order they meet them, so their index orders differ and
 * the same triple sits at unrelated places: a merge of the shards' sorted streams cannot pair their copies. A seek
 * costs one read of the native iterator (~30 µs of CPU, measured on 250k quads), which is why the merge asks only
 * about possible repeats (seen-triples.ts).
 */
export class TripleProbe {
  readonly #state: CrawlState;
  readonly #index: { terms: Array<'subject' | 'predicate' | 'object' | 'graph'>; prefix: string };
  #keys: KeyIterator | null = null;

  constructor(state: CrawlState) {
    this.#state = state;
    const spog = state.quadstore.indexes.find((i) => i.terms.join() === 'subject,predicate,object,graph');
    if (spog === undefined) throw new Error('The store has no SPOG index (covering-quadstore.ts INDEXES).');
    this.#index = spog;
  }

  /** Whether the shard holds `q`'s triple in a graph `accept` takes (it sees each stored quad of the triple). */
  async holds(q: Quad, accept: (stored: Quad) => boolean): Promise<boolean> {
    const store = this.#state.quadstore;
    const range = writePattern({ subject: q.subject, predicate: q.predicate, object: q.object }, this.#index, store.prefixes);
    if (range === null) return false;
    if (this.#keys === null) {
      const db = store.db as unknown as { keys(opts: object): KeyIterator };
      this.#keys = db.keys({ gte: this.#index.prefix, lt: this.#index.prefix + BOUNDARY, keyEncoding: 'utf8' });
    }
    const keys = this.#keys;
    keys.seek(range.gt);
    for (;;) {
      const batch = await keys.nextv(STEP);
      for (const key of batch) {
        if (range.lte ? key > range.lt : key >= range.lt) return false;
        const stored = quadReader.read(key, this.#index.prefix.length, this.#index.terms, this.#state.dataFactory, store.prefixes);
        // The key orders values only (the term types are in its tail): a literal and an IRI of one spelling share a prefix.
        if (stored.subject.equals(q.subject) && stored.predicate.equals(q.predicate) && stored.object.equals(q.object) && accept(stored)) return true;
      }
      if (batch.length < STEP) return false;
    }
  }

  /** Closes the iterator (an open one pins a LevelDB version). Idempotent. */
  async close(): Promise<void> {
    const keys = this.#keys;
    this.#keys = null;
    await keys?.close();
  }
}
