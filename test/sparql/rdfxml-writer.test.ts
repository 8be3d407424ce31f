import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { RdfscoutError } from '../../src/errors.ts';
import { parseDocument } from '../../src/rdf/parse-document.ts';
import { termToNt } from '../../src/sparql/format-results.ts';
import { splitPredicate, writeRdfXml } from '../../src/sparql/rdfxml-writer.ts';

const df = new DataFactory();
const n = (v: string) => df.namedNode(v);

async function write(quads: Quad[]): Promise<string> {
  let text = '';
  for await (const chunk of writeRdfXml((async function* () { yield* quads; })(), 2)) text += chunk;
  return text;
}

const key = (q: Quad) => `${q.subject.termType === 'BlankNode' ? '_:' : termToNt(q.subject)} ${termToNt(q.predicate)} ${q.object.termType === 'BlankNode' ? '_:' : termToNt(q.object)}`;

describe('writeRdfXml', () => {
  it('round-trips through rdfxml-streaming-parser: IRIs with &, tricky literals, language, datatype, blank nodes', async () => {
    const b = df.blankNode('weird label!');
    const quads = [
      df.quad(n('http://ex.org/a?x=1&y=2'), n('http://ex.org/ns#name'), df.literal('comma, "quote"\nnew line <tag> & \r cr', 'en-GB')),
      df.quad(n('http://ex.org/a?x=1&y=2'), n('http://ex.org/ns#age'), df.literal('42', n('http://www.w3.org/2001/XMLSchema#integer'))),
      df.quad(n('http://ex.org/a?x=1&y=2'), n('http://ex.org/ns/knows'), b),
      df.quad(b, n('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), n('http://ex.org/ns#Person')),
      df.quad(b, n('urn:x:p.q-r'), df.literal('tab\there')),
    ];
    const xml = await write(quads);
    const doc = await parseDocument(xml, { kind: 'rdf', mediaType: 'application/rdf+xml' }, 'http://base.example/');
    expect(doc.error).toBeNull();
    expect(doc.quads.map(key).sort()).toEqual(quads.map(key).sort());
    // the blank node keeps its identity: one subject, linked from the first
    const people = doc.quads.filter((q) => q.object.value === 'http://ex.org/ns#Person');
    expect(doc.quads.some((q) => q.predicate.value === 'http://ex.org/ns/knows' && q.object.equals(people[0]?.subject))).toBe(true);
  });

  it('writes an empty graph as an empty rdf:RDF', async () => {
    const doc = await parseDocument(await write([]), { kind: 'rdf', mediaType: 'application/rdf+xml' }, 'http://base.example/');
    expect(doc.error).toBeNull();
    expect(doc.quads).toEqual([]);
  });

  it('refuses what RDF/XML cannot carry, with a clear error', async () => {
    expect(splitPredicate('http://ex.org/ns#name')).toEqual(['http://ex.org/ns#', 'name']);
    expect(() => splitPredicate('http://ex.org/123')).toThrow(/does not end in an XML name/);
    await expect(write([df.quad(n('http://ex.org/s'), n('http://ex.org/p'), df.literal('bell \u0007'))])).rejects.toBeInstanceOf(RdfscoutError);
  });
});
