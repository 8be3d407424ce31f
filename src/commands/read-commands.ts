// **rdfscout export | docs | stats**: read a crawl's state (no crawling).
import { DeadOrigins } from '../crawl-log/dead-origins.ts';
import { ContextStore } from '../crawl/context-store.ts';
import { createPolicy } from '../bandit/index.ts';
import type { ArmStats } from '../bandit/types.ts';
import { readStoredOptions } from '../crawl/crawl-meta.ts';
import { loadBanditSnapshot } from '../crawl/learned-store.ts';
import { readMergedRecords } from '../crawl-log/shard-merge.ts';
import { CrawlTally } from '../crawl-log/tally.ts';
import { readVoidPoints, type VoidPoint } from '../crawl-log/void-facts.ts';
import { exportNQuads } from '../rdf/index.ts';
import { boolFlag, type FlagSpec, parseFlags } from './args.ts';
import { requireFolders, withShards } from './open-crawl.ts';
import { OutputClosedError, writeOut as write } from './stdout.ts';

/** How every read command's usage says that several folders read as one crawl (README "Reading several shards"). */
export const SHARDS_NOTE = `Several folders (a distributed crawl's shards) are read as one crawl: a URL fetched in several is one
record, the latest; a document stored in several is taken from the shard of its latest fetch.`;

export const EXPORT_USAGE = `Usage: rdfscout export DIR… [--with-crawl-graph]

Writes every stored quad as N-Quads to standard output (graph = document URL). Stored triples that are not valid
RDF (a relative IRI, a rdf:langString without a language) are left out and reported on stderr.
${SHARDS_NOTE}

  --with-crawl-graph   also write the crawl metadata, graph <urn:rdfscout:crawl> (left out by default)`;

export const DOCS_USAGE = `Usage: rdfscout docs DIR…

Writes the crawl records as JSON lines in fetch order: seq, url, finalUrl, status, contentType, detectedType,
parent, depth, pld, triples, error, ms, label, rules, …
${SHARDS_NOTE} Each line then also names its folder (shard); seq counts within it.`;

export const STATS_USAGE = `Usage: rdfscout stats DIR… [--json]

A summary of the crawl in DIR: documents, RDF found, harvest rate, statuses, PLDs, bandit arms.
${SHARDS_NOTE} refetched counts such URLs.`;

export const EXPORT_FLAGS: FlagSpec = { 'with-crawl-graph': { type: 'boolean' } };

export const DOCS_FLAGS: FlagSpec = {};

export async function runExportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, EXPORT_FLAGS, EXPORT_USAGE);
  const dirs = requireFolders(positionals);
  const withCrawlGraph = boolFlag(values, 'with-crawl-graph') ?? false;
  const declined: Array<{ graph: string; line: string; reason: string }> = [];
  const count = await withShards(dirs, async ({ set }) => {
    if ((process.stdout as { destroyed?: boolean }).destroyed) throw new OutputClosedError();
    return exportNQuads(set, process.stdout, { withCrawlGraph, onInvalid: (d) => declined.push(d) });
  });
  process.stderr.write(`${count} quads exported.\n`);
  if (declined.length > 0) {
    // Stored by an older version (or a parser that let them through): not RDF, so not exported; the store keeps them.
    process.stderr.write(`${declined.length} stored triples are not valid RDF and were left out, e.g.:\n`);
    for (const d of declined.slice(0, 5)) process.stderr.write(`  ${d.reason} (in <${d.graph}>): ${d.line.slice(0, 200)}\n`);
  }
  return 0;
}

export async function runDocsCommand(argv: string[]): Promise<number> {
  const { positionals } = parseFlags(argv, DOCS_FLAGS, DOCS_USAGE);
  const dirs = requireFolders(positionals);
  await withShards(dirs, async ({ set }) => {
    const multi = dirs.length > 1;
    for await (const { shard, record } of readMergedRecords(set)) await write(`${JSON.stringify(multi ? { ...record, shard: dirs[shard] } : record)}\n`);
  });
  return 0;
}

export const STATS_FLAGS: FlagSpec = { json: { type: 'boolean' } };

export async function runStatsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, STATS_FLAGS, STATS_USAGE);
  const dirs = requireFolders(positionals);
  await withShards(dirs, async ({ set }) => {
    const tally = new CrawlTally();
    const dead = new DeadOrigins();
    let first: string | null = null;
    let last: string | null = null;
    for await (const { record: r } of readMergedRecords(set)) {
      tally.add(r);
      dead.add(r);
      first ??= r.fetchedAt;
      last = r.fetchedAt;
    }
    const state = set.states[0] as (typeof set.states)[number];
    const options = await readStoredOptions(state);
    // The bandit of one process (a distributed crawl keeps its arms in Redis, not in the shards).
    const bandit = dirs.length === 1 ? await loadBanditSnapshot(state) : undefined;
    // VoID access points the crawl met (void:dataDump, void:sparqlEndpoint), of every shard.
    const voidPoints = await unionVoidPoints(set.states);
    // The stop reason of a past run is not stored: only the figures are printed.
    const { stoppedBy: _s, resumed: _r, ...counts } = tally.summary(first && last ? Date.parse(last) - Date.parse(first) : 0, 'frontier-empty', false);
    const contexts = { fetched: 0, failed: 0 };
    for (const st of set.states) {
      const c = await new ContextStore(st).counts();
      contexts.fetched += c.fetched;
      contexts.failed += c.failed;
    }
    const deadOrigins = dead.list();
    const figures = { ...counts, refetched: set.plan.refetched, contexts, deadOrigins };
    if (values.json) {
      await write(`${JSON.stringify({ ...figures, options: options ?? null, bandit: banditArms(options, bandit), void: voidPoints })}\n`);
      return;
    }
    const lines: string[] = [];
    lines.push(dirs.length === 1 ? `Crawl in ${dirs[0]}` : `Crawl in ${dirs.join(', ')} (${dirs.length} shards read as one crawl)`);
    if (options) {
      lines.push(`  strategy ${String(options.strategy)}, bandit ${String(options.bandit)}, budget --max-docs ${String(options.maxDocs)}, --max-docs-per-pld ${String(options.maxDocsPerPld)}`);
    }
    lines.push(`  fetched            ${figures.fetched}  (requests sent; ${figures.denied} more refused by robots.txt, not fetched)`);
    lines.push(`  RDF documents      ${figures.rdfDocuments}  (harvest rate ${(figures.harvestRate * 100).toFixed(2)}%; ${figures.rdfDetected} detected as RDF, these kept ≥ 1 triple)`);
    lines.push(`  HTML with RDF      ${figures.embeddedDocuments}`);
    lines.push(`  triples            ${figures.triples}`);
    if (figures.statementsDropped > 0 || figures.termsRepaired > 0) {
      lines.push(`  dropped            ${figures.statementsDropped} statements in ${figures.documentsWithDrops} documents (syntax errors, undefined prefixes, invalid terms; \`docs\` lists each); ${figures.termsRepaired} terms repaired`);
    }
    if (figures.linksBeyondCap > 0) {
      lines.push(`  links cut          ${figures.linksBeyondCap} links beyond --max-links-per-doc on ${figures.documentsWithLinksCut} documents not followed (\`docs\` lists each: linksBeyondCap)`);
    }
    lines.push(`  errors             ${figures.errors}  (HTTP error or no response; ${figures.parseFailures} more answered but could not be read)`);
    lines.push(`  redirected         ${figures.redirected}`);
    lines.push(`  JSON-LD contexts   ${contexts.fetched} fetched, ${contexts.failed} failed  (remote contexts the documents needed, counted apart from them)`);
    if (dirs.length > 1) lines.push(`  refetched          ${figures.refetched}  (URLs fetched more than once; the latest record of each is counted)`);
    lines.push(`  by status          ${Object.entries(figures.byStatus).map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    lines.push('', '  PLD                                fetched      RDF   triples  errors');
    for (const [pld, t] of Object.entries(figures.perPld)) {
      lines.push(`  ${pld.padEnd(34)} ${String(t.fetched).padStart(7)} ${String(t.rdfDocuments).padStart(8)} ${String(t.triples).padStart(9)} ${String(t.errors).padStart(7)}`);
    }
    if (deadOrigins.length > 0) {
      lines.push('', '  origins that gave no answer (their last fetches failed with no response; --retry-failed on a resume tries them again):');
      for (const d of deadOrigins.slice(0, 20)) lines.push(`    ${d.origin}   ${d.failures} failure${d.failures === 1 ? '' : 's'}${d.answeredBefore ? ', answered earlier' : ''}: ${d.reason.slice(0, 120)}`);
      if (deadOrigins.length > 20) lines.push(`    … and ${deadOrigins.length - 20} more (--json lists them all)`);
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

/** The VoID access points of every shard, each URL once (the first shard's finder). */
async function unionVoidPoints(states: readonly Parameters<typeof readVoidPoints>[0][]): Promise<{ dumps: VoidPoint[]; endpoints: VoidPoint[] }> {
  const dumps = new Map<string, VoidPoint>();
  const endpoints = new Map<string, VoidPoint>();
  for (const state of states) {
    const points = await readVoidPoints(state);
    for (const p of points.dumps) if (!dumps.has(p.url)) dumps.set(p.url, p);
    for (const p of points.endpoints) if (!endpoints.has(p.url)) endpoints.set(p.url, p);
  }
  const sorted = (m: Map<string, VoidPoint>) => [...m.values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return { dumps: sorted(dumps), endpoints: sorted(endpoints) };
}

/** Per-arm figures of the crawl's bandit: the policy restored from its saved snapshot, asked for its stats. */
function banditArms(options: Record<string, unknown> | undefined, snapshot: unknown): ArmStats[] {
  const name = options?.bandit;
  if (typeof name !== 'string' || name === 'none' || snapshot === undefined || snapshot === null) return [];
  const policy = createPolicy(name, { seed: typeof options?.seed === 'number' ? options.seed : 1 });
  policy.restore(snapshot);
  return policy.stats().sort((a, b) => b.pulls - a.pulls);
}
