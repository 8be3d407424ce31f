// **rdfscout metrics**: the thesis's metrics of a finished crawl (harvest, precision per label, rule support/confidence; thesis §9).
import { readFile, writeFile } from 'node:fs/promises';
import { readMergedRecords } from '../crawl-log/shard-merge.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import { ArgumentError } from '../errors.ts';
import { computeMetrics, formatHarvestCsv, formatMetricsTables, parseTruth, type TruthMap } from '../metrics/index.ts';
import { type FlagSpec, parseFlags, strFlag } from './args.ts';
import { requireFolders, withShards } from './open-crawl.ts';
import { SHARDS_NOTE } from './read-commands.ts';
import { writeOut as write } from './stdout.ts';

export const METRICS_USAGE = `Usage: rdfscout metrics DIR… [--truth FILE] [--json] [--csv FILE]

The thesis's metrics (§9) of the crawl in DIR, from its own records: harvest rate, fetch outcomes (Table 4-3),
documents and RDF per depth (Table 4-5), precision per predicted label (Table 4-6), support and confidence of
each rule (Figure 4-1).
${SHARDS_NOTE}

  --truth FILE   true labels from a ground-truth file: JSON lines {"url": …, "label": "R|HR|H|N"} (what
                 \`rdfscout simweb truth\` writes), a JSON object {url: label}, or lines "url label".
                 Without it, true labels come from the records (HR = parent of a fetched RDF document).
  --json         print every figure as one JSON object (the harvest curve included) instead of tables
  --csv FILE     write the harvest curve (RDF documents after k fetches) to FILE as CSV`;

export const METRICS_FLAGS: FlagSpec = { truth: { type: 'string' }, json: { type: 'boolean' }, csv: { type: 'string' } };

/** Reads a ground-truth file; a missing or unreadable file, or one without a single label, is an argument error. */
export async function loadTruth(path: string): Promise<TruthMap> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ArgumentError(`Cannot read the truth file ${path}: ${(err as Error).message}`);
  }
  let truth: Map<string, unknown>;
  try {
    truth = parseTruth(text);
  } catch (err) {
    throw new ArgumentError(`The truth file ${path} is not JSON lines, a JSON object or "url label" lines: ${(err as Error).message}`);
  }
  if (truth.size === 0) {
    throw new ArgumentError(`The truth file ${path} holds no labelled URL (labels are R, HR, H or N).`);
  }
  return truth as TruthMap;
}

/** `rdfscout metrics DIR [--truth FILE] [--json] [--csv FILE]`; resolves with the exit code. */
export async function runMetricsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, METRICS_FLAGS, METRICS_USAGE);
  const dirs = requireFolders(positionals);
  const truthPath = strFlag(values, 'truth');
  const csvPath = strFlag(values, 'csv');
  const truth = truthPath === undefined ? undefined : await loadTruth(truthPath);

  const records: CrawlRecord[] = [];
  const refetched = await withShards(dirs, async ({ set }) => {
    for await (const { record } of readMergedRecords(set)) records.push(record);
    return set.plan.refetched;
  });
  if (records.length === 0) {
    process.stderr.write(`rdfscout metrics: ${dirs.join(', ')} holds no crawl records (nothing fetched yet, or not a crawl folder).\n`);
  }

  const metrics = computeMetrics(records, truth);
  metrics.figures.refetched = refetched;
  if (csvPath !== undefined) await writeFile(csvPath, formatHarvestCsv(metrics));
  if (values.json) {
    await write(`${JSON.stringify(metrics)}\n`);
  } else {
    await write(formatMetricsTables(metrics));
  }
  return 0;
}
