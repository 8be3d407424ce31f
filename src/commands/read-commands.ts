// **rdfscout export | docs | stats**: read a crawl's state (no crawling).
import { createPolicy } from '../bandit/index.ts';
import type { ArmStats } from '../bandit/types.ts';
import { loadBanditSnapshot } from '../crawl/bandit-state.ts';
import { readRecords } from '../crawl/records.ts';
import { CrawlTally } from '../crawl/summary.ts';
import { exportNQuads } from '../rdf/index.ts';
import { boolFlag, type FlagSpec, parseFlags, requirePositional } from './args.ts';
import { withCrawl } from './open-crawl.ts';
import { OutputClosedError, writeOut as write } from './stdout.ts';

export const EXPORT_USAGE = `Usage: rdfscout export DIR [--with-crawl-graph]

Writes every stored quad as N-Quads to standard output (graph = document URL).

  --with-crawl-graph   also write the crawl metadata, graph <urn:rdfscout:crawl> (left out by default)`;

export const DOCS_USAGE = `Usage: rdfscout docs DIR

Writes the crawl records as JSON lines in fetch order: seq, url, finalUrl, status, contentType, detectedType,
parent, depth, pld, triples, error, ms, label, rules, …`;

export const STATS_USAGE = `Usage: rdfscout stats DIR [--json]

A summary of the crawl in DIR: documents, RDF found, harvest rate, statuses, PLDs, bandit arms.`;

export async function runExportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, { 'with-crawl-graph': { type: 'boolean' } }, EXPORT_USAGE);
  const dir = requirePositional(positionals, 'the crawl folder DIR');
  const withCrawlGraph = boolFlag(values, 'with-crawl-graph') ?? false;
  const count = await withCrawl(dir, async (state) => {
    if ((process.stdout as { destroyed?: boolean }).destroyed) throw new OutputClosedError();
    return exportNQuads(state, process.stdout, { withCrawlGraph });
  });
  process.stderr.write(`${count} quads exported.\n`);
  return 0;
}

export async function runDocsCommand(argv: string[]): Promise<number> {
  const { positionals } = parseFlags(argv, {}, DOCS_USAGE);
  const dir = requirePositional(positionals, 'the crawl folder DIR');
  await withCrawl(dir, async (state) => {
    for await (const r of readRecords(state)) await write(`${JSON.stringify(r)}\n`);
  });
  return 0;
}

const STATS_FLAGS: FlagSpec = { json: { type: 'boolean' } };

export async function runStatsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, STATS_FLAGS, STATS_USAGE);
  const dir = requirePositional(positionals, 'the crawl folder DIR');
  await withCrawl(dir, async (state) => {
    const tally = new CrawlTally();
    let first: string | null = null;
    let last: string | null = null;
    for await (const r of readRecords(state)) {
      tally.add(r);
      first ??= r.fetchedAt;
      last = r.fetchedAt;
    }
    const options = (await state.sub.meta.get('options')) as Record<string, unknown> | undefined;
    const bandit = await loadBanditSnapshot(state);
    // VoID access points the crawl met (void:dataDump, void:sparqlEndpoint).
    const voidPoints: { dumps: unknown[]; endpoints: unknown[] } = { dumps: [], endpoints: [] };
    for await (const [key, value] of state.sub.meta.iterator({ gte: 'void!', lt: 'void!~' })) {
      (String(key).startsWith('void!dump!') ? voidPoints.dumps : voidPoints.endpoints).push(value);
    }
    // The stop reason of a past run is not stored: only the figures are printed.
    const { stoppedBy: _s, resumed: _r, ...figures } = tally.summary(first && last ? Date.parse(last) - Date.parse(first) : 0, 'frontier-empty', false);
    if (values.json) {
      await write(`${JSON.stringify({ ...figures, options: options ?? null, bandit: banditArms(options, bandit), void: voidPoints })}\n`);
      return;
    }
    const lines: string[] = [];
    lines.push(`Crawl in ${dir}`);
    if (options) {
      lines.push(`  strategy ${String(options.strategy)}, bandit ${String(options.bandit)}, budget --max-docs ${String(options.maxDocs)}, --max-docs-per-pld ${String(options.maxDocsPerPld)}`);
    }
    lines.push(`  fetched            ${figures.fetched}  (requests sent; ${figures.denied} more refused by robots.txt, not fetched)`);
    lines.push(`  RDF documents      ${figures.rdfDocuments}  (harvest rate ${(figures.harvestRate * 100).toFixed(2)}%)`);
    lines.push(`  HTML with RDF      ${figures.embeddedDocuments}`);
    lines.push(`  triples            ${figures.triples}`);
    lines.push(`  errors             ${figures.errors}  (HTTP error or no response; ${figures.parseFailures} more answered but could not be read)`);
    lines.push(`  redirected         ${figures.redirected}`);
    lines.push(`  by status          ${Object.entries(figures.byStatus).map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    lines.push('', '  PLD                                fetched      RDF   triples  errors');
    for (const [pld, t] of Object.entries(figures.perPld)) {
      lines.push(`  ${pld.padEnd(34)} ${String(t.fetched).padStart(7)} ${String(t.rdfDocuments).padStart(8)} ${String(t.triples).padStart(9)} ${String(t.errors).padStart(7)}`);
    }
    for (const [title, list] of [['VoID data dumps', voidPoints.dumps], ['VoID SPARQL endpoints', voidPoints.endpoints]] as const) {
      if (list.length === 0) continue;
      lines.push('', `  ${title}:`);
      for (const v of list as Array<{ url: string; foundIn: string }>) lines.push(`    ${v.url}   (stated in ${v.foundIn})`);
    }
    const arms = banditArms(options, bandit);
    if (arms.length > 0) {
      lines.push('', '  bandit arm                           pulls   mean reward   index');
      for (const a of arms) {
        lines.push(`  ${a.arm.padEnd(34)} ${String(a.pulls).padStart(7)} ${a.meanReward.toFixed(4).padStart(13)} ${Number.isFinite(a.index) ? a.index.toFixed(4).padStart(7) : '      -'}`);
      }
    }
    await write(`${lines.join('\n')}\n`);
  });
  return 0;
}

/** Per-arm figures of the crawl's bandit: the policy restored from its saved snapshot, asked for its stats. */
function banditArms(options: Record<string, unknown> | undefined, snapshot: unknown): ArmStats[] {
  const name = options?.bandit;
  if (typeof name !== 'string' || name === 'none' || snapshot === undefined || snapshot === null) return [];
  const policy = createPolicy(name, { seed: typeof options?.seed === 'number' ? options.seed : 1 });
  policy.restore(snapshot);
  return policy.stats().sort((a, b) => b.pulls - a.pulls);
}
