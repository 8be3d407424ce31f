// SeenTriples: exact while small, then a Bloom filter that never forgets a triple (no false "no") and stays its size.
import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { SeenTriples } from '../../src/sparql/seen-triples.ts';

const df = new DataFactory();
const G = df.namedNode('http://ex.org/doc');
const triple = (i: number) => df.quad(df.namedNode(`http://ex.org/s${i % 97}`), df.namedNode(`http://ex.org/p${i % 7}`), df.literal(`v${i}`, 'en'), G);

describe('SeenTriples', () => {
  it('answers exactly while it holds few triples, whatever the graph', () => {
    const seen = new SeenTriples({ exact: 100 });
    for (let i = 0; i < 100; i++) seen.add(triple(i));
    for (let i = 0; i < 100; i++) expect(seen.has(triple(i))).toBe('yes');
    const other = triple(5);
    expect(seen.has(df.quad(other.subject, other.predicate, other.object, df.namedNode('http://ex.org/another')))).toBe('yes');
    expect(seen.has(triple(100))).toBe('no');
    expect(seen.has(df.quad(other.subject, other.predicate, df.literal('v5'), G))).toBe('no'); // no language: another term
  });

  it('past its exact limit, says maybe for every triple added (no false no) and no for most others', () => {
    const seen = new SeenTriples({ exact: 10, bits: 2 ** 16 });
    for (let i = 0; i < 2000; i++) seen.add(triple(i));
    for (let i = 0; i < 2000; i++) expect(seen.has(triple(i))).toBe('maybe');
    let falsePositives = 0;
    for (let i = 2000; i < 12_000; i++) if (seen.has(triple(i)) !== 'no') falsePositives++;
    // 32 bits a triple, four hashes: ~0.1% expected.
    expect(falsePositives).toBeLessThan(100);
  });

  it('degrades to maybe, never to a wrong no, when the filter is far too small', () => {
    const seen = new SeenTriples({ exact: 0, bits: 64 });
    for (let i = 0; i < 500; i++) seen.add(triple(i));
    for (let i = 0; i < 500; i++) expect(seen.has(triple(i))).toBe('maybe');
  });

  it('refuses a filter size that is not a power of two', () => {
    expect(() => new SeenTriples({ bits: 1000 })).toThrow(/power of two/);
  });
});
