// A generated crawl split over two and three shards (namespace ids differing per shard, older copies of some documents
// in another shard) answers every query as the same crawl in one folder does.
import type { Quad } from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planShardMerge, type ShardSet } from '../../src/crawl-log/shard-merge.ts';
import { termToNt } from '../../src/sparql/format-results.ts';
import { runQuery } from '../../src/sparql/query-engine.ts';
import { SeenTriples } from '../../src/sparql/seen-triples.ts';
import { ShardStores } from '../../src/sparql/shard-stores.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { type ShardedCrawl, writeShardedCrawl } from '../helpers/shard-data.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';

const V = (i: number): string => `http://vocab${i}.example.org/ns/`;
const doc = (i: number): string => `http://site${i % 40}.example.org/doc/${i}`;

let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let crawls: ShardedCrawl[];
let single: CrawlState;
let top: string;
const sets = new Map<number, ShardSet>();
const opened: CrawlState[] = [];

beforeAll(async () => {
  tmp = await makeTempDir();
  const options = { seed: 5, documents: 160, triplesPerDocument: 40 };
  crawls = [
    await writeShardedCrawl(`${tmp.dir}/two`, { ...options, shards: 2 }),
    await writeShardedCrawl(`${tmp.dir}/three`, { ...options, shards: 3, single: false }),
  ];
  single = await openState((crawls[0] as ShardedCrawl).single);
  opened.push(single);
  for (const crawl of crawls) {
    const states = [];
    for (const dir of crawl.shards) states.push(await openState(dir));
    opened.push(...states);
    sets.set(states.length, { states, plan: await planShardMerge(states) });
  }
  const [most] = await rows(single, `SELECT ?o WHERE { ?s ?p ?o FILTER(STRSTARTS(STR(?o), "http://vocab")) } GROUP BY ?o ORDER BY DESC(COUNT(*)) ?o LIMIT 1`);
  top = (most as string).slice(1, -1);
}, 120_000);

afterAll(async () => {
  for (const s of opened) await s.close();
  await tmp?.remove();
});

async function rows(source: CrawlState | ShardSet, sparql: string): Promise<string[]> {
  const r = await runQuery(source, sparql);
  if (r.kind !== 'bindings') throw new Error(`expected bindings, got ${r.kind}`);
  const out: string[] = [];
  for await (const row of r.rows) out.push(r.variables.map((v) => (row[v] ? termToNt(row[v]) : '')).join(' '));
  return out.sort();
}

/** The queries, given the IRI most triples have as object. */
const queries = (top: string): Record<string, string> => ({
  'COUNT(*) of the default graph': 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }',
  'every triple of the default graph': 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }',
  'quads per named graph': 'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g',
  'a bound predicate (POGS)': `SELECT ?s ?p ?o WHERE { VALUES ?p { <${V(3)}p1> <${V(5)}q2> <${V(7)}p4> } ?s ?p ?o }`,
  'a bound object (OGSP)': `SELECT ?s ?p WHERE { ?s ?p <${top}> }`,
  'subjects bound by a join (many small merges)': 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o . ?o ?q ?x }',
  'distinct subjects': 'SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s ?p ?o }',
  'FROM graphs, two with an older copy in another shard': `SELECT ?s ?p ?o FROM <${doc(0)}> FROM <${doc(1)}> FROM <${doc(10)}> FROM <${doc(13)}> WHERE { ?s ?p ?o }`,
  'FROM NAMED graphs': `SELECT ?g ?s ?p ?o FROM NAMED <${doc(0)}> FROM NAMED <${doc(20)}> FROM NAMED <${doc(21)}> WHERE { GRAPH ?g { ?s ?p ?o } }`,
  'a graph stored in two shards': `SELECT ?s ?p ?o WHERE { GRAPH <${doc(30)}> { ?s ?p ?o } }`,
});
const NAMES = Object.keys(queries(''));

describe.each([2, 3])('%i shards read as one', (k) => {
  it.each(NAMES)('%s', async (name) => {
    const sparql = queries(top)[name] as string;
    const expected = await rows(single, sparql);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.join('\n')).not.toMatch(/^"0"\^\^/m); // no empty count: the query reads something
    expect(await rows(sets.get(k) as ShardSet, sparql)).toEqual(expected);
  }, 60_000);

  it('keeps the default graph a set when nearly every triple is a possible repeat (a filter far too small)', async () => {
    const set = sets.get(k) as ShardSet;
    const stores = new ShardStores(set, () => {}, () => new SeenTriples({ exact: 16, bits: 1024 }));
    let n = 0;
    for await (const _ of stores.merged(undefined, undefined, undefined, () => true) as unknown as AsyncIterable<Quad>) n++;
    expect(n).toBe((crawls[0] as ShardedCrawl).triples);
  }, 60_000);
});
