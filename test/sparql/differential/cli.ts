// npm run test:sparql-differential -- --cases N [--seed S]: runs N generated cases and prints every disagreement with its seed.
import { runCases } from './run-cases.ts';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const seed = arg('seed', Math.floor(Math.random() * 1e6));
const cases = arg('cases', 200);
const started = Date.now();
console.log(`differential SPARQL: ${cases} cases from seed ${seed}`);
const r = await runCases({
  seed,
  cases,
  onFailure: (f) => console.log(`FAIL world seed ${f.seed} case ${f.caseSeed} [${f.where}] ${f.sparql}\n  ${f.detail}`),
  onCase: (n) => {
    if (n % 50 === 0) console.log(`${n} cases, ${Math.round((Date.now() - started) / 1000)} s`);
  },
});
console.log(`${r.ran} cases, ${r.failures.length} disagreements, ${Math.round((Date.now() - started) / 1000)} s (seed ${seed})`);
process.exit(r.failures.length === 0 ? 0 : 1);
