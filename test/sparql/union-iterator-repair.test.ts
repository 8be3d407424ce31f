// A UnionIterator whose first source ends while the union reads it still reads its other sources to the end.
import { createRequire } from 'node:module';
import { ArrayIterator, UnionIterator } from 'asynciterator';
import { expect, it } from 'vitest';
import { repairUnionIterator } from '../../src/sparql/union-iterator-repair.ts';

const require = createRequire(import.meta.url);

/** The items of `it` once it ends; rejects after `ms` (a stalled union never ends). */
function drain<T>(it: { on(event: string, fn: (x: T) => void): unknown }, ms = 2_000): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const items: T[] = [];
    const timer = setTimeout(() => reject(new Error(`the union did not end within ${ms} ms (items so far: ${JSON.stringify(items)})`)), ms);
    it.on('data', (x) => items.push(x));
    it.on('end', () => {
      clearTimeout(timer);
      resolve(items);
    });
  });
}

it('reads on after a hash join with an empty side ends inside its read (the copy Comunica loads)', async () => {
  repairUnionIterator();
  // Comunica's own classes, from the CommonJS build: asyncjoin's HashJoin ends from read() when its left side is empty.
  const cjs = require('asynciterator') as typeof import('asynciterator');
  const HashJoin = require('asyncjoin/join/HashJoin') as new (left: unknown, right: unknown, hash: (x: unknown) => string, join: (a: unknown, b: unknown) => unknown) => never;
  const join = new HashJoin(new cjs.ArrayIterator([], { autoStart: false }), new cjs.ArrayIterator([1], { autoStart: false }), String, (a) => a);
  const union = new cjs.UnionIterator<string>([join, new cjs.ArrayIterator(['from the other branch'], { autoStart: false })], { autoStart: false });
  expect(await drain(union)).toEqual(['from the other branch']);
});

it('reads on after a source ends inside its read (the module build)', async () => {
  repairUnionIterator();
  repairUnionIterator(); // idempotent: a second call wraps nothing twice
  /** Ends the moment it is read, as a source may. */
  class EndsWhenRead extends ArrayIterator<string> {
    override read(): string | null {
      (this as unknown as { _end(): void })._end();
      return null;
    }
  }
  const union = new UnionIterator<string>([new EndsWhenRead([], { autoStart: false }), new ArrayIterator(['a', 'b'], { autoStart: false })], { autoStart: false });
  expect(await drain(union)).toEqual(['a', 'b']);
});
