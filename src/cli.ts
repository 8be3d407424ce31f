// **rdfscout** command line: runs the command its arguments name (src/commands/main.ts).
import { main } from './commands/main.ts';
import { quietOnEpipe } from './commands/stdout.ts';

quietOnEpipe(process.stdout);
process.exitCode = await main(process.argv.slice(2));
