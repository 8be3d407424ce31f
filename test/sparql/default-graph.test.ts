// Issue 16 item 7: the default graph is the RDF merge of all documents (a set), CONSTRUCT/DESCRIBE results are sets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageDocuments } from '../../src/rdf/index.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import { termToNt } from '../../src/sparql/format-results.ts';
import { type Fixture, makeFixture } from './fixture.ts';

const OWL = 'http://www.w3.org/2002/07/owl#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const ONT = 'http://vocab.example/ont';
const DOCS = ['http://vocab.example/a.ttl', 'http://vocab.example/b.rdf', 'http://vocab.example/c.jsonld', 'http://mirror.example/ont'];

let fx: Fixture;
beforeAll(async () => {
  fx = await makeFixture();
  const df = fx.state.dataFactory;
  const n = (s: string) => df.namedNode(s);
  // one ontology header stated by four documents, plus a label that only two state and one triple of one document
  const quads = DOCS.flatMap((doc, i) => [
    df.quad(n(ONT), n(RDF_TYPE), n(`${OWL}Ontology`), n(doc)),
    ...(i < 2 ? [df.quad(n(ONT), n('http://www.w3.org/2000/01/rdf-schema#label'), df.literal('Ont', 'en'), n(doc))] : []),
    ...(i === 3 ? [df.quad(n(`${ONT}#C`), n(RDF_TYPE), n(`${OWL}Class`), n(doc))] : []),
  ]);
  const txn = fx.state.txn();
  stageDocuments(fx.state, txn, quads);
  await txn.commit();
});
afterAll(async () => {
  await fx.cleanup();
});

async function rows(sparql: string): Promise<Array<Record<string, string>>> {
  const r = await runQuery(fx.state, sparql);
  if (r.kind !== 'bindings') throw new Error(`expected bindings, got ${r.kind}`);
  const out: Array<Record<string, string>> = [];
  for await (const row of r.rows) out.push(Object.fromEntries(Object.entries(row).map(([k, t]) => [k, termToNt(t)])));
  return out;
}

async function triples(sparql: string): Promise<string[]> {
  const r = await runQuery(fx.state, sparql);
  if (r.kind !== 'quads') throw new Error(`expected quads, got ${r.kind}`);
  const out: string[] = [];
  for await (const q of r.quads) out.push(`${termToNt(q.subject)} ${termToNt(q.predicate)} ${termToNt(q.object)}`);
  return out;
}

const one = '"1"^^<http://www.w3.org/2001/XMLSchema#integer>';

describe('the default graph is the merge of all documents', () => {
  it('counts a triple stated by four documents once, whatever pattern shape (and index) answers it', async () => {
    expect(await rows(`SELECT (COUNT(*) AS ?n) WHERE { <${ONT}> a ?o }`)).toEqual([{ n: one }]); // subject bound: SPOG
    expect(await rows(`SELECT (COUNT(*) AS ?n) WHERE { ?s a <${OWL}Ontology> }`)).toEqual([{ n: one }]); // p, o bound: POGS
    expect(await rows(`SELECT (COUNT(*) AS ?n) WHERE { ?s ?p <${OWL}Ontology> }`)).toEqual([{ n: one }]); // o bound: OGSP
    expect(await rows(`SELECT ?s ?c WHERE { ?s a ?c FILTER(STRSTARTS(STR(?c), "${OWL}")) } ORDER BY ?c`)).toEqual([
      { s: `<${ONT}#C>`, c: `<${OWL}Class>` },
      { s: `<${ONT}>`, c: `<${OWL}Ontology>` },
    ]);
    expect(await rows(`SELECT ?p (COUNT(*) AS ?n) WHERE { <${ONT}> ?p ?o } GROUP BY ?p ORDER BY ?p`)).toEqual([
      { p: `<${RDF_TYPE}>`, n: one },
      { p: '<http://www.w3.org/2000/01/rdf-schema#label>', n: one },
    ]);
  });

  it('still shows each document its own triples under GRAPH ?g', async () => {
    const graphs = await rows(`SELECT ?g WHERE { GRAPH ?g { <${ONT}> a <${OWL}Ontology> } } ORDER BY ?g`);
    expect(graphs.map((r) => r.g)).toEqual([...DOCS].sort().map((d) => `<${d}>`));
  });

  it('answers CONSTRUCT and DESCRIBE with sets of triples', async () => {
    const built = await triples(`CONSTRUCT { ?s a ?c } WHERE { GRAPH ?g { ?s a ?c } FILTER(STRSTARTS(STR(?c), "${OWL}")) }`);
    expect(built.sort()).toEqual([`<${ONT}#C> <${RDF_TYPE}> <${OWL}Class>`, `<${ONT}> <${RDF_TYPE}> <${OWL}Ontology>`]);
    const described = await triples(`DESCRIBE <${ONT}>`);
    expect(described.sort()).toEqual([`<${ONT}> <${RDF_TYPE}> <${OWL}Ontology>`, `<${ONT}> <http://www.w3.org/2000/01/rdf-schema#label> "Ont"@en`].sort());
  });
});
