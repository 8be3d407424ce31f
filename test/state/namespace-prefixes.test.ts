// Namespace ids in quadstore's index keys: keys shorter, every read the same, ids durable with the first key that uses them.
import type { Quad } from '@rdfjs/types';
import { ClassicLevel } from 'classic-level';
import { join } from 'node:path';
import { Quadstore } from 'quadstore';
import { DataFactory } from 'rdf-data-factory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageDocuments } from '../../src/rdf/index.ts';
import { INDEXES } from '../../src/state/covering-quadstore.ts';
import { NamespacePrefixes } from '../../src/state/namespace-prefixes.ts';
import { openState } from '../../src/state/open-state.ts';
import type { AnySublevel } from '../../src/state/txn.ts';
import { makeTempDir } from '../rdf/helpers.ts';

const df = new DataFactory();
const FOAF = 'http://xmlns.com/foaf/0.1/';

function quadsOf(graph: string, n: number): Quad[] {
  const g = df.namedNode(graph);
  const out: Quad[] = [];
  for (let i = 0; i < n; i++) {
    const s = df.namedNode(`http://people.example/person/${i}`);
    out.push(df.quad(s, df.namedNode(`${FOAF}name`), df.literal(`P${i}`), g));
    out.push(df.quad(s, df.namedNode(`${FOAF}knows`), df.namedNode(`http://people.example/person/${(i + 1) % n}`), g));
    out.push(df.quad(s, df.namedNode('urn:x:short'), df.namedNode('http://people.example/a#frag'), g));
  }
  return out;
}

describe('NamespacePrefixes', () => {
  let tmp: { dir: string; remove: () => Promise<void> };
  let db: ClassicLevel<string, string>;
  let sub: AnySublevel;
  beforeEach(async () => {
    tmp = await makeTempDir();
    db = new ClassicLevel<string, string>(join(tmp.dir, 'db'), { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await db.open();
    sub = db.sublevel<string, string>('ns', { keyEncoding: 'utf8', valueEncoding: 'utf8' }) as unknown as AnySublevel;
  });
  afterEach(async () => {
    await db.close();
    await tmp.remove();
  });

  it('compacts the namespace of an IRI to an id and expands it back; short namespaces and odd IRIs stay whole', async () => {
    const p = await NamespacePrefixes.open(sub);
    const name = p.compactIri(`${FOAF}name`);
    expect(name).toBe('\u00010\u0001name');
    expect(p.compactIri(`${FOAF}knows`)).toBe('\u00010\u0001knows');
    expect(p.compactIri('http://people.example/a#frag')).toBe('\u00011\u0001frag');
    expect(p.compactIri('urn:x:short')).toBe('urn:x:short');
    expect(p.compactIri('http://a.b/c')).toBe('http://a.b/c'); // namespace under 12 characters
    expect(p.compactIri('\u0001weird')).toBe('\u0001\u0001\u0001weird');
    for (const iri of [`${FOAF}name`, 'http://people.example/a#frag', 'urn:x:short', '\u0001weird', `${FOAF}`]) expect(p.expandTerm(p.compactIri(iri))).toBe(iri);
    expect(p.size).toBe(2);
  });

  it('writes ids only with a batch, and a new handle reads them; a reader never adds one but sees ids added after it opened', async () => {
    const writer = await NamespacePrefixes.open(sub);
    const reader = await NamespacePrefixes.open(sub, { assign: false });
    const key = writer.compactIri(`${FOAF}name`);
    expect(reader.compactIri(`${FOAF}name`)).toBe(`${FOAF}name`); // not written yet: whole
    const batch = db.batch();
    const staged = writer.stage(batch as never);
    expect(staged).toEqual([[FOAF, '0']]);
    await batch.write();
    writer.saved(staged);
    expect(writer.stage(db.batch() as never)).toEqual([]); // nothing left to write
    expect(reader.compactIri(`${FOAF}name`)).toBe(key);
    expect(reader.expandTerm(key)).toBe(`${FOAF}name`);
    expect(reader.compactIri('http://other.example/x/y')).toBe('http://other.example/x/y');
    expect(reader.size).toBe(0);
    const reopened = await NamespacePrefixes.open(sub);
    expect(reopened.size).toBe(1);
    expect(reopened.compactIri(`${FOAF}name`)).toBe(key);
    expect(reopened.compactIri('http://other.example/x/y')).toBe('\u00011\u0001y');
  });

  it('on the handle that gives ids, knows every id from its open: no LevelDB read for a new namespace, unless the ids overflow its memory', async () => {
    const first = await NamespacePrefixes.open(sub);
    const forms = [0, 1, 2].map((i) => first.compactIri(`http://ns${i}.example/x/y`));
    const batch = db.batch();
    first.saved(first.stage(batch as never));
    await batch.write();
    let reads = 0;
    const getSync = sub.getSync.bind(sub);
    sub.getSync = ((key: string) => {
      reads++;
      return getSync(key);
    }) as typeof sub.getSync;
    const writer = await NamespacePrefixes.open(sub);
    expect([0, 1, 2].map((i) => writer.compactIri(`http://ns${i}.example/x/z`))).toEqual(forms.map((f) => f.replace(/y$/, 'z')));
    expect(writer.compactIri('http://new.example/x/y')).toBe('\u00013\u0001y');
    expect(reads).toBe(0);
    // Too many ids for its memory: it reads LevelDB as before, with the same answers.
    const small = await NamespacePrefixes.open(sub, { cacheSize: 2 });
    expect(small.compactIri('http://ns2.example/x/y')).toBe(forms[2]);
    expect(reads).toBe(1);
    // A handle that stopped giving ids reads what another handle may have added.
    writer.stopAssigning();
    writer.compactIri('http://other.example/x/y');
    expect(reads).toBe(2);
  });

  it('keeps IRIs whole once maxNamespaces ids are given, and stays consistent when its memory is cleared', async () => {
    const p = await NamespacePrefixes.open(sub, { maxNamespaces: 3, cacheSize: 2 });
    const forms = Array.from({ length: 5 }, (_, i) => p.compactIri(`http://ns${i}.example/x/y`));
    expect(forms.slice(0, 3).every((f) => f.startsWith('\u0001'))).toBe(true);
    expect(forms.slice(3)).toEqual(['http://ns3.example/x/y', 'http://ns4.example/x/y']);
    expect(forms.map((f) => p.expandTerm(f))).toEqual(forms.map((_, i) => `http://ns${i}.example/x/y`)); // unsaved ids survive the clearing
    const batch = db.batch();
    p.saved(p.stage(batch as never));
    await batch.write();
    const again = await NamespacePrefixes.open(sub, { cacheSize: 1, maxNamespaces: 100 }); // the store's limit (3) holds
    expect(forms.map((_, i) => again.compactIri(`http://ns${i}.example/x/y`))).toEqual(forms);
    expect(again.compactIri('http://ns9.example/x/y')).toBe('http://ns9.example/x/y');
  });
});

describe('namespace ids in the crawl state', () => {
  let tmp: { dir: string; remove: () => Promise<void> };
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => tmp.remove());

  it('indexes with shorter keys, answers every pattern as before, and keeps its ids across a reopen and for a reading handle', async () => {
    const quads = quadsOf('http://docs.example/doc/1', 50);
    let state = await openState(tmp.dir);
    try {
      const txn = state.txn();
      stageDocuments(state, txn, quads);
      await txn.commit();
      await state.indexer.flush();
      const keys = (await state.db.keys({ gte: 'SPOG', lt: 'SPOH' }).all()) as string[];
      expect(keys).toHaveLength(quads.length);
      expect(keys.every((k) => !k.includes('http://people.example/person/'))).toBe(true);
    } finally {
      await state.close();
    }
    state = await openState(tmp.dir);
    const reader = await openState(tmp.dir, { index: false }); // a query worker's handle: reads ids, never adds one
    try {
      const s = df.namedNode('http://people.example/person/7');
      expect((await state.quadstore.get({ subject: s })).items).toHaveLength(3);
      expect((await state.quadstore.get({ predicate: df.namedNode(`${FOAF}knows`), object: s })).items).toHaveLength(1);
      expect((await state.quadstore.get({ object: df.namedNode('http://people.example/a#frag') })).items).toHaveLength(50);
      const got = (await state.quadstore.get({ subject: s, predicate: df.namedNode(`${FOAF}knows`) })).items;
      expect(got.map((q) => q.object.value)).toEqual(['http://people.example/person/8']);
      // A second document after the reopen: new and old namespaces mixed.
      const txn = state.txn();
      stageDocuments(state, txn, [df.quad(df.namedNode('http://new.example/thing/1'), df.namedNode(`${FOAF}knows`), s, df.namedNode('http://docs.example/doc/2'))]);
      await txn.commit();
      await state.indexer.flush();
      expect((await state.quadstore.get({ object: s })).items).toHaveLength(2);
      expect((await state.quadstore.get({ subject: df.namedNode('http://new.example/thing/1') })).items).toHaveLength(1);
      // The reader opened before http://new.example/thing/ had an id: it finds the id in LevelDB.
      expect((await reader.quadstore.get({ subject: df.namedNode('http://new.example/thing/1') })).items).toHaveLength(1);
      expect((await reader.quadstore.get({ object: s })).items.map((q) => q.subject.value).sort()).toEqual(['http://new.example/thing/1', 'http://people.example/person/6']);
    } finally {
      await reader.close();
      await state.close();
    }
  });

  it('reads and extends a store indexed with whole IRIs (before namespace ids) as it is', async () => {
    const quads = quadsOf('http://docs.example/doc/1', 10);
    const db = new ClassicLevel<string, string>(join(tmp.dir, 'db'), { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    const old = new Quadstore({ backend: db, dataFactory: df, indexes: INDEXES.map((i) => [...i]) });
    await old.open();
    await old.multiPut(quads);
    await old.close();
    const state = await openState(tmp.dir);
    try {
      expect(await state.sub.meta.get('index-namespace-ids')).toBeUndefined();
      const s = df.namedNode('http://people.example/person/3');
      expect((await state.quadstore.get({ subject: s })).items).toHaveLength(3);
      const txn = state.txn();
      stageDocuments(state, txn, [df.quad(df.namedNode('http://new.example/thing/1'), df.namedNode(`${FOAF}knows`), s, df.namedNode('http://docs.example/doc/2'))]);
      await txn.commit();
      await state.indexer.flush();
      expect((await state.quadstore.get({ object: s })).items).toHaveLength(2);
      const keys = (await state.db.keys({ gte: 'SPOG', lt: 'SPOH' }).all()) as string[];
      expect(keys.every((k) => k.startsWith('SPOG\u0000\u0000http'))).toBe(true);
    } finally {
      await state.close();
    }
  });
});
