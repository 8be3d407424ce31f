// Only valid RDF terms reach the store: RDFa 1.1's readings of lang="" and "_:" resources, repairs, drops, counts.
import type { Literal, Quad } from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/rdf/index.ts';
import { RecoveryLog } from '../../src/rdf/recovery-log.ts';
import { BlankNodeRelabeller } from '../../src/rdf/run-parser.ts';
import { TermGuard } from '../../src/rdf/term-guard.ts';
import { fixture } from './helpers.ts';

const f = new DataFactory();
const PAGE = 'http://example.org/rdfa-lang.html';
const LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const ex = (s: string) => f.namedNode(`http://example.org/${s}`);

function guarded(quads: Quad[], strict = false): { out: Quad[]; log: RecoveryLog; guard: TermGuard } {
  const out: Quad[] = [];
  const log = new RecoveryLog();
  const guard = new TermGuard({ add: (q) => out.push(q) }, 'http://example.org/dir/doc', new BlankNodeRelabeller('p_'), log, strict);
  for (const q of quads) guard.add(q);
  return { out, log, guard };
}

describe('RDFa pages (rdfa-streaming-parser, then the guard)', () => {
  it('lang="" and xml:lang="" give plain literals, never a langString without a language', async () => {
    const doc = await parseDocument(fixture('malformed/rdfa-lang.html'), { kind: 'html' }, PAGE);
    const literal = (p: string) => doc.quads.find((q) => q.predicate.value === `http://schema.org/${p}`)?.object as Literal;
    expect(literal('encodingFormat')).toMatchObject({ value: 'text/html', language: '', datatype: { value: XSD_STRING } });
    expect(literal('name')).toMatchObject({ value: 'A plain name', language: '', datatype: { value: XSD_STRING } });
    for (const q of doc.quads) {
      if (q.object.termType === 'Literal') expect(q.object.datatype.value === LANG_STRING && q.object.language === '').toBe(false);
    }
  });

  it('a "_:" href or resource is a blank node (RDFa 1.1), the same node as its about="_:…"', async () => {
    const doc = await parseDocument(fixture('malformed/rdfa-lang.html'), { kind: 'html' }, PAGE);
    const author = doc.quads.find((q) => q.predicate.value === 'http://schema.org/author')!.object;
    const contributor = doc.quads.find((q) => q.predicate.value === 'http://schema.org/contributor')!.object;
    expect(author.termType).toBe('BlankNode');
    expect(contributor.termType).toBe('BlankNode');
    const named = (node: Quad['object']) => doc.quads.find((q) => q.subject.equals(node) && q.predicate.value === 'http://schema.org/name')?.object.value;
    expect(named(author)).toBe('W. Riter');
    expect(named(contributor)).toBe('E. Ditor');
    expect(doc.quads.some((q) => q.subject.value.startsWith('_:') || q.object.value.startsWith('_:'))).toBe(false);
  });

  it('a language tag with "_" is mended; the page records what was repaired', async () => {
    const doc = await parseDocument(fixture('malformed/rdfa-lang.html'), { kind: 'html' }, PAGE);
    const alt = doc.quads.find((q) => q.predicate.value === 'http://schema.org/alternateName')!.object as Literal;
    expect(alt.language).toBe('en-us');
    expect(doc.recovery?.repaired).toBeGreaterThanOrEqual(3);
    expect(doc.recovery?.dropped).toBe(0);
  });
});

describe('TermGuard', () => {
  it('passes valid quads untouched (the same objects) and counts nothing', () => {
    const q = f.quad(ex('s'), ex('p'), f.literal('x', 'en'));
    const { out, log } = guarded([q, f.quad(f.blankNode('b'), ex('p'), ex('o'))]);
    expect(out[0]).toBe(q);
    expect(log.summary()).toBeNull();
  });

  it('repairs: illegal IRI characters encoded, relative IRIs resolved, a langString without language made plain', () => {
    const { out, log } = guarded([
      f.quad(f.namedNode('http://example.org/a b|c'), ex('p'), f.namedNode('rel/x')),
      f.quad(ex('s'), ex('p'), f.literal('t', f.namedNode(LANG_STRING))),
      f.quad(ex('s'), ex('p'), f.literal('t', f.namedNode('http://ex.org/dt with space'))),
    ]);
    expect(out.map((q) => [q.subject.value, q.object.value])).toEqual([
      ['http://example.org/a%20b%7Cc', 'http://example.org/dir/rel/x'],
      ['http://example.org/s', 't'],
      ['http://example.org/s', 't'],
    ]);
    expect((out[1]!.object as Literal).datatype.value).toBe(XSD_STRING);
    expect((out[2]!.object as Literal).datatype.value).toBe('http://ex.org/dt%20with%20space');
    expect(log.repaired).toBe(4);
  });

  it('drops what cannot be made RDF (a literal subject, a blank-node predicate, an N3 variable) and says why', () => {
    const { out, log } = guarded([
      f.quad(f.literal('x') as unknown as Quad['subject'], ex('p'), ex('o')),
      f.quad(ex('s'), f.blankNode('p') as unknown as Quad['predicate'], ex('o')),
      f.quad(f.variable('x'), ex('p'), ex('o')),
    ]);
    expect(out).toEqual([]);
    expect(log.dropped).toBe(3);
    expect(log.errors.map((e) => e.message)).toEqual([
      'A triple was dropped: a subject that is a Literal is not valid RDF.',
      'A triple was dropped: a predicate that is a BlankNode is not valid RDF.',
      'A triple was dropped: a subject that is a Variable is not valid RDF.',
    ]);
  });

  it('strict: RDFa readings still apply; any other repair fails the document', () => {
    const reading = guarded([f.quad(ex('s'), ex('p'), f.literal('t', f.namedNode(LANG_STRING)))], true);
    expect(reading.guard.failure).toBeNull();
    expect(reading.out).toHaveLength(1);
    const repair = guarded([f.quad(ex('s'), ex('p'), f.namedNode('http://example.org/a b'))], true);
    expect(repair.out).toEqual([]);
    expect(repair.guard.failure?.code).toBe('RDFSCOUT_PARSE_FAILED');
  });
});
