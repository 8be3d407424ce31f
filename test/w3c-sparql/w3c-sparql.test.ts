// The W3C SPARQL 1.1 query-evaluation tests: every test that passed when the baseline was written still passes, in both dataset modes.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFactory } from 'rdf-data-factory';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareAnswers } from './compare.ts';
import { readSuite } from './manifest.ts';
import { type Baseline, passTable } from './report.ts';
import { MODES, type Outcome, runSuite } from './run-suite.ts';

const df = new DataFactory();
let outcomes: Outcome[] = [];
let baseline: Baseline;

beforeAll(async () => {
  baseline = JSON.parse(await readFile(join(import.meta.dirname, 'baseline.json'), 'utf8')) as Baseline;
  outcomes = await runSuite(await readSuite());
  console.log(passTable(outcomes));
}, 240_000);

describe('the W3C SPARQL 1.1 query-evaluation tests', () => {
  for (const mode of MODES) {
    it(`keeps passing every test of the baseline (${mode} dataset)`, () => {
      const failing = new Map(outcomes.filter((o) => o.mode === mode && o.detail !== null).map((o) => [o.id, o.detail]));
      const regressed = baseline[mode].filter((id) => failing.has(id) || !outcomes.some((o) => o.mode === mode && o.id === id)).map((id) => `${id}: ${failing.get(id) ?? 'not run'}`);
      expect(regressed, 'tests of test/w3c-sparql/baseline.json that fail now (npm run test:w3c-sparql lists them)').toEqual([]);
      expect(baseline[mode].length).toBeGreaterThan(200);
    });
  }
});

describe('the comparison', () => {
  const row = (o: Record<string, ReturnType<typeof df.namedNode> | ReturnType<typeof df.blankNode> | ReturnType<typeof df.literal>>) => o;
  const rows = (...r: ReturnType<typeof row>[]) => ({ kind: 'rows' as const, rows: r });
  const a = df.namedNode('http://ex.org/a');
  const b = df.namedNode('http://ex.org/b');

  it('matches blank nodes up to a renaming, one to one', () => {
    const want = rows(row({ x: df.blankNode('w1'), y: a }), row({ x: df.blankNode('w2'), y: b }));
    expect(compareAnswers(rows(row({ x: df.blankNode('g9'), y: b }), row({ x: df.blankNode('g8'), y: a })), want, false)).toBeNull();
    // one blank node of ours for two of theirs is not a renaming
    expect(compareAnswers(rows(row({ x: df.blankNode('g'), y: a }), row({ x: df.blankNode('g'), y: b })), want, false)).not.toBeNull();
  });

  it('counts repeated rows, checks order under ORDER BY, and tells unbound from bound', () => {
    expect(compareAnswers(rows(row({ x: a }), row({ x: a })), rows(row({ x: a })), false)).not.toBeNull();
    expect(compareAnswers(rows(row({ x: b }), row({ x: a })), rows(row({ x: a }), row({ x: b })), false)).toBeNull();
    expect(compareAnswers(rows(row({ x: b }), row({ x: a })), rows(row({ x: a }), row({ x: b })), true)).not.toBeNull();
    expect(compareAnswers(rows(row({})), rows(row({ x: a })), false)).not.toBeNull();
  });

  it('compares a double by value, a string by its characters', () => {
    const dbl = (v: string) => df.literal(v, df.namedNode('http://www.w3.org/2001/XMLSchema#double'));
    expect(compareAnswers(rows(row({ x: dbl('2E-1') })), rows(row({ x: dbl('2.0E-1') })), false)).toBeNull();
    expect(compareAnswers(rows(row({ x: df.literal('1.0') })), rows(row({ x: df.literal('1') })), false)).not.toBeNull();
  });
});
