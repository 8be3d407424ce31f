// JSON-LD parsed as a stream: the top-level @graph named, quads out before the text ends, and
// every document that does not fit the streaming profile parsed again, buffered, to exactly the same quads.
import type { Quad } from '@rdfjs/types';
import { isomorphic } from 'rdf-isomorphic';
import { describe, expect, it } from 'vitest';
import { parseDocument, parseRdfDocumentInto } from '../../src/rdf/index.ts';
import { findRootGraphKey, nameRootGraph, ROOT_GRAPH_IRI } from '../../src/rdf/jsonld-streaming.ts';
import { fixture } from './helpers.ts';

const BASE = 'http://people.example.org/doc';
const JSONLD = 'application/ld+json';

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const c of chunks) out += c;
  return out;
}

async function* oneByOne(text: string): AsyncGenerator<string> {
  for (const c of text) yield c;
}

/** The buffered parse (a one-shot input and a target that cannot restart): what the parser gave before streaming. */
async function buffered(text: string): Promise<{ quads: Quad[]; error: string | null }> {
  const quads: Quad[] = [];
  const r = await parseRdfDocumentInto([text], JSONLD, BASE, { add: (q) => quads.push(q) });
  return { quads, error: r.error?.code ?? null };
}

const nodes = (n: number) => Array.from({ length: n }, (_, i) => `{"@id": "http://ex.example/p${i}", "@type": "Person", "name": "P ${i}", "knows": {"@id": "http://ex.example/p${i + 1}"}}`).join(',\n');
const CONTEXT = '{"@vocab": "http://xmlns.com/foaf/0.1/", "knows": {"@type": "@id"}}';

/** Documents of every shape: streamable ones, and ones the streamed pass must hand over to the buffered one. */
const DOCUMENTS: Record<string, string> = {
  'top-level @graph after @context': `{"@context": ${CONTEXT}, "@graph": [${nodes(30)}]}`,
  'top-level @graph first, no context': `{"@graph": [{"@id": "http://a.example/", "http://ex.example/p": "v"}]}`,
  'top-level array': `[{"@context": ${CONTEXT}, "@id": "http://a.example/", "name": "A"}, {"@context": ${CONTEXT}, "@id": "http://b.example/", "name": "B"}]`,
  'one node, @type after @id and properties': `{"@context": ${CONTEXT}, "@id": "http://a.example/", "name": "A", "@type": "Person"}`,
  '@id after the properties': `{"@context": ${CONTEXT}, "name": "A", "@id": "http://a.example/"}`,
  'blank nodes and a list': `{"@context": ${CONTEXT}, "@graph": [{"name": "anon", "knows": {"name": "inner"}}, {"@id": "http://l.example/", "http://ex.example/list": {"@list": [1, 2, {"name": "x"}]}}]}`,
  '@context last': `{"@graph": [${nodes(5)}], "@context": ${CONTEXT}}`,
  'top-level @graph, then an @id (a named graph)': `{"@context": ${CONTEXT}, "@graph": [${nodes(3)}], "@id": "http://g.example/"}`,
  'top-level @graph, then a property of its own': `{"@context": ${CONTEXT}, "@graph": [${nodes(3)}], "name": "the graph"}`,
  'nested @context after properties': `{"@context": ${CONTEXT}, "@id": "http://a.example/", "knows": {"name": "n", "@context": {"name": "http://y.example/name"}}}`,
  'type-scoped context after @id': `{"@context": {"@vocab": "http://v.example/", "T": {"@id": "http://v.example/T", "@context": {"p": "http://scoped.example/p"}}}, "@id": "http://a.example/", "@type": "T", "p": "x"}`,
  'the fixture person.jsonld': fixture('person.jsonld'),
};

describe('findRootGraphKey', () => {
  it('finds @graph as the first key, or right after @context (whatever the context holds)', () => {
    expect(findRootGraphKey('{"@graph": [')).toBe(1);
    const text = ' {"@context": {"a": "x}]\\"", "b": [1, {"c": null}], "d": true}, "@graph": [';
    expect(findRootGraphKey(text)).toBe(text.indexOf('"@graph"'));
    const schema = '{"@context": "http://schema.org/",\n  "@graph": [';
    expect(findRootGraphKey(schema)).toBe(schema.indexOf('"@graph"'));
  });

  it('says none for any other start, and more when the text stops too early', () => {
    expect(findRootGraphKey('{"@id": "x", "@graph": [')).toBe('none');
    expect(findRootGraphKey('[{"@graph": []}]')).toBe('none');
    expect(findRootGraphKey('{"@context": {}, "name": "x", "@graph": []}')).toBe('none');
    expect(findRootGraphKey('{"@context": {"a": "b"')).toBe('more');
    expect(findRootGraphKey('{"@context": {}, "@gr')).toBe('more');
    expect(findRootGraphKey('  ')).toBe('more');
  });
});

describe('nameRootGraph', () => {
  it('inserts the @id before the top-level @graph however the text is cut', async () => {
    const text = `{"@context": ${CONTEXT},\n "@graph": []}`;
    const named = await collect(nameRootGraph(oneByOne(text)));
    expect(named).toBe(text.replace('"@graph"', `"@id":"${ROOT_GRAPH_IRI}","@graph"`));
    expect(JSON.parse(named)['@id']).toBe(ROOT_GRAPH_IRI);
  });

  it('passes any other document through untouched', async () => {
    for (const text of ['[{"@id": "x"}]', '{"@id": "x", "@graph": []}', '{"@context": {}, "name": "x"}', '{"@context": {"a"']) {
      expect(await collect(nameRootGraph(oneByOne(text)))).toBe(text);
    }
  });
});

describe('JSON-LD streamed, or parsed again buffered', () => {
  it.each(Object.keys(DOCUMENTS))('%s: the same quads as the buffered parse', async (name) => {
    const text = DOCUMENTS[name]!;
    const reference = await buffered(text);
    expect(reference.error).toBeNull();
    expect(reference.quads.length).toBeGreaterThan(0);
    const doc = await parseDocument(text, { kind: 'rdf', mediaType: JSONLD }, BASE);
    expect(doc.error).toBeNull();
    expect(doc.quads.some((q) => [q.subject, q.object, q.graph].some((t) => t.value === ROOT_GRAPH_IRI))).toBe(false);
    expect(doc.quads).toHaveLength(reference.quads.length);
    expect(isomorphic(doc.quads, reference.quads)).toBe(true);
  });

  it('hands quads over while the text is still coming, and restarts only the documents that need it', async () => {
    const run = async (text: string) => {
      const chunks = Array.from({ length: Math.ceil(text.length / 1000) }, (_, i) => text.slice(i * 1000, (i + 1) * 1000));
      let received = 0;
      let restarts = 0;
      const before: number[] = [];
      const source = async function* () {
        for (const c of chunks) {
          before.push(received);
          yield c;
        }
      };
      const target = {
        add: () => void received++,
        restart: async () => {
          restarts++;
          received = 0;
        },
      };
      const r = await parseRdfDocumentInto(source, JSONLD, BASE, target);
      return { error: r.error, received, restarts, beforeLast: before.at(-1) ?? 0, chunks: chunks.length };
    };
    const inOrder = await run(`{"@context": ${CONTEXT}, "@graph": [${nodes(150)}]}`);
    expect(inOrder).toMatchObject({ error: null, received: 450, restarts: 0 }); // type, name, knows
    expect(inOrder.chunks).toBeGreaterThan(10);
    expect(inOrder.beforeLast).toBeGreaterThan(400); // streamed: most quads are out before the last chunk is read
    const late = await run(`{"@graph": [${nodes(150)}], "@context": ${CONTEXT}}`);
    expect(late).toMatchObject({ error: null, received: 450, restarts: 1 });
  });

  it('a malformed document fails once, with its line, and is not parsed again', async () => {
    let restarts = 0;
    const text = `{"@context": ${CONTEXT},\n"@graph": [${nodes(3)},\n{"@id": @}]}`;
    const r = await parseRdfDocumentInto(() => text, JSONLD, BASE, { add: () => {}, restart: async () => void restarts++ });
    expect(r.error).toMatchObject({ code: 'RDFSCOUT_PARSE_FAILED', line: 5 });
    expect(restarts).toBe(0);
    expect((await buffered(text)).error).toBe('RDFSCOUT_PARSE_FAILED');
  });
});
