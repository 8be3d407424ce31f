// SPARQL and export over two shards read as one crawl: a document stored in both comes from the later
// fetch, the default graph stays a set across shards, the crawl graph shows one record per URL.
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageRecordWrite } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { planShardMerge, type ShardSet } from '../../src/crawl-log/shard-merge.ts';
import { exportNQuads, stageDocument } from '../../src/rdf/index.ts';
import { termToNt } from '../../src/sparql/format-results.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const P = 'http://ex.org/p';
const record = (seq: number, url: string, at: string, triples: number, redirects: CrawlRecord['redirects'] = []): CrawlRecord => ({
  seq, url, finalUrl: url, status: 200, outcome: 'ok', contentType: 'text/turtle', detectedType: 'rdf', rdfFormat: 'text/turtle',
  parent: null, depth: 0, pld: 'ex.org', triples, linksQueued: 0, error: null, errorMessage: null, label: null, rules: [],
  redirects, ms: 1, fetchedAt: `2026-01-01T00:00:${at}.000Z`,
});

let tmp: string;
let states: CrawlState[];
let set: ShardSet;

/** Stores documents (graph → [subject, object] pairs) and their records in a new shard. */
async function shard(name: string, docs: Array<{ rec: CrawlRecord; triples: Array<[string, string]> }>): Promise<CrawlState> {
  const state = await openState(join(tmp, name));
  const df = state.dataFactory;
  const txn = state.txn();
  for (const { rec, triples } of docs) {
    rec.triples = stageDocument(state, txn, rec.url, triples.map(([s, o]) => df.quad(df.namedNode(s), df.namedNode(P), df.literal(o))));
    stageRecordWrite(state, txn, rec);
  }
  await txn.commit();
  await state.indexer.flush();
  return state;
}

const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  tmp = folder.dir;
  const hop: CrawlRecord['redirects'] = [{ from: 'http://ex.org/old-s0', to: 'http://ex.org/s0', status: 301 }];
  states = [
    await shard('a', [
      { rec: record(1, 'http://ex.org/d1', '01', 0), triples: [['http://ex.org/x', 'old']] },
      { rec: record(2, 'http://ex.org/s0', '02', 0, hop), triples: [['http://ex.org/shared', 'same'], ['http://ex.org/only0', 'zero']] },
    ]),
    await shard('b', [
      { rec: record(1, 'http://ex.org/d1', '05', 0), triples: [['http://ex.org/x', 'new']] },
      { rec: record(2, 'http://ex.org/s1', '03', 0), triples: [['http://ex.org/shared', 'same'], ['http://ex.org/only1', 'one']] },
    ]),
  ];
  set = { states, plan: await planShardMerge(states) };
}, 60_000);

afterAll(async () => {
  for (const s of states ?? []) await s.close();
});

async function rows(sparql: string): Promise<string[]> {
  const r = await runQuery(set, sparql);
  if (r.kind !== 'bindings') throw new Error(`expected bindings, got ${r.kind}`);
  const out: string[] = [];
  for await (const row of r.rows) out.push(r.variables.map((v) => (row[v] ? termToNt(row[v]) : '')).join(' '));
  return out.sort();
}

describe('two shards read as one crawl', () => {
  it('plans one record for the URL fetched in both (the later) and the document from that shard', () => {
    expect(set.plan.refetched).toBe(1);
    expect(set.plan.dropped.map((s) => [...s])).toEqual([[1], []]);
    expect(set.plan.excluded.map((s) => [...s])).toEqual([['http://ex.org/d1'], []]);
  });

  it('answers a named graph from the winning shard only', async () => {
    expect(await rows('SELECT ?o WHERE { GRAPH <http://ex.org/d1> { ?s ?p ?o } }')).toEqual(['"new"']);
    expect(await rows('SELECT ?g ?o WHERE { GRAPH ?g { <http://ex.org/x> ?p ?o } }')).toEqual(['<http://ex.org/d1> "new"']);
  }, 60_000);

  it('keeps the default graph a set across shards, whatever index answers the pattern', async () => {
    expect(await rows('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')).toEqual(['"4"^^<http://www.w3.org/2001/XMLSchema#integer>']);
    expect(await rows('SELECT ?s WHERE { ?s ?p "same" }')).toEqual(['<http://ex.org/shared>']);
    expect(await rows(`SELECT ?s ?o WHERE { ?s <${P}> ?o }`)).toEqual([
      '<http://ex.org/only0> "zero"',
      '<http://ex.org/only1> "one"',
      '<http://ex.org/shared> "same"',
      '<http://ex.org/x> "new"',
    ]);
    // Each document still shows its own triples: the shared triple in both documents.
    expect(await rows('SELECT ?g WHERE { GRAPH ?g { <http://ex.org/shared> ?p ?o } }')).toEqual(['<http://ex.org/s0>', '<http://ex.org/s1>']);
  }, 60_000);

  it('shows the merged records in the crawl graph, redirect hops named by shard', async () => {
    const q = `PREFIX rs: <https://w3id.org/rdfscout/ns#> PREFIX prov: <http://www.w3.org/ns/prov#>
      SELECT ?t WHERE { GRAPH <urn:rdfscout:crawl> { ?d rs:requestedUrl <http://ex.org/d1> ; prov:generatedAtTime ?t } }`;
    expect(await rows(q)).toEqual(['"2026-01-01T00:00:05.000Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>']);
    const hop = 'PREFIX rs: <https://w3id.org/rdfscout/ns#> SELECT ?h ?from WHERE { GRAPH <urn:rdfscout:crawl> { <http://ex.org/s0> rs:redirect ?h . ?h rs:redirectFrom ?from } }';
    expect(await rows(hop)).toEqual(['<urn:rdfscout:redirect:1/2:1> <http://ex.org/old-s0>']);
    expect(await rows('PREFIX rs: <https://w3id.org/rdfscout/ns#> SELECT ?from WHERE { GRAPH <urn:rdfscout:crawl> { <urn:rdfscout:redirect:1/2:1> rs:redirectFrom ?from } }')).toEqual(['<http://ex.org/old-s0>']);
    expect(await rows('SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { GRAPH <urn:rdfscout:crawl> { ?d a <https://w3id.org/rdfscout/ns#CrawledDocument> } }')).toEqual([
      '"3"^^<http://www.w3.org/2001/XMLSchema#integer>',
    ]);
  }, 60_000);

  it('exports each document once, from the winning shard', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => {
      text += c.toString();
    });
    const n = await exportNQuads(set, out);
    expect(n).toBe(5);
    expect(text).toContain('"new" <http://ex.org/d1> .');
    expect(text).not.toContain('"old"');
  });
});
