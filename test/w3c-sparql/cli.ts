// npm run test:w3c-sparql [-- --only PREFIX] [-- --write-baseline]: runs the W3C SPARQL 1.1 query-evaluation tests and prints the pass table and every failure.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readSuite } from './manifest.ts';
import { baselineOf, passTable } from './report.ts';
import { runSuite } from './run-suite.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = arg('only');
const started = Date.now();
const tests = (await readSuite()).filter((t) => only === undefined || t.id.startsWith(only));
console.log(`W3C SPARQL 1.1 query evaluation: ${tests.length} tests, each in two dataset modes (crawl, dataset)`);
const outcomes = await runSuite(tests, (o) => {
  if (o.detail !== null) console.log(`FAIL [${o.mode}] ${o.id}: ${o.detail}`);
});
console.log(`\n${passTable(outcomes)}\n(${Math.round((Date.now() - started) / 1000)} s)`);
if (process.argv.includes('--write-baseline')) {
  const file = join(import.meta.dirname, 'baseline.json');
  await writeFile(file, `${JSON.stringify(baselineOf(outcomes), null, 2)}\n`);
  console.log(`wrote ${file}`);
}
process.exit(0);
