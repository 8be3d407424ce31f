// The CLI's main with crawl probes, for tests that stop a crawl child at a point or log its send gate (run-cli.ts
// starts it): `node cli-with-probes.ts '<ProbeSpec JSON>' crawl ARGS…`. The `rdfscout` a user runs has no probes.
import { main } from '../../src/commands/main.ts';
import { quietOnEpipe } from '../../src/commands/stdout.ts';
import { probesFrom } from './probes.ts';

const [spec = '{}', ...argv] = process.argv.slice(2);
quietOnEpipe(process.stdout);
process.exitCode = await main(argv, { probes: probesFrom(JSON.parse(spec)) });
