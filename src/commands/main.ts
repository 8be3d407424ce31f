// **main**: parses the command name of `rdfscout …` and hands the rest to that command (src/cli.ts runs it).
import { didYouMean } from './args.ts';
import { isOutputClosed } from './stdout.ts';
import type { CrawlProbes } from '../crawl/probes.ts';
import { ArgumentError, RdfscoutError } from '../errors.ts';

const USAGE = `rdfscout — a focused Linked Data crawler

Usage: rdfscout <command> [options]     (rdfscout <command> --help for its options)

  crawl SEED… --out DIR     crawl, predicting RDF links before fetching; resumes if DIR has a crawl
                            (with --redis URL: one worker of a crawl shared through Redis)
  status --redis URL        the shared progress of a distributed crawl, per worker and in total
  export DIR…               all stored quads as N-Quads on stdout
  docs DIR…                 crawl records as JSON lines, in fetch order
  stats DIR…                a human summary of a crawl
  metrics DIR…              harvest rate, precision per label and rule (thesis §9)
  query DIR… 'SPARQL'       run a SPARQL query over a crawl
  serve DIR…                a SPARQL 1.1 endpoint over a crawl
  links DIR…                BeeBot's internal / external / bad links tables
                            (several DIRs: a distributed crawl's shards, read as one crawl)
  reparse OUT --warc FILE…  rebuild a store from WARC files (crawl --warc), fetching nothing
  report DIR… -o FILE       one self-contained HTML report with harvest plots of one or more crawls
  simweb serve|truth        the bundled simulated Linked-Data web
  demo                      crawl a simulated web focused vs breadth-first, side by side`;

/** What the caller of {@link main} gives the commands besides their arguments (the `rdfscout` binary: nothing). */
export interface CommandContext {
  /** Points a test can stop or watch a crawl at (test/helpers/cli-with-probes.ts); none by default. */
  probes?: CrawlProbes;
}

type Command = (argv: string[], context: CommandContext) => Promise<number>;

/** Each command's module is loaded only when it runs: a start pays for the modules of its own command. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  crawl: async () => (await import('./crawl.ts')).runCrawlCommand,
  export: async () => (await import('./read-commands.ts')).runExportCommand,
  docs: async () => (await import('./read-commands.ts')).runDocsCommand,
  stats: async () => (await import('./read-commands.ts')).runStatsCommand,
  status: async () => (await import('./status.ts')).runStatusCommand,
  query: async () => (await import('./sparql.ts')).runQueryCommand,
  serve: async () => (await import('./sparql.ts')).runServeCommand,
  simweb: async () => (await import('./simweb.ts')).runSimwebCommand,
  demo: async () => (await import('./demo.ts')).runDemoCommand,
  metrics: async () => (await import('./metrics.ts')).runMetricsCommand,
  links: async () => {
    const { runLinksCommand } = await import('./links.ts');
    return (argv) => runLinksCommand(argv);
  },
  report: async () => (await import('./report.ts')).runReportCommand,
  reparse: async () => (await import('./reparse.ts')).runReparseCommand,
};

/** Runs `rdfscout ...argv`: the exit code; what the command prints goes to stdout and stderr. */
export async function main(argv: string[], context: CommandContext = {}): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    process.stdout.write('rdfscout 0.1.0\n');
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`rdfscout: unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))}; rdfscout --help lists the commands.\n`);
    return 2;
  }
  try {
    return await (await load())(rest, context);
  } catch (err) {
    if (isOutputClosed(err)) return 0; // `rdfscout docs DIR | head`: the reader has what it wanted
    if (err instanceof ArgumentError) {
      const line = err.message.split('\n')[0]?.replace(/\.$/, '');
      process.stderr.write(`rdfscout ${name}: ${line}; rdfscout ${name} --help lists its options.\n`);
      return 2;
    }
    if (err instanceof RdfscoutError) {
      process.stderr.write(`rdfscout ${name}: ${err.message} [${err.code}]\n`);
      return err.code === 'RDFSCOUT_INVALID_ARGUMENT' || err.code === 'RDFSCOUT_RESUME_CONFLICT' ? 2 : 1;
    }
    throw err;
  }
}
