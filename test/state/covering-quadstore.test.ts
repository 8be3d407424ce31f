// Three SPARQL indexes instead of six and graph-led reads from the stored documents, on a real LevelDB: every pattern answers exactly what a scan would.
import type { Quad, Term } from '@rdfjs/types';
import { ClassicLevel } from 'classic-level';
import { join } from 'node:path';
import { Quadstore } from 'quadstore';
import { DataFactory } from 'rdf-data-factory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Writer } from 'n3';
import { stageDocuments } from '../../src/rdf/index.ts';
import { CoveringQuadstore, coverPattern, INDEXES, readsDocument } from '../../src/state/covering-quadstore.ts';
import { docKey } from '../../src/state/document-keys.ts';
import type { CrawlState } from '../../src/state/open-state.ts';
import { openState } from '../../src/state/open-state.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import { makeTempDir } from '../rdf/helpers.ts';

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

let tmp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await tmp.remove();
});

/** Stores the quads as documents (one per graph) and waits for the indexer. */
async function storeAll(state: CrawlState, quads: readonly Quad[]): Promise<void> {
  const txn = state.txn();
  stageDocuments(state, txn, quads);
  await txn.commit();
  await state.indexer.flush();
}

describe('coverPattern and readsDocument', () => {
  it('reads SO through S; G, PG and a literal object with G from the document; any other set of bound terms is a key prefix of one index', () => {
    const [s, p, o, g] = [df.namedNode('http://s'), df.namedNode('http://p'), df.namedNode('http://o'), df.namedNode('http://g')];
    const lit = df.literal('42', df.namedNode('http://www.w3.org/2001/XMLSchema#integer'));
    expect(coverPattern({ subject: s, object: o }, INDEXES)).toEqual({ covered: { subject: s }, rest: ['object'] });
    expect(coverPattern({ predicate: p, graph: g }, INDEXES)).toEqual({ covered: { predicate: p }, rest: ['graph'] });
    // nothing follows a literal in a key prefix: SPO, then the graph filtered
    expect(coverPattern({ subject: s, predicate: p, object: lit, graph: g }, INDEXES)).toEqual({ covered: { subject: s, predicate: p, object: lit }, rest: ['graph'] });
    expect(coverPattern({ subject: s, predicate: p, object: o, graph: g }, INDEXES)).toEqual({ covered: { subject: s, predicate: p, object: o, graph: g }, rest: [] });
    const fromDocument = (pattern: Record<string, Term>): boolean => readsDocument(pattern as never, coverPattern(pattern as never, INDEXES).covered);
    expect(fromDocument({ graph: g })).toBe(true);
    expect(fromDocument({ predicate: p, graph: g })).toBe(true);
    expect(fromDocument({ object: lit, graph: g })).toBe(true);
    expect(fromDocument({ predicate: p, object: lit, graph: g })).toBe(true);
    expect(fromDocument({ object: o, graph: g })).toBe(false); // OG prefix of OGSP
    expect(fromDocument({ predicate: p, object: o, graph: g })).toBe(false); // POG prefix of POGS
    expect(fromDocument({ subject: s, graph: g })).toBe(false); // S of SPOG, then the graph filtered
    expect(fromDocument({ predicate: p })).toBe(false);
    for (const probe of patternsOf(df.quad(s, p, o, g))) {
      const { covered, rest } = coverPattern(probe as never, INDEXES);
      if (readsDocument(probe as never, covered)) continue;
      const keys = Object.keys(probe).sort().join(',');
      // what an index prefix leaves to filter: SO → O; a graph after S or SP → G
      const filtered = ['object,subject', 'graph,subject', 'graph,predicate,subject'].includes(keys);
      expect(rest.length, keys).toBe(filtered ? 1 : 0);
    }
  });
});

describe('CoveringQuadstore (issue 18: three indexes and the stored documents)', () => {
  it('the crawl state writes three index keys per quad, and every pattern answers what a scan answers', async () => {
    const state = await openState(tmp.dir);
    try {
      const quads = sampleQuads();
      await storeAll(state, quads);
      expect(state.quadstore.indexes.map((i) => i.terms.map((t) => t[0]?.toUpperCase()).join(''))).toEqual(['SPOG', 'POGS', 'OGSP']);
      let keys = 0;
      for await (const k of state.db.keys()) if (!k.startsWith('!')) keys++; // sublevel keys start with '!'
      expect(keys).toBe(quads.length * 3);
      for (const probe of [quads[5], quads[40]] as Quad[]) {
        for (const pattern of patternsOf(probe)) {
          const expected = quads.filter((q) => NAMES.every((n) => pattern[n] === undefined || q[n].equals(pattern[n] as Term))).map(key).sort();
          const { items } = await state.quadstore.get(pattern as never);
          expect(items.map(key).sort(), JSON.stringify(Object.keys(pattern))).toEqual(expected);
          const size = await state.quadstore.countQuads(pattern.subject as never, pattern.predicate as never, pattern.object as never, pattern.graph as never);
          expect(size).toBeGreaterThanOrEqual(1);
        }
      }
    } finally {
      await state.close();
    }
  });

  it('SPARQL: a literal object inside GRAPH <g> (a pattern quadstore’s six indexes refused) and the SO and PG pairs', async () => {
    const state = await openState(tmp.dir);
    try {
      await storeAll(state, sampleQuads());
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
    } finally {
      await state.close();
    }
  });

  it('terms that share a key value (an IRI kept whole and a literal of its spelling, "en" and a literal @en) answer exactly', async () => {
    const state = await openState(tmp.dir);
    try {
      const s = df.namedNode('http://a/s');
      const p = df.namedNode('http://a/p');
      const g = df.namedNode('http://a/g');
      // `http://a/` is shorter than a namespace worth an id: its IRIs are written whole, as a literal's value is.
      const objects: Quad['object'][] = [df.namedNode('http://a/o'), df.literal('http://a/o'), df.literal('en'), df.literal('hello', 'en'), df.literal('x', 'en'), df.literal('en', 'en')];
      const quads = objects.flatMap((o, i) => [df.quad(s, p, o, g), df.quad(df.namedNode(`http://a/s${i}`), p, o, g)]);
      await storeAll(state, quads);
      for (const probe of quads) {
        for (const pattern of patternsOf(probe)) {
          const expected = quads.filter((q) => NAMES.every((n) => pattern[n] === undefined || q[n].equals(pattern[n] as Term))).map(key).sort();
          const { items } = await state.quadstore.get(pattern as never);
          expect(items.map(key).sort(), `${JSON.stringify(pattern)}`).toEqual(expected);
        }
      }
      const r = await runQuery(state, 'SELECT ?s WHERE { ?s <http://a/p> "en" }');
      const rows: string[] = [];
      if (r.kind === 'bindings') for await (const b of r.rows) rows.push(b.s?.value ?? '');
      expect(rows.sort()).toEqual(['http://a/s', 'http://a/s2']);
    } finally {
      await state.close();
    }
  });

  it('an uncovered pattern with a limit filters first, then limits', async () => {
    const state = await openState(tmp.dir);
    try {
      await storeAll(state, sampleQuads());
      for (const pattern of [{ predicate: df.namedNode('http://x.example/p1'), graph: df.namedNode('http://x.example/g2') }, { subject: df.namedNode('http://x.example/s1'), graph: df.namedNode('http://x.example/g2') }]) {
        const { items } = await state.quadstore.get(pattern, { limit: 3 });
        expect(items).toHaveLength(3);
        for (const q of items) expect(q.graph.value).toBe('http://x.example/g2');
      }
    } finally {
      await state.close();
    }
  });

  it('a graph-led pattern reads the stored values (indexed or not), and nothing of a document a fetch is still writing', async () => {
    const state = await openState(tmp.dir);
    try {
      const g = 'http://x.example/unindexed';
      const writer = new Writer({ format: 'N-Triples' });
      const lines = (n: number) => Array.from({ length: n }, (_, i) => writer.quadToString(df.namedNode(`http://x.example/s${i}`), df.namedNode('http://x.example/p'), df.literal(String(i)))).join('');
      // two values and no mark for the indexer: the indexes never hold them, the document's read does
      await state.docs.put(docKey(g, 0), lines(3));
      await state.docs.put(docKey(g, 1), lines(5));
      const graph = df.namedNode(g);
      expect((await state.quadstore.get({ graph })).items).toHaveLength(8);
      expect((await state.quadstore.get({ graph, object: df.literal('4') })).items.map((q) => q.subject.value)).toEqual(['http://x.example/s4']);
      expect((await state.quadstore.get({})).items).toHaveLength(0);
      expect(await state.quadstore.countQuads(undefined, undefined, undefined, graph)).toBeGreaterThanOrEqual(1);
      await state.sub['docs-pending'].put(g, true);
      expect((await state.quadstore.get({ graph })).items).toHaveLength(0);
    } finally {
      await state.close();
    }
  });

  it('reads a store written with quadstore’s default six indexes (crawls made before issue 18)', async () => {
    const db = new ClassicLevel<string, string>(join(tmp.dir, 'db'), { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    const six = new Quadstore({ backend: db, dataFactory: df });
    await six.open();
    const quads = sampleQuads();
    await six.multiPut(quads);
    await six.close();
    const reopened = new ClassicLevel<string, string>(join(tmp.dir, 'db'), { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    const three = new CoveringQuadstore({ backend: reopened, dataFactory: df, indexes: INDEXES.map((i) => [...i]) });
    await three.open();
    try {
      for (const pattern of patternsOf(quads[7] as Quad)) {
        const expected = quads.filter((q) => NAMES.every((n) => pattern[n] === undefined || q[n].equals(pattern[n] as Term))).length;
        expect((await three.get(pattern as never)).items).toHaveLength(expected);
      }
    } finally {
      await three.close();
    }
  });
});
