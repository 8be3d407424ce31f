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

/** An iterator that ends the moment it is read, as asyncjoin's HashJoin does (from read()) when its left side is empty. */
function endsWhenRead<T>(Base: typeof ArrayIterator): ArrayIterator<T> {
  const it = new Base<T>([], { autoStart: false });
  it.read = function (this: ArrayIterator<T>): T | null {
    (this as unknown as { _end(): void })._end();
    return null;
  };
  return it;
}

it('reads on after a source ends inside its read (the CommonJS build, which Comunica loads)', async () => {
  repairUnionIterator();
  const cjs = require('asynciterator') as typeof import('asynciterator');
  const union = new cjs.UnionIterator<string>([endsWhenRead<string>(cjs.ArrayIterator), new cjs.ArrayIterator(['from the other branch'], { autoStart: false })], { autoStart: false });
  expect(await drain(union)).toEqual(['from the other branch']);
});

it('reads on after a source ends inside its read (the module build)', async () => {
  repairUnionIterator();
  repairUnionIterator(); // idempotent: a second call wraps nothing twice
  const union = new UnionIterator<string>([endsWhenRead<string>(ArrayIterator), new ArrayIterator(['a', 'b'], { autoStart: false })], { autoStart: false });
  expect(await drain(union)).toEqual(['a', 'b']);
});
