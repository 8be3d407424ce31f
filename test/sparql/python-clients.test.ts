// Real SPARQL clients against the endpoint: rdflib's SPARQLStore and SPARQLWrapper (Debian python3 packages, .ci/run).
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, startEndpoint } from '../../src/sparql/endpoint.ts';
import { DOC1, DOC2, EX, type Fixture, makeFixture } from './fixture.ts';

let fx: Fixture;
let endpoint: Endpoint;
beforeAll(async () => {
  fx = await makeFixture();
  endpoint = await startEndpoint(fx.state, { port: 0 });
});
afterAll(async () => {
  await endpoint.close();
  await fx.cleanup();
});

/** Runs a Python script with the endpoint URL as argv[1]; resolves with its stdout (rejects with stderr). */
function python(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', ['-c', script, endpoint.url], { timeout: 60_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
  });
}

describe('python SPARQL clients', () => {
  it("rdflib's SPARQLStore: SELECT, ASK, CONSTRUCT (RDF/XML) and DESCRIBE", async () => {
    const out = await python(`
import sys, json
from rdflib import Graph, URIRef
from rdflib.plugins.stores.sparqlstore import SPARQLStore
store = SPARQLStore(sys.argv[1])
g = Graph(store)
names = sorted(str(r[0]) for r in g.query('SELECT ?n WHERE { ?s <http://xmlns.com/foaf/0.1/name> ?n }'))
ask = g.query('ASK { <${EX}alice> <http://xmlns.com/foaf/0.1/knows> <${EX}bob> }').askAnswer
built = g.query('CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${DOC2}> { ?s ?p ?o } }').graph
described = g.query('DESCRIBE <${EX}bob>').graph
print(json.dumps({'names': names, 'ask': ask, 'built': sorted(' '.join(str(t) for t in tr) for tr in built), 'described': len(described)}))
`);
    const r = JSON.parse(out);
    expect(r.names).toEqual(['Alice', 'Anon', 'Bob']);
    expect(r.ask).toBe(true);
    expect(r.built).toEqual([`${EX}alice http://xmlns.com/foaf/0.1/name Alice`, `${EX}bob ${EX}tab a\tb`, `${EX}bob http://xmlns.com/foaf/0.1/name Bob`].sort());
    expect(r.described).toBe(2);
  });

  it('SPARQLWrapper: JSON and XML results, CONSTRUCT as RDF/XML, Turtle and JSON-LD, the dataset parameters', async () => {
    const out = await python(`
import sys, json
from SPARQLWrapper import SPARQLWrapper, JSON, XML, TURTLE, RDFXML
def run(q, fmt, default=None):
    w = SPARQLWrapper(sys.argv[1])
    w.setQuery(q)
    w.setReturnFormat(fmt)
    if default: w.addDefaultGraph(default)
    return w.query().convert()
sel = 'SELECT ?n WHERE { ?s <http://xmlns.com/foaf/0.1/name> ?n } ORDER BY ?n'
js = [b['n']['value'] for b in run(sel, JSON)['results']['bindings']]
xml = [e.firstChild.data for e in run(sel, XML).getElementsByTagName('literal')]
only2 = [b['n']['value'] for b in run(sel, JSON, '${DOC2}')['results']['bindings']]
c = 'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${DOC1}> { ?s ?p ?o } }'
sizes = [len(run(c, RDFXML)), len(run(c, XML))]
ttl = run(c, TURTLE)
# SPARQLWrapper 1.8 refuses JSONLD without the old rdflib-jsonld plugin: ask for it by header, parse with rdflib 6
w = SPARQLWrapper(sys.argv[1]); w.setQuery(c); w.addCustomHttpHeader('Accept', 'application/ld+json')
resp = w.query()
from rdflib import Graph
ld = Graph().parse(data=resp.response.read(), format='json-ld')
assert 'application/ld+json' in resp.info()['content-type']
print(json.dumps({'json': js, 'xml': xml, 'only2': only2, 'sizes': sizes, 'ttl': type(ttl).__name__, 'jsonld': len(ld)}))
`);
    const r = JSON.parse(out);
    expect(r.json).toEqual(['Alice', 'Anon', 'Bob']);
    expect(r.xml).toEqual(['Alice', 'Anon', 'Bob']);
    expect(r.only2).toEqual(['Alice', 'Bob']);
    expect(r.sizes).toEqual([6, 6]);
    expect(r.jsonld).toBe(6);
    expect(r.ttl).toBe('bytes');
  });
});
