// TripleProbe: one shard's SPOG index asked whether it holds a triple, in any graph the caller accepts.
import type { Quad } from '@rdfjs/types';
import { describe, expect, it } from 'vitest';
import { stageDocuments } from '../../src/rdf/index.ts';
import { TripleProbe } from '../../src/sparql/triple-probe.ts';
import { useTempState } from '../helpers/temp-state.ts';

const t = useTempState();
const EX = 'http://ex.org/';

describe('TripleProbe', () => {
  it('finds a stored triple in an accepted graph only, and tells an IRI from a literal of the same spelling', async () => {
    const df = t.state.dataFactory;
    const s = df.namedNode(`${EX}s`);
    const p = df.namedNode(`${EX}vocabulary/p`);
    const iri = df.namedNode(`${EX}o`);
    const g1 = df.namedNode(`${EX}doc1`);
    const g2 = df.namedNode(`${EX}doc2`);
    const txn = t.state.txn();
    stageDocuments(t.state, txn, [df.quad(s, p, iri, g1), df.quad(s, p, iri, g2), df.quad(s, p, df.literal('x', 'en'), g1)]);
    await txn.commit();
    await t.state.indexer.flush();

    const probe = new TripleProbe(t.state);
    const any = (): boolean => true;
    const only = (g: string) => (q: Quad) => q.graph.value === g;
    const at = (o: Quad['object']): Quad => df.quad(s, p, o, df.namedNode(`${EX}elsewhere`));
    expect(await probe.holds(at(iri), any)).toBe(true);
    expect(await probe.holds(at(iri), only(`${EX}doc2`))).toBe(true); // the second graph of the triple is read too
    expect(await probe.holds(at(iri), only(`${EX}doc3`))).toBe(false);
    expect(await probe.holds(at(df.literal(`${EX}o`)), any)).toBe(false); // same spelling, a literal
    expect(await probe.holds(at(df.literal('x', 'en')), any)).toBe(true);
    expect(await probe.holds(at(df.literal('x')), any)).toBe(false);
    expect(await probe.holds(df.quad(df.namedNode(`${EX}other`), p, iri), any)).toBe(false);
    expect(await probe.holds(df.quad(s, p, iri), any)).toBe(true); // sought back after a later key
    await probe.close();
    await probe.close();
  });
});
