// DocumentWriter on a real LevelDB: chunks spilled under a pending mark, committed with the record or not at all.
import { fork } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DOC_CHUNK_CHARS, DocumentWriter, hasGraph, isPending, parseRdfDocumentInto } from '../../src/rdf/index.ts';
import { useTempState } from '../helpers/temp-state.ts';
import { exportText } from './helpers.ts';
import { within } from '../helpers/until.ts';

const DOC = 'http://big.example.org/data.ttl';

const t = useTempState();

/** Turtle of `n` people, 3 triples each (~250 characters of N-Triples a person); the first person is stated twice. */
function turtle(n: number): string {
  const lines = ['@prefix ex: <http://ex.example/> .', 'ex:p0 ex:name "Person 0" .'];
  for (let i = 0; i < n; i++) lines.push(`ex:p${i} ex:name "Person ${i}" ; ex:knows ex:p${i + 1} ; ex:note "${'x'.repeat(40)} ${i}" .`);
  return lines.join('\n');
}

/** Parses `text` into a new writer for DOC, as the crawl does (streamed, with back-pressure). */
async function parseInto(text: string, graph = DOC): Promise<DocumentWriter> {
  const writer = new DocumentWriter(t.state, graph);
  const { error } = await parseRdfDocumentInto(text, 'text/turtle', graph, writer);
  expect(error).toBeNull();
  await writer.drained();
  return writer;
}

describe('DocumentWriter', () => {
  it('writes full chunks before the commit under a pending mark that readers ignore; the commit completes the document', async () => {
    const writer = await parseInto(turtle(6000));
    const spilled = (await t.state.docs.keys().all()) as string[];
    expect(spilled.length).toBeGreaterThanOrEqual(3); // ~1.5 MB of N-Triples, 256k characters a chunk
    expect(await isPending(t.state, DOC)).toBe(true);
    expect(await exportText(t.state)).toBe(''); // in flight: not part of the store yet
    const txn = t.state.txn();
    expect(writer.stage(txn)).toBe(18_000); // the duplicate triple counted once
    await txn.commit();
    expect(await isPending(t.state, DOC)).toBe(false);
    const lines = (await exportText(t.state)).split('\n').filter(Boolean);
    expect(lines).toHaveLength(18_000);
    expect(lines.filter((l) => l.includes('"Person 0"'))).toHaveLength(1);
    for (const v of (await t.state.docs.values().all()) as string[]) expect(v.length).toBeLessThan(DOC_CHUNK_CHARS + 1000);
    expect(await hasGraph(t.state, DOC)).toBe(true);
    await t.state.indexer.flush();
    expect((await t.state.quadstore.get({ graph: t.state.dataFactory.namedNode(DOC) })).items).toHaveLength(18_000);
  });

  it('a small document is staged in its transaction alone: its value and its mark, no deletion of a pending mark it never had', async () => {
    const writer = await parseInto(turtle(3), 'http://small.example.org/d.ttl');
    expect(writer.spilledChunks).toBe(0);
    const txn = t.state.txn();
    expect(writer.stage(txn)).toBe(9);
    expect(txn.size).toBe(2); // docs value + unindexed mark
    await txn.commit();
    expect(await isPending(t.state, 'http://small.example.org/d.ttl')).toBe(false);
    expect(await hasGraph(t.state, 'http://small.example.org/d.ttl')).toBe(true);
  });

  it('a document that is not stored after all has its spilled chunks deleted in the transaction', async () => {
    const writer = await parseInto(turtle(4000));
    expect(((await t.state.docs.keys().all()) as string[]).length).toBeGreaterThan(0);
    const txn = t.state.txn();
    writer.discard(txn);
    await txn.commit();
    expect(await t.state.docs.keys().all()).toEqual([]);
    expect(await isPending(t.state, DOC)).toBe(false);
    expect(() => writer.add(null as never)).toThrow(/staged already/);
  });

  it('a crash before the commit leaves an orphan chunk set, which the next open deletes', async () => {
    await parseInto(turtle(4000));
    const small = new DocumentWriter(t.state, 'http://small.example.org/');
    await parseRdfDocumentInto('<http://s.example/a> <http://s.example/p> "o" .', 'text/turtle', 'http://small.example.org/', small);
    const txn = t.state.txn();
    small.stage(txn);
    await txn.commit();
    // "Crash": the process goes away without committing the big document (no cleanup runs before the reopen).
    await t.reopen();
    expect(await isPending(t.state, DOC)).toBe(false);
    const keys = (await t.state.docs.keys().all()) as string[];
    expect(keys.every((k) => k.startsWith('http://small.example.org/'))).toBe(true);
    expect(await exportText(t.state)).toBe('<http://s.example/a> <http://s.example/p> "o" <http://small.example.org/> .\n');
  });

  it('SIGKILL while a large document is being written: the next open finds no trace of it', async () => {
    await t.close();
    const child = fork(new URL('./spill-child.ts', import.meta.url), [t.dir, DOC], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const spilled = await within(
      "the child's message that it spilled the document",
      new Promise<number>((resolve, reject) => {
        child.once('message', (m) => resolve(m as number));
        child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
      }),
    );
    expect(spilled).toBeGreaterThanOrEqual(2);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await within('the killed child to exit', exited);
    await t.open();
    expect(await t.state.docs.keys().all()).toEqual([]);
    expect(await isPending(t.state, DOC)).toBe(false);
    expect(await hasGraph(t.state, DOC)).toBe(false);
  });
  it('restart forgets the chunks written so far and their pending mark; the document then holds only what came after', async () => {
    const writer = await parseInto(turtle(6000));
    const first = writer.spilledChunks;
    expect(first).toBeGreaterThanOrEqual(3);
    await writer.restart();
    expect(await t.state.docs.keys().all()).toEqual([]);
    expect(await isPending(t.state, DOC)).toBe(false);
    expect(writer.count).toBe(0);
    const { error } = await parseRdfDocumentInto(turtle(1500), 'text/turtle', DOC, writer); // fewer chunks than the first pass
    expect(error).toBeNull();
    await writer.drained();
    const txn = t.state.txn();
    expect(writer.stage(txn)).toBe(4_500);
    await txn.commit();
    expect(((await t.state.docs.keys().all()) as string[]).length).toBeLessThan(first);
    expect(await isPending(t.state, DOC)).toBe(false);
    const lines = (await exportText(t.state)).split('\n').filter(Boolean);
    expect(lines).toHaveLength(4_500);
    expect(lines.some((l) => l.includes('Person 1500"'))).toBe(false); // the first pass's people beyond 1,500 are gone
  });
});
