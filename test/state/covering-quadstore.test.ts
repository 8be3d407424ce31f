// Four SPARQL indexes instead of six, on a real LevelDB: every pattern answers exactly what a scan would.
import type { Quad, Term } from '@rdfjs/types';
import { ClassicLevel } from 'classic-level';
import { join } from 'node:path';
import { Quadstore } from 'quadstore';
import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { CoveringQuadstore, coverPattern, INDEXES } from '../../src/state/covering-quadstore.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import { useTempState } from '../helpers/temp-state.ts';

const df = new DataFactory();
const NAMES = ['subject', 'predicate', 'object', 'graph'] as const;
type Name = (typeof NAMES)[number];

/** 3 graphs × 4 subjects × 3 predicates × 2 objects (an IRI and a literal, some shared across graphs). */
function sampleQuads(): Quad[] {
  const out: Quad[] = [];
  for (let g = 0; g < 3; g++) {
    for (let s = 0; s < 4; s++) {
      for (let p = 0; p < 3; p++) {
        out.push(df.quad(df.namedNode(`http://x.example/s${s}`), df.namedNode(`http://x.example/p${p}`), df.namedNode(`http://x.example/o${(s + p) % 3}`), df.namedNode(`http://x.example/g${g}`)));
        out.push(df.quad(df.namedNode(`http://x.example/s${s}`), df.namedNode(`http://x.example/p${p}`), df.literal(String(s * p), df.namedNode('http://www.w3.org/2001/XMLSchema#integer')), df.namedNode(`http://x.example/g${g}`)));
      }
    }
  }
  return out;
}

const key = (q: Quad): string => NAMES.map((n) => `${q[n].termType}:${q[n].value}`).join(' ');

/** Every pattern over the terms of `probe`: each of the 16 sets of bound positions. */
function patternsOf(probe: Quad): Array<Partial<Record<Name, Term>>> {
  const out: Array<Partial<Record<Name, Term>>> = [];
  for (let mask = 0; mask < 16; mask++) {
    const p: Partial<Record<Name, Term>> = {};
    NAMES.forEach((n, i) => {
      if (mask & (1 << i)) p[n] = probe[n];
    });
    out.push(p);
  }
  return out;
}

const t = useTempState({ open: false });

describe('coverPattern', () => {
  it('reads SO through S and PG through G; any other set of bound terms is a key prefix of one index', () => {
    const [s, p, o, g] = [df.namedNode('http://s'), df.namedNode('http://p'), df.namedNode('http://o'), df.namedNode('http://g')];
    expect(coverPattern({ subject: s, object: o }, INDEXES)).toEqual({ covered: { subject: s }, rest: ['object'] });
    expect(coverPattern({ predicate: p, graph: g }, INDEXES)).toEqual({ covered: { graph: g }, rest: ['predicate'] });
    const lit = df.literal('42', df.namedNode('http://www.w3.org/2001/XMLSchema#integer'));
    expect(coverPattern({ object: lit, graph: g }, INDEXES)).toEqual({ covered: { graph: g }, rest: ['object'] });
    expect(coverPattern({ subject: s, predicate: p, object: lit, graph: g }, INDEXES)).toEqual({ covered: { subject: s, predicate: p, object: lit, graph: g }, rest: [] });
    for (const probe of patternsOf(df.quad(s, p, o, g))) {
      const n = Object.keys(probe).length;
      const { rest } = coverPattern(probe as never, INDEXES);
      const pair = n === 2 && ((probe.subject && probe.object) || (probe.predicate && probe.graph));
      expect(rest.length, JSON.stringify(Object.keys(probe))).toBe(pair ? 1 : 0);
    }
  });
});

describe('CoveringQuadstore (issue 18: four indexes)', () => {
  it('the crawl state writes four index keys per quad, and every pattern answers what a scan answers', async () => {
    const state = await t.open();
    const quads = sampleQuads();
    await state.quadstore.multiPut(quads);
    expect(state.quadstore.indexes.map((i) => i.terms.map((t) => t[0]?.toUpperCase()).join(''))).toEqual(['SPOG', 'GSPO', 'POGS', 'OGSP']);
    let keys = 0;
    for await (const k of state.db.keys()) if (!k.startsWith('!')) keys++; // sublevel keys start with '!'
    expect(keys).toBe(quads.length * 4);
    for (const probe of [quads[5], quads[40]] as Quad[]) {
      for (const pattern of patternsOf(probe)) {
        const expected = quads.filter((q) => NAMES.every((n) => pattern[n] === undefined || q[n].equals(pattern[n] as Term))).map(key).sort();
        const { items } = await state.quadstore.get(pattern as never);
        expect(items.map(key).sort(), JSON.stringify(Object.keys(pattern))).toEqual(expected);
        const size = await state.quadstore.countQuads(pattern.subject as never, pattern.predicate as never, pattern.object as never, pattern.graph as never);
        expect(size).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('SPARQL: a literal object inside GRAPH <g> (a pattern quadstore’s six indexes refused) and the SO and PG pairs', async () => {
    const state = await t.open();
    await state.quadstore.multiPut(sampleQuads());
    const rows = async (q: string): Promise<string[]> => {
      const r = await runQuery(state, q);
      if (r.kind !== 'bindings') throw new Error('expected bindings');
      const out: string[] = [];
      for await (const b of r.rows) out.push(Object.values(b).map((t) => (t as { value: string }).value).join(' '));
      return out.sort();
    };
    const X = 'http://x.example/';
    expect(await rows(`SELECT ?s ?p WHERE { GRAPH <${X}g1> { ?s ?p 6 } }`)).toEqual([`${X}s3 ${X}p2`]);
    expect(await rows(`SELECT ?p WHERE { GRAPH <${X}g0> { <${X}s1> ?p <${X}o0> } }`)).toEqual([`${X}p2`]);
    expect(await rows(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${X}g2> { ?s <${X}p0> ?o } }`)).toEqual(['8']);
  });

  it('an uncovered pattern with a limit filters first, then limits', async () => {
    const state = await t.open();
    await state.quadstore.multiPut(sampleQuads());
    const { items } = await state.quadstore.get({ predicate: df.namedNode('http://x.example/p1'), graph: df.namedNode('http://x.example/g2') }, { limit: 3 });
    expect(items).toHaveLength(3);
    for (const q of items) expect([q.predicate.value, q.graph.value]).toEqual(['http://x.example/p1', 'http://x.example/g2']);
  });

  it('reads a store written with quadstore’s default six indexes (crawls made before issue 18)', async () => {
    const db = new ClassicLevel<string, string>(join(t.dir, 'db'), { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    const six = new Quadstore({ backend: db, dataFactory: df });
    await six.open();
    const quads = sampleQuads();
    await six.multiPut(quads);
    await six.close();
    const reopened = new ClassicLevel<string, string>(join(t.dir, 'db'), { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    const four = new CoveringQuadstore({ backend: reopened, dataFactory: df, indexes: INDEXES.map((i) => [...i]) });
    await four.open();
    try {
      for (const pattern of patternsOf(quads[7] as Quad)) {
        const expected = quads.filter((q) => NAMES.every((n) => pattern[n] === undefined || q[n].equals(pattern[n] as Term))).length;
        expect((await four.get(pattern as never)).items).toHaveLength(expected);
      }
    } finally {
      await four.close();
    }
  });
});
