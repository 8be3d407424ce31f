// **rdfscout report**: one self-contained HTML report (harvest curve, per-PLD bars, precision, rules, pulls, errors) of one or more crawls.
import { ArgumentError } from '../errors.ts';
import { loadReportCrawl, writeReport } from '../report/index.ts';
import { type FlagSpec, parseFlags, strFlag } from './args.ts';
import { loadTruth } from './metrics.ts';

export const REPORT_USAGE = `Usage: rdfscout report DIR… -o report.html [--title TEXT] [--truth FILE]

Writes one HTML file that opens without network: the harvest curve of every crawl on one plot (thesis Fig. 4-1),
RDF documents per PLD, precision per predicted label (R / HR / H), the relevance rules' support and confidence,
pulls per bandit arm over the crawl, and errors by kind. Each chart also lists its plotted values.

  -o, --out FILE   where to write the report (required)
  --title TEXT     the report's title (default "rdfscout crawl report")
  --truth FILE     true labels for precision (see rdfscout metrics --help)`;

export const REPORT_FLAGS: FlagSpec = { out: { type: 'string', short: 'o' }, title: { type: 'string' }, truth: { type: 'string' } };

export async function runReportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, REPORT_FLAGS, REPORT_USAGE);
  const out = strFlag(values, 'out');
  if (!out) throw new ArgumentError(`-o report.html is required.\n\n${REPORT_USAGE}`);
  if (positionals.length === 0) throw new ArgumentError(`Give at least one crawl folder.\n\n${REPORT_USAGE}`);
  const truthPath = strFlag(values, 'truth');
  const truth = truthPath === undefined ? undefined : await loadTruth(truthPath);
  const crawls = [];
  for (const dir of positionals) crawls.push({ ...(await loadReportCrawl(dir)), ...(truth ? { truth } : {}) });
  const title = strFlag(values, 'title');
  const bytes = await writeReport(out, crawls, title ? { title } : {});
  process.stderr.write(`Report of ${crawls.length} crawl(s), ${crawls.reduce((n, c) => n + c.records.length, 0)} records: ${out} (${Math.round(bytes / 1024)} KiB)\n`);
  return 0;
}
