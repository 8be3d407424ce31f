// Result columns: the projection's order; SELECT *: the order of first appearance in the query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionOrder } from '../../src/sparql/projection-order.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import { type Fixture, makeFixture, PREFIXES } from './fixture.ts';

describe('projectionOrder', () => {
  it('orders SELECT * by first appearance, skipping comments, strings and IRIs', () => {
    expect(projectionOrder('SELECT * WHERE { ?s ?p ?o }', ['o', 'p', 's'])).toEqual(['s', 'p', 'o']);
    expect(projectionOrder('PREFIX x: <http://x/?o> # ?p first?\nSELECT DISTINCT * { ?b "?a" ?a . $c x:p ?b }', ['a', 'b', 'c'])).toEqual(['b', 'a', 'c']);
    expect(projectionOrder("SELECT * { ?z ?y '''?x''' FILTER(?z < 3) BIND(1 AS ?w) }", ['w', 'y', 'z'])).toEqual(['z', 'y', 'w']);
  });

  it('keeps an explicit projection as the engine gives it', () => {
    expect(projectionOrder('SELECT ?o ?s WHERE { ?s ?p ?o }', ['o', 's'])).toEqual(['o', 's']);
    expect(projectionOrder('SELECT (COUNT(*) AS ?n) { SELECT * { ?a ?b ?c } }', ['n'])).toEqual(['n']);
  });
});

describe('runQuery columns', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await makeFixture();
  });
  afterAll(async () => {
    await fx.cleanup();
  });

  it('SELECT * { ?s ?p ?o } has the columns s, p, o', async () => {
    for (const [q, want] of [
      ['SELECT * WHERE { ?s ?p ?o } LIMIT 1', ['s', 'p', 'o']],
      ['SELECT * WHERE { GRAPH ?g { ?s foaf:name ?name } }', ['g', 's', 'name']],
      ['SELECT ?name ?s WHERE { ?s foaf:name ?name }', ['name', 's']],
    ] as const) {
      const r = await runQuery(fx.state, PREFIXES + q);
      if (r.kind !== 'bindings') throw new Error('expected bindings');
      r.close();
      expect(r.variables, q).toEqual(want);
    }
  });
});
