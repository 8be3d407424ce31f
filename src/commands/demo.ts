// **rdfscout demo**: the main job on the embedded default — a simulated Linked-Data web crawled focused vs
// breadth-first at the same budget, against the oracle, then one SPARQL query over what was found.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler } from '../crawl/crawler.ts';
import { readRecords } from '../crawl-log/record-store.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import { writeReport } from '../report/index.ts';
import type { CrawlSummary } from '../crawl-log/tally.ts';
import { ArgumentError } from '../errors.ts';
import { type SimWeb, oracleCurve, startSimweb } from '../simweb/index.ts';
import { renderTable } from '../metrics/index.ts';
import { formatResult, runQuery } from '../sparql/index.ts';
import { type FlagSpec, intFlag, parseFlags, strFlag } from './args.ts';

export const DEMO_USAGE = `Usage: rdfscout demo [--profile thesis] [--seed 7] [--scale 0.5] [--budget 400] [--keep DIR]

Starts a simulated Linked-Data web on 127.0.0.1, crawls every site with the focused crawler (fc-r+hr) and with
breadth-first (bfs) at the same budget per site, prints RDF documents found, harvest rate and the oracle (the best
any crawler could do with that many fetches) side by side, then runs a SPARQL query over the focused crawl.

  --profile P     simulated web profile(s) (default thesis: dbtune-, openlylocal-, deri- and rossetti-like sites)
  --seed S        generator seed (default 7)
  --scale X       web size factor (default 0.5)
  --budget N      fetches per site (PLD) for each crawler (default 400)
  --keep DIR      keep the two crawls in DIR/fc-r+hr and DIR/bfs (default: a temporary folder, removed)`;

export const DEMO_FLAGS: FlagSpec = {
  profile: { type: 'string' },
  seed: { type: 'string' },
  scale: { type: 'string' },
  budget: { type: 'string' },
  keep: { type: 'string' },
};

const STRATEGIES = [
  { name: 'fc-r+hr', title: 'focused (fc-r+hr)' },
  { name: 'bfs', title: 'breadth-first (bfs)' },
] as const;

const DEMO_QUERY = `SELECT ?class (COUNT(DISTINCT ?s) AS ?things) (COUNT(DISTINCT ?doc) AS ?documents)
WHERE { GRAPH ?doc { ?s a ?class } FILTER(?doc != <urn:rdfscout:crawl>) }
GROUP BY ?class ORDER BY DESC(?things) LIMIT 8`;

interface Row {
  title: string;
  summary: CrawlSummary;
  oracle: number;
  records: CrawlRecord[];
}

export async function runDemoCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, DEMO_FLAGS, DEMO_USAGE);
  const scale = Number(strFlag(values, 'scale') ?? '0.5');
  if (!(scale > 0)) throw new ArgumentError('--scale must be a positive number.');
  const seed = intFlag(values, 'seed', 0) ?? 7;
  const budget = intFlag(values, 'budget', 1) ?? 400;
  const profiles = strFlag(values, 'profile') ?? 'thesis';
  const keep = strFlag(values, 'keep');
  const base = keep ?? (await mkdtemp(join(tmpdir(), 'rdfscout-demo-')));
  const out = (s: string) => process.stdout.write(s);

  const started = performance.now();
  const web = await startSimweb({ profiles, seed, scale });
  try {
    const truth = web.truth();
    const rdfTotal = truth.filter((t) => t.label === 'R').length;
    out(
      `rdfscout demo — simulated web "${profiles}" (seed ${seed}, scale ${scale}) on ${web.proxyUrl}\n` +
        `${web.sites.length} sites, ${truth.length} URLs, ${rdfTotal} RDF documents. Budget: ${budget} fetches per site, 5 at a time.\n\n`,
    );
    const rows: Row[] = [];
    for (const s of STRATEGIES) {
      const dir = join(base, s.name);
      await rm(dir, { recursive: true, force: true });
      const crawler = await Crawler.open({
        out: dir,
        seeds: web.sites.map((site) => site.startUrl),
        strategy: s.name,
        proxy: web.proxyUrl,
        delayMs: 0,
        concurrency: 5,
        hostConcurrency: 2,
        maxDocsPerPld: budget,
        maxDocs: budget * web.sites.length,
        maxLinksPerDoc: 500,
      });
      const t0 = performance.now();
      out(`  crawling with ${s.title} …`);
      let summary: CrawlSummary;
      const records: CrawlRecord[] = [];
      try {
        summary = await crawler.run();
        for await (const r of readRecords(crawler.state)) records.push(r);
      } finally {
        await crawler.close();
      }
      out(` ${summary.fetched} fetches in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
      rows.push({ title: s.title, summary, oracle: oracleAt(web, summary), records });
    }
    out(`\n${formatComparison(rows)}\n`);
    out(`\nPer site (RDF documents found, focused / breadth-first / oracle at the same fetches; pages with embedded RDF not counted):\n`);
    for (const site of web.sites) {
      const f = rows[0]!.summary.perPld[site.pld];
      const b = rows[1]!.summary.perPld[site.pld];
      const k = f?.fetched ?? 0;
      const oracle = oracleCurve(web, k, { hosts: [site.host] })[k] ?? 0;
      out(`  ${site.host.padEnd(28)} ${String(f?.rdfDocuments ?? 0).padStart(6)} / ${String(b?.rdfDocuments ?? 0).padStart(6)} / ${String(oracle).padStart(6)}   (${site.profile})\n`);
    }

    out(`\nSPARQL over the focused crawl (the classes of things found, and in how many documents):\n${indent(DEMO_QUERY)}\n\n`);
    const crawler = await Crawler.open({ out: join(base, 'fc-r+hr') });
    try {
      const result = await runQuery(crawler.state, DEMO_QUERY, { timeoutMs: 30_000 });
      for await (const chunk of formatResult(result, 'table')) out(indent(chunk));
    } finally {
      await crawler.close();
    }
    // The report: both harvest curves and the oracle's (over every site) on one plot, and the rest.
    const reportPath = join(keep ?? tmpdir(), keep ? 'report.html' : `rdfscout-demo-report-${process.pid}.html`);
    const most = Math.max(...rows.map((r) => r.records.length));
    const oracle = oracleCurve(web, most).slice(1, most + 1);
    await writeReport(reportPath, rows.map((r) => ({ name: r.title, records: r.records })), {
      title: `rdfscout demo: focused vs breadth-first on the simulated web "${profiles}" (seed ${seed})`,
      references: [{ name: 'oracle', curve: oracle }],
    });
    out(`\nReport with the harvest curves: ${reportPath}\n`);
    out(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    out(keep ? ` The crawls are in ${base}/fc-r+hr and ${base}/bfs (try: rdfscout stats ${base}/fc-r+hr).\n` : '\n');
  } finally {
    await web.close();
    if (!keep) await rm(base, { recursive: true, force: true });
  }
  return 0;
}

/** The oracle's RDF documents with the same number of fetches per site as this crawl made. */
function oracleAt(web: SimWeb, summary: CrawlSummary): number {
  let total = 0;
  for (const site of web.sites) {
    const k = summary.perPld[site.pld]?.fetched ?? 0;
    total += oracleCurve(web, k, { hosts: [site.host] })[k] ?? 0;
  }
  return total;
}

function formatComparison(rows: Row[]): string {
  const header = ['crawler', 'fetched', 'RDF docs', 'harvest rate', 'oracle', '% of oracle', 'triples', 'errors'];
  const cells = rows.map((r) => [
    r.title,
    String(r.summary.fetched),
    String(r.summary.rdfDocuments),
    `${(r.summary.harvestRate * 100).toFixed(1)}%`,
    String(r.oracle),
    r.oracle === 0 ? '-' : `${((r.summary.rdfDocuments / r.oracle) * 100).toFixed(0)}%`,
    String(r.summary.triples),
    String(r.summary.errors),
  ]);
  const ratio = rows[1]!.summary.rdfDocuments === 0 ? '∞' : (rows[0]!.summary.rdfDocuments / rows[1]!.summary.rdfDocuments).toFixed(1);
  return `${indent(renderTable(header, cells))}\n\n  The focused crawler found ${ratio}× the RDF documents of breadth-first with the same fetches.`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n');
}
