import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { CRAWL_GRAPH, CRAWL_TERMS, recordToQuads } from '../../src/crawl-log/crawl-vocab.ts';
import { makeRecord } from '../sparql/fixture.ts';

const df = new DataFactory();

describe('recordToQuads', () => {
  it('describes the final document URL (the graph name) in the crawl graph with typed values', () => {
    const quads = recordToQuads(
      makeRecord({ url: 'http://ex.org/d0', finalUrl: 'http://ex.org/d', parent: 'http://ex.org/p', depth: 2, label: 'HR', rules: ['r1', 'r4'], redirects: [{ from: 'http://ex.org/d0', to: 'http://ex.org/d', status: 301 }] }),
      df,
    );
    expect(quads.every((q) => q.graph.equals(df.namedNode(CRAWL_GRAPH)))).toBe(true);
    const about = (p: string) => quads.filter((q) => q.subject.value === 'http://ex.org/d' && q.predicate.value === p).map((q) => q.object);
    expect(about(CRAWL_TERMS.fetchedAt)[0]?.equals(df.literal('2024-05-01T10:00:00.000Z', df.namedNode('http://www.w3.org/2001/XMLSchema#dateTime')))).toBe(true);
    expect(about(CRAWL_TERMS.parent)[0]?.equals(df.namedNode('http://ex.org/p'))).toBe(true);
    expect(about(CRAWL_TERMS.status)[0]?.equals(df.literal('200', df.namedNode('http://www.w3.org/2001/XMLSchema#integer')))).toBe(true);
    expect(about(CRAWL_TERMS.contentType)[0]?.value).toBe('text/turtle');
    expect(about(CRAWL_TERMS.depth)[0]?.value).toBe('2');
    expect(about(CRAWL_TERMS.predictedLabel)[0]?.value).toBe('HR');
    expect(about(CRAWL_TERMS.ruleFired).map((o) => o.value)).toEqual(['r1', 'r4']);
    expect(about(CRAWL_TERMS.requestedUrl)[0]?.equals(df.namedNode('http://ex.org/d0'))).toBe(true);
    expect(about(CRAWL_TERMS.redirectHops)[0]?.value).toBe('1');
    const hop = about(CRAWL_TERMS.redirect)[0];
    expect(hop?.value).toBe('urn:rdfscout:redirect:1:1');
    const hopStatus = quads.find((q) => q.subject.equals(hop ?? null) && q.predicate.value === CRAWL_TERMS.status);
    expect(hopStatus?.object.value).toBe('301');
  });

  it('omits absent values (no response, no parent, seed without label)', () => {
    const quads = recordToQuads(makeRecord({ status: null, contentType: null, detectedType: null, rdfFormat: null, outcome: 'failed', error: 'RDFSCOUT_CONNECT_TIMEOUT', errorMessage: 'timed out' }), df);
    const predicates = new Set(quads.map((q) => q.predicate.value));
    for (const absent of [CRAWL_TERMS.status, CRAWL_TERMS.contentType, CRAWL_TERMS.parent, CRAWL_TERMS.predictedLabel, CRAWL_TERMS.detectedType, CRAWL_TERMS.redirect]) expect(predicates.has(absent)).toBe(false);
    expect(quads.find((q) => q.predicate.value === CRAWL_TERMS.error)?.object.value).toBe('RDFSCOUT_CONNECT_TIMEOUT');
    expect(quads.find((q) => q.predicate.value === CRAWL_TERMS.outcome)?.object.value).toBe('failed');
  });
});
