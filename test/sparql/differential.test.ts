// Differential SPARQL: 200 generated queries over generated crawls, answered by rdfscout (one folder, two shards, HTTP) and by Comunica over an N3 store of the export.
import { expect, it } from 'vitest';
import { runCases } from './differential/run-cases.ts';

/** Fixed, so that npm test is repeatable; `npm run test:sparql-differential -- --cases 5000` draws a new seed each run. */
const SEED = 20_261_128;

it('answers 200 generated queries as the reference does, each under its time limit; export, SPARQL and stats count the same quads', async () => {
  const lines: string[] = [];
  const { ran } = await runCases({ seed: SEED, cases: 200, onFailure: (f) => lines.push(`seed ${f.seed} case ${f.caseSeed} [${f.where}] ${f.sparql}\n  ${f.detail}`) });
  expect(ran).toBe(200);
  expect(lines, `rerun: node test/sparql/differential/cli.ts --seed ${SEED} --cases 200`).toEqual([]);
}, 240_000);
