// Differential SPARQL: 200 generated queries over generated crawls, answered by rdfscout (one folder, two shards, HTTP) and by Comunica over an N3 store of the export.
import { beforeAll, expect, it } from 'vitest';
import { type CaseFailure, runCases } from './differential/run-cases.ts';

/** Fixed, so that npm test is repeatable; `npm run test:sparql-differential -- --cases 5000` draws a new seed each run. */
const SEED = 20_261_128;
const show = (f: CaseFailure): string => `seed ${f.seed} case ${f.caseSeed} [${f.where}] ${f.sparql}\n  ${f.detail}`;
/** A case whose rdfscout answer did not come within its time limit (the engine stalled), as opposed to a wrong answer. */
const stalled = (f: CaseFailure): boolean => /time limit|no answer within|aborted due to timeout|HTTP 503/.test(f.detail);

let failures: CaseFailure[] = [];
let ran = 0;
beforeAll(async () => {
  ({ failures, ran } = await runCases({ seed: SEED, cases: 200 }));
}, 300_000);

it('answers 200 generated queries as the reference does; export, SPARQL and stats count the same quads', () => {
  expect(ran).toBe(200);
  expect(failures.filter((f) => !stalled(f)).map(show), `rerun: node test/sparql/differential/cli.ts --seed ${SEED} --cases 200`).toEqual([]);
});

// A stall is its own failure: every iterator the query source hands out must end only once read (lazy-source.test.ts).
it('answers every generated query within its time limit', () => {
  expect(failures.filter(stalled).map(show)).toEqual([]);
});
