// **repairUnionIterator**: asynciterator's UnionIterator reads on when one of its sources ends in the middle of its read.
import { createRequire } from 'node:module';
import * as asynciterator from 'asynciterator';

/** What the repair touches of a UnionIterator (asynciterator 3.10: private and protected members). */
interface UnionInternals {
  _reading: boolean;
  readonly closed: boolean;
  _read(count: number, done: () => void): void;
  _removeEmptySources(): void;
  _fillBufferAsync(): void;
}

const REPAIRED = Symbol.for('rdfscout.unionIteratorRepaired');

/**
 * asynciterator's `UnionIterator._read` reads its sources in turn. A source may end synchronously when read
 * (asyncjoin's HashJoin does, from `read()`, when its left side was empty); the union then drops it from its list
 * in the middle of the loop, the loop stops before the sources after it, and the refill the union asks for is
 * refused because it is still reading. With nothing pushed, nobody reads the union again: its other sources are
 * never read, and the query waits until its time limit (a UNION whose first branch is a hash join with an empty
 * side: `FROM NAMED <a> FROM NAMED <b> … { GRAPH ?g { p1 . p2 } } UNION { p3 }`). Here a union that lost a source
 * while reading schedules one more read once that read is done. asynciterator 3.10.0 is the latest release.
 *
 * Comunica loads asynciterator's CommonJS build and rdfscout its ES module build: two copies of the class, both
 * repaired. Idempotent.
 */
export function repairUnionIterator(): void {
  const commonJs = createRequire(import.meta.url)('asynciterator') as typeof asynciterator;
  for (const module of new Set([commonJs, asynciterator])) {
    const proto = module.UnionIterator.prototype as unknown as UnionInternals & { [REPAIRED]?: true };
    if (proto[REPAIRED]) continue;
    proto[REPAIRED] = true;
    const read = proto._read;
    const removeEmptySources = proto._removeEmptySources;
    const lostWhileReading = new WeakSet<UnionInternals>();
    proto._removeEmptySources = function (this: UnionInternals): void {
      if (this._reading) lostWhileReading.add(this);
      removeEmptySources.call(this);
    };
    proto._read = function (this: UnionInternals, count: number, done: () => void): void {
      read.call(this, count, () => {
        done();
        if (lostWhileReading.delete(this) && !this.closed) this._fillBufferAsync();
      });
    };
  }
}
