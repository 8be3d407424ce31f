// FingerprintSet: the lines a document has stated, as 64-bit fingerprints in a growing typed array.
import { describe, expect, it } from 'vitest';
import { FingerprintSet } from '../../src/rdf/fingerprint-set.ts';

describe('FingerprintSet', () => {
  it('adds each distinct line once, across many growths of its table', () => {
    const set = new FingerprintSet();
    const line = (i: number) => `<http://ex.example/s${i}> <http://ex.example/p> "${i}" .\n`;
    // Counted in plain code and asserted once: 57,000 `expect` calls took seconds.
    let added = 0;
    for (let i = 0; i < 50_000; i++) if (set.add(line(i))) added++;
    expect(added).toBe(50_000);
    expect(set.size).toBe(50_000);
    let again = 0;
    for (let i = 0; i < 50_000; i += 7) if (set.add(line(i))) again++;
    expect(again).toBe(0);
    expect(set.size).toBe(50_000);
  });

  it('tells lines apart that differ in one character, and the empty line from none', () => {
    const set = new FingerprintSet();
    expect(set.add('')).toBe(true);
    expect(set.add('')).toBe(false);
    expect(set.add('"a"')).toBe(true);
    expect(set.add('"b"')).toBe(true);
    expect(set.size).toBe(3);
  });

  it('finds no false duplicate among 400,000 lines that differ in a few digits (64-bit fingerprints, not 32)', () => {
    const set = new FingerprintSet();
    let fresh = 0;
    for (let i = 0; i < 400_000; i++) if (set.add(`<http://bench.example/person/${i % 20_000}> <http://xmlns.com/foaf/0.1/knows> <http://bench.example/person/${Math.floor(i / 20_000)}> .\n`)) fresh++;
    expect(fresh).toBe(400_000);
  });

  it('clear forgets every line', () => {
    const set = new FingerprintSet();
    set.add('x');
    set.clear();
    expect(set.size).toBe(0);
    expect(set.add('x')).toBe(true);
  });
});
