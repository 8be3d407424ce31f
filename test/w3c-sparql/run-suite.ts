// Runs the W3C SPARQL 1.1 query-evaluation tests with rdfscout: each test's data in a real crawl folder, its query through runQuery.
import { readFile } from 'node:fs/promises';
import type { Quad, Term } from '@rdfjs/types';
import { stageDocuments } from '../../src/rdf/index.ts';
import { formatResult } from '../../src/sparql/format-results.ts';
import { type QueryResult, runQuery } from '../../src/sparql/query-engine.ts';
import { openState } from '../../src/state/open-state.ts';
import { makeTempDir } from '../helpers/temp-state.ts';
import { compareAnswers } from './compare.ts';
import { type Answer, parseCsv, parseJsonResults, parseTsv, readExpected, readRdf, type Row } from './expected.ts';
import { localPath, type W3cTest } from './manifest.ts';

/**
 * How the dataset is given:
 * - `crawl`: rdfscout's own dataset, as after loading the files as documents: every data file is a named graph (named
 *   by its IRI) and the default graph is the merge of all of them (README "SPARQL semantics");
 * - `dataset`: the test's dataset named in the request (SPARQL 1.1 Protocol default-graph-uri = qt:data, named-graph-uri
 *   = qt:graphData), unless the query has its own FROM / FROM NAMED: the W3C's semantics, over the same store.
 */
export type Mode = 'crawl' | 'dataset';
export const MODES: readonly Mode[] = ['crawl', 'dataset'];

/** One test's outcome in one mode: null detail = passed. */
export interface Outcome {
  id: string;
  category: string;
  mode: Mode;
  detail: string | null;
}

/** Per-query time limit (ms). */
const TIMEOUT_MS = 10_000;

/** Runs `tests` (each loaded once, queried in every mode); `onOutcome` is told of each result as it comes. */
export async function runSuite(tests: readonly W3cTest[], onOutcome?: (o: Outcome) => void): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const test of tests) {
    for (const o of await runTest(test)) {
      outcomes.push(o);
      onOutcome?.(o);
    }
  }
  return outcomes;
}

async function runTest(test: W3cTest): Promise<Outcome[]> {
  const tmp = await makeTempDir();
  const state = await openState(tmp.dir);
  try {
    const df = state.dataFactory;
    const txn = state.txn();
    for (const file of new Set([...test.data, ...test.graphData])) {
      const quads = (await readRdf(file)).map((q) => df.quad(q.subject, q.predicate, q.object, df.namedNode(file)));
      stageDocuments(state, txn, quads);
    }
    await txn.commit();
    await state.indexer.flush();
    const sparql = await readFile(localPath(test.query), 'utf8');
    const want = await readExpected(test.result);
    const ordered = /ORDER\s+BY/i.test(sparql);
    const ownDataset = /\bFROM\s+(NAMED\s+)?</i.test(sparql);
    const outcomes: Outcome[] = [];
    for (const mode of MODES) {
      const dataset = mode === 'dataset' && !ownDataset ? { defaultGraphs: test.data, namedGraphs: test.graphData } : undefined;
      let detail: string | null;
      try {
        const result = await runQuery(state, sparql, { baseIri: test.query, timeoutMs: TIMEOUT_MS, ...(dataset ? { dataset } : {}) });
        detail = compareAnswers(await answerOf(result, test.result), want, ordered);
      } catch (err) {
        detail = `failed: ${(err as Error).message.split('\n')[0]}`;
      }
      outcomes.push({ id: test.id, category: test.category, mode, detail });
    }
    return outcomes;
  } finally {
    await state.close();
    await tmp.remove();
  }
}

/**
 * rdfscout's answer, in the form of the expected file: JSON, TSV and CSV results go through rdfscout's own
 * serialisers (format-results.ts) and are parsed back, so those tests check the writers too.
 */
async function answerOf(result: QueryResult, expectedIri: string): Promise<Answer> {
  const written = async (format: 'json' | 'tsv' | 'csv'): Promise<string> => {
    let text = '';
    for await (const chunk of formatResult(result, format)) text += chunk;
    return text;
  };
  if (expectedIri.endsWith('.srj')) return parseJsonResults(await written('json'));
  if (expectedIri.endsWith('.tsv')) return parseTsv(await written('tsv'));
  if (expectedIri.endsWith('.csv')) return parseCsv(await written('csv'));
  if (result.kind === 'boolean') return { kind: 'boolean', value: result.value };
  if (result.kind === 'quads') {
    const quads: Quad[] = [];
    for await (const q of result.quads) quads.push(q);
    return { kind: 'graph', quads };
  }
  const rows: Row[] = [];
  for await (const row of result.rows) rows.push({ ...(row as Record<string, Term>) });
  return { kind: 'rows', rows };
}
