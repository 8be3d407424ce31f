import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { type TermName, termsKey, unionDedupe } from '../../src/sparql/union-dedupe.ts';

const df = new DataFactory();
const n = (v: string) => df.namedNode(`http://ex.org/${v}`);
const q = (s: string, p: string, o: string, g: string) => df.quad(n(s), n(p), o.startsWith('"') ? df.literal(o.slice(1)) : n(o), n(g));
const spo = (x: { subject: { value: string }; predicate: { value: string }; object: { value: string } }) => `${x.subject.value} ${x.predicate.value} ${x.object.value}`.replaceAll('http://ex.org/', '');

describe('unionDedupe', () => {
  it('keeps one quad per triple when the graph comes last (SPOG order): duplicates are adjacent', () => {
    const order: TermName[] = ['subject', 'predicate', 'object', 'graph'];
    const input = [q('a', 'type', 'C', 'd1'), q('a', 'type', 'C', 'd2'), q('a', 'type', 'C', 'd3'), q('a', 'type', 'C', 'd4'), q('a', 'type', 'D', 'd1'), q('b', 'type', 'C', 'd2')];
    expect(input.filter(unionDedupe(order)).map(spo)).toEqual(['a type C', 'a type D', 'b type C']);
  });

  it('keeps one quad per triple when the graph sits inside the order (POGS: runs per object)', () => {
    const order: TermName[] = ['predicate', 'object', 'graph', 'subject'];
    // index order: p, o, then g, then s: the same (s, p, o) recurs across graphs within one (p, o) run
    const input = [q('a', 'type', 'C', 'd1'), q('b', 'type', 'C', 'd1'), q('a', 'type', 'C', 'd2'), q('c', 'type', 'C', 'd2'), q('a', 'type', 'D', 'd1'), q('a', 'type', 'D', 'd3')];
    expect(input.filter(unionDedupe(order)).map(spo)).toEqual(['a type C', 'b type C', 'c type C', 'a type D']);
  });

  it('never merges different terms: literal vs IRI, language, datatype', () => {
    const order: TermName[] = ['subject', 'predicate', 'object', 'graph'];
    const s = n('s');
    const p = n('p');
    const input = [
      df.quad(s, p, df.literal('x'), n('g1')),
      df.quad(s, p, df.literal('x', 'en'), n('g1')),
      df.quad(s, p, df.literal('x', 'en'), n('g2')), // the one duplicate (index order: adjacent)
      df.quad(s, p, df.literal('x', n('dt')), n('g1')),
      df.quad(s, p, df.namedNode('x'), n('g1')),
    ];
    expect(input.filter(unionDedupe(order))).toHaveLength(4);
    expect(termsKey([df.literal('a'), df.literal('b')])).not.toBe(termsKey([df.literal('ab')]));
  });
});
