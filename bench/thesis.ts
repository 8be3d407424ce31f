// Replicates the thesis's experiment (thesis §11) on the simulated web: each thesis-like PLD crawled by all five crawlers.
//
// Usage: node bench/thesis.ts [--seeds 3] [--seed-base 1] [--budget 2000] [--scale 1] [--out bench/results/thesis]
//                             [--profiles held-out]   (profile names or meta-profiles: held-out, tuning, thesis, …)
//                             [--strategies bfs,fc-r+hr,yield] (also fc-r,fc-r2,fc-r+hr2,topical,topical+hr)
//                             [--concurrency 5] [--host-concurrency 5]
//
// Issue 17: the headline figures are on the held-out profiles (never tuned on; the split is printed first). The
// oracle may ask a content-negotiated URL for its HTML variant too (the yield strategy can), so it is an upper
// bound for every crawler here. Precision of R and HR is shown against the pattern ceiling: the best precision a
// URL-template predictor reaches at the same number of predictions (src/metrics/pattern-ceiling.ts). The pattern
// oracle (src/simweb/pattern-oracle.ts) is the crawl analogue: a best-first crawl by each URL template's true value.
//
// Per generator seed and profile, one simulated site is served and crawled separately by each crawler with at most
// `budget` documents (thesis: 2000 per PLD), 500 links per document and 5 concurrent fetches, all to that one PLD
// (`--host-concurrency 5`: the thesis's 5 threads worked on one PLD at a time). The site's Crawl-delay is served as 0
// (the simulated web answers in microseconds; the politeness delay would only add idle time, not change the order).
// Prints Table 4-4 (RDF found, harvest, ratio to BC, fraction of the oracle at the same k), Table 4-3 (merged fetch
// outcomes), Table 4-5 (depths), Table 4-6 (precision per label of FC-R+HR) and Figure 4-1 (rule support /
// confidence), and writes harvest curves (CSV) and every figure (JSON) under --out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CrawlRecord } from '../src/crawl-log/record.ts';
import { type CrawlMetrics, LABELS, computeMetrics, isRdfDocument, outcomeOf, renderTable } from '../src/metrics/index.ts';
import type { Label } from '../src/relevance/types.ts';
import { type CeilingItem, patternCeiling } from '../src/metrics/pattern-ceiling.ts';
import { HELD_OUT_PROFILES, META_PROFILES, TUNING_PROFILES, oracleCurve, patternOracleCurve, startSimweb } from '../src/simweb/index.ts';
import { type ReportCrawlInput, writeReport } from '../src/report/index.ts';
import { runCrawl } from '../test/helpers/run-crawl.ts';
import { type Spread, formatPercent, formatSpread, ratioOrNull, spreadOf } from './lib/stats.ts';

// Display names: the thesis's five crawlers (Table 4-2), the topical agent (topical §3) and its hybrid with FC-R+HR
//, and the learned link yield. `--strategies` picks any of them.
const DISPLAY: Record<string, string> = {
  bfs: 'BC',
  'fc-r+hr': 'FC-R+HR',
  'fc-r': 'FC-R',
  'fc-r2': 'FC-R2',
  'fc-r+hr2': 'FC-R+HR2',
  topical: 'TOPICAL',
  'topical+hr': 'TOPICAL+HR',
  yield: 'YIELD',
};
/** The headline comparison of issue 17: breadth-first, the thesis's proposed crawler, the learned link yield. */
const HEADLINE = ['bfs', 'fc-r+hr', 'yield'];
const RULES_R = ['ex1', 'ty1', 'ti1', 'an1', 'co1', 'ty2', 'ti2', 'an2', 'co2', 'pa1'];
const RULES_HR = ['r1', 'r2'];

/** One crawl's figures (plain JSON). */
interface RunResult {
  profile: string;
  seed: number;
  strategy: string;
  host: string;
  siteDocuments: number;
  /** Fetch attempts (the budget spent). */
  fetches: number;
  /** Status-200 documents (thesis §9 N). */
  n: number;
  nRdf: number;
  /** RDF documents of the site (truth R, status 200). */
  siteRdf: number;
  /** HTTP requests made: one per record plus one per redirect hop (shown; not the comparison's unit). */
  requests: number;
  /**
   * The oracle's RDF documents after as many fetches as this crawl made: the oracle (oracleCurve, followsRedirects on)
   * counts a followed redirect chain as one fetch, as the crawl's budget does. Until session 10 it was read at the
   * crawl's HTTP requests (redirect hops counted), which gave it extra fetches on sites that redirect (ontology-like:
   * ~1.8×).
   */
  oracleAtK: number;
  /** The pattern oracle's (src/simweb/pattern-oracle.ts) at the same k. */
  patternAtK: number;
  ms: number;
  stoppedBy: string;
  metrics: Omit<CrawlMetrics, 'harvestCurve'>;
  /** Pattern ceiling of R and HR at this crawl's N_LS of each label. */
  ceiling: { R: number | null; HR: number | null };
  curve: number[];
  /** Unique URLs fetched, with their outcome, to merge the crawlers' graphs (Table 4-3). */
  outcomes: Map<string, { outcome: ReturnType<typeof outcomeOf>; rdf: boolean; depth: number }>;
}

function parseCli() {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: '3' },
      'seed-base': { type: 'string', default: '1' },
      budget: { type: 'string', default: '2000' },
      scale: { type: 'string', default: '1' },
      out: { type: 'string', default: 'bench/results/thesis' },
      profiles: { type: 'string', default: 'held-out' },
      strategies: { type: 'string', default: HEADLINE.join(',') },
      concurrency: { type: 'string', default: '5' },
      'host-concurrency': { type: 'string', default: '5' },
    },
  });
  return {
    seeds: Number(values.seeds),
    seedBase: Number(values['seed-base']),
    budget: Number(values.budget),
    scale: Number(values.scale),
    out: values.out!,
    profiles: values.profiles!.split(',').map((s) => s.trim()).filter(Boolean).flatMap((p) => META_PROFILES[p] ?? [p]),
    strategies: values.strategies!.split(',').map((s) => s.trim()).filter(Boolean),
    concurrency: Number(values.concurrency),
    hostConcurrency: Number(values['host-concurrency']),
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function crawlProfile(profile: string, seed: number, cli: ReturnType<typeof parseCli>): Promise<{ runs: RunResult[]; oracle: number[]; pattern: number[] }> {
  const web = await startSimweb({ profiles: profile, seed, scale: cli.scale, crawlDelay: 0 });
  try {
    const site = web.sites[0]!;
    const truth = new Map<string, Label>();
    const ceilingItems: CeilingItem[] = [];
    let siteRdf = 0;
    for (const t of web.truth()) {
      truth.set(t.url, t.label);
      if (t.depth >= 0 && !t.disallowed) ceilingItems.push({ url: t.url, label: t.label, ok: t.status === 200 || (t.status >= 300 && t.status < 400 && t.label !== 'N') });
      if (t.label === 'R' && t.status === 200) siteRdf++;
    }
    // Both the oracle and the budget count a followed redirect chain as one fetch: compared at equal fetches.
    const oracle = oracleCurve(web, cli.budget * 4, { hosts: [site.host], htmlVariants: true });
    // Issue 17: what a crawler that knows each URL template's true value (not each page's) finds at k.
    const pattern = patternOracleCurve(web, cli.budget * 4, { hosts: [site.host], htmlVariants: true });
    const runs: RunResult[] = [];
    const reportCrawls: ReportCrawlInput[] = [];
    for (const strategy of cli.strategies) {
      const run = await runCrawl({
        seeds: [site.startUrl],
        proxy: web.proxyUrl,
        strategy,
        maxDocs: cli.budget,
        maxDocsPerPld: cli.budget,
        maxLinksPerDoc: 500,
        concurrency: cli.concurrency,
        hostConcurrency: cli.hostConcurrency,
      });
      const { harvestCurve, ...metrics } = computeMetrics(run.records, truth);
      if (seed === cli.seedBase) reportCrawls.push({ name: DISPLAY[strategy] ?? strategy, records: run.records, truth });
      const requests = run.records.reduce((a, r) => a + 1 + r.redirects.length, 0);
      const k = Math.min(metrics.fetched, oracle.length - 1);
      const result: RunResult = {
        profile,
        seed,
        strategy,
        host: site.host,
        siteDocuments: site.documents,
        fetches: metrics.fetched,
        n: metrics.n,
        nRdf: metrics.nRdf,
        siteRdf,
        requests,
        oracleAtK: oracle[k] ?? 0,
        patternAtK: pattern[k] ?? 0,
        ms: run.ms,
        stoppedBy: run.summary.stoppedBy,
        metrics,
        ceiling: {
          R: patternCeiling(ceilingItems, 'R', metrics.labels.find((l) => l.label === 'R')?.nLS ?? 0).precision,
          HR: patternCeiling(ceilingItems, 'HR', metrics.labels.find((l) => l.label === 'HR')?.nLS ?? 0).precision,
        },
        curve: harvestCurve,
        outcomes: outcomesOf(run.records),
      };
      runs.push(result);
      log(
        `  seed ${seed} ${profile.padEnd(17)} ${DISPLAY[strategy]?.padEnd(9) ?? strategy}: ${String(result.nRdf).padStart(5)} RDF / ${result.fetches} fetches` +
          ` (oracle ${result.oracleAtK}, pattern oracle ${result.patternAtK}, site ${siteRdf} RDF of ${site.documents} docs) in ${(run.ms / 1000).toFixed(1)} s`,
      );
    }
    if (reportCrawls.length > 0) {
      // One report per profile (first seed): every crawler on one harvest plot with the oracle.
      const file = join(cli.out, `report-${profile}.html`);
      await writeReport(file, reportCrawls, {
        title: `Thesis experiment: ${profile}, seed ${seed}, ${cli.budget} fetches`,
        note: 'The oracle, the pattern oracle and the crawlers are drawn against fetches (a followed redirect chain is one fetch).',
        references: [
          { name: 'oracle', curve: oracle.slice(1, cli.budget + 1) },
          { name: 'pattern oracle', curve: pattern.slice(1, cli.budget + 1) },
        ],
      });
      log(`  report: ${file}`);
    }
    return { runs, oracle, pattern };
  } finally {
    await web.close();
  }
}

function outcomesOf(records: readonly CrawlRecord[]): RunResult['outcomes'] {
  const map: RunResult['outcomes'] = new Map();
  for (const r of records) if (!map.has(r.url)) map.set(r.url, { outcome: outcomeOf(r), rdf: isRdfDocument(r), depth: r.depth });
  return map;
}

// ---------- aggregation ----------

const byKey = <T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> => {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
};

interface Cell {
  profile: string;
  strategy: string;
  rdf: Spread;
  harvestPerFetch: Spread;
  harvestRate: Spread;
  oracle: Spread;
  pattern: Spread;
  oracleFraction: Spread;
  ratioToBc: number | null;
  /** RDF documents after a quarter and half of the budget (the shape of the harvest curve, not only its end). */
  rdfAtQuarter: Spread;
  rdfAtHalf: Spread;
  requests: Spread;
  ms: Spread;
}

function aggregateCells(runs: readonly RunResult[], cli: ReturnType<typeof parseCli>): Cell[] {
  const groups = byKey(runs, (r) => `${r.profile}|${r.strategy}`);
  const cells: Cell[] = [];
  for (const profile of cli.profiles) {
    const bc = spreadOf((groups.get(`${profile}|bfs`) ?? []).map((r) => r.nRdf));
    for (const strategy of cli.strategies) {
      const g = groups.get(`${profile}|${strategy}`) ?? [];
      const rdf = spreadOf(g.map((r) => r.nRdf));
      cells.push({
        profile,
        strategy,
        rdf,
        harvestPerFetch: spreadOf(g.map((r) => r.nRdf / Math.max(1, r.fetches))),
        harvestRate: spreadOf(g.map((r) => r.metrics.okHarvestRate ?? 0)), // N_RDF / N (status-200 documents)
        oracle: spreadOf(g.map((r) => r.oracleAtK)),
        pattern: spreadOf(g.map((r) => r.patternAtK)),
        oracleFraction: spreadOf(g.map((r) => (r.oracleAtK === 0 ? 0 : r.nRdf / r.oracleAtK))),
        ratioToBc: bc.n === 0 ? null : ratioOrNull(rdf.mean, bc.mean),
        rdfAtQuarter: spreadOf(g.map((r) => curveAt(r.curve, Math.floor(cli.budget / 4)))),
        rdfAtHalf: spreadOf(g.map((r) => curveAt(r.curve, Math.floor(cli.budget / 2)))),
        requests: spreadOf(g.map((r) => r.requests)),
        ms: spreadOf(g.map((r) => r.ms)),
      });
    }
  }
  return cells;
}

/** RDF documents after k fetches (the last value when the crawl stopped earlier). */
function curveAt(curve: readonly number[], k: number): number {
  return curve.length === 0 ? 0 : (curve[Math.min(k, curve.length) - 1] ?? 0);
}

/** Label counts of one strategy in one profile, summed over seeds (pooled precision). */
function pooledLabels(runs: readonly RunResult[]) {
  return LABELS.map((label) => {
    let nL = 0;
    let nLS = 0;
    let nLT = 0;
    for (const r of runs) {
      const l = r.metrics.labels.find((x) => x.label === label)!;
      nL += l.nL;
      nLS += l.nLS;
      nLT += l.nLT;
    }
    return { label, nL, nLS, nLT, precision: ratioOrNull(nLT, nLS) };
  });
}

/** Support / confidence of each rule of one strategy in one profile, pooled over seeds. */
function pooledRules(runs: readonly RunResult[]) {
  const labels = pooledLabels(runs);
  const out: Array<{ rule: string; label: Label; nRLS: number; nRLT: number; support: number | null; confidence: number | null }> = [];
  const keys = new Map<string, { rule: string; label: Label; nRLS: number; nRLT: number }>();
  for (const r of runs) {
    for (const rm of r.metrics.rules) {
      const k = `${rm.label} ${rm.rule}`;
      const acc = keys.get(k) ?? { rule: rm.rule, label: rm.label, nRLS: 0, nRLT: 0 };
      acc.nRLS += rm.nRLS;
      acc.nRLT += rm.nRLT;
      keys.set(k, acc);
    }
  }
  for (const acc of keys.values()) {
    const nLT = labels.find((l) => l.label === acc.label)!.nLT;
    out.push({ ...acc, support: ratioOrNull(acc.nRLT, nLT), confidence: ratioOrNull(acc.nRLT, acc.nRLS) });
  }
  return out;
}

/** Table 4-3 over the merged crawl graph of all crawlers of one (profile, seed). */
function mergedOutcomes(runs: readonly RunResult[]) {
  const merged = new Map<string, { outcome: string; rdf: boolean; depth: number }>();
  for (const r of runs) for (const [url, o] of r.outcomes) if (!merged.has(url) || o.rdf) merged.set(url, o);
  const counts = { docs: merged.size, success: 0, redirect: 0, notAllowed: 0, error: 0, rdf: 0 };
  for (const o of merged.values()) {
    counts[o.outcome as 'success']++;
    if (o.rdf) counts.rdf++;
  }
  return { counts, merged };
}

// ---------- printing ----------

function printTables(runs: readonly RunResult[], cells: readonly Cell[], cli: ReturnType<typeof parseCli>): Record<string, unknown> {
  const out: string[] = [];
  const seedsText = `${cli.seeds} generator seed${cli.seeds === 1 ? '' : 's'} (${cli.seedBase}…${cli.seedBase + cli.seeds - 1}), mean ± sd`;
  const cell = (p: string, s: string) => cells.find((c) => c.profile === p && c.strategy === s);
  out.push(...headline(runs, cells, cli, seedsText));

  out.push(`Table 4-4 — RDF documents found with at most ${cli.budget} fetches per PLD; ${seedsText}`);
  const header = ['profile', ...cli.strategies.map((s) => DISPLAY[s] ?? s), 'oracle@k', 'site RDF'];
  const rows = cli.profiles.map((p) => {
    const siteRdf = spreadOf(runs.filter((r) => r.profile === p && r.strategy === cli.strategies[0]).map((r) => r.siteRdf));
    return [p, ...cli.strategies.map((s) => formatSpread(cell(p, s)!.rdf)), formatSpread(cell(p, cli.strategies[0]!)!.oracle), formatSpread(siteRdf)];
  });
  const totals = cli.strategies.map((s) => {
    const perSeed = [...byKey(runs.filter((r) => r.strategy === s), (r) => String(r.seed)).values()].map((g) => g.reduce((a, r) => a + r.nRdf, 0));
    return spreadOf(perSeed);
  });
  const fetchTotal = spreadOf([...byKey(runs.filter((r) => r.strategy === cli.strategies[0]), (r) => String(r.seed)).values()].map((g) => g.reduce((a, r) => a + r.fetches, 0)));
  rows.push(['total', ...totals.map((t) => formatSpread(t)), '', '']);
  rows.push([
    `harvest (of ${formatSpread(fetchTotal)} fetches)`,
    ...totals.map((t) => formatPercent(ratioOrNull(t.mean, fetchTotal.mean))),
    '',
    '',
  ]);
  out.push(renderTable(header, rows), '');

  out.push('Table 4-4 (detail) — per profile and crawler: @k = RDF found after k fetches, harvest = N_RDF / fetches, ×BC = ratio of mean N_RDF to BC,');
  out.push('%oracle = N_RDF / oracle(k) with k = fetches of the crawl (a followed redirect chain is one fetch, for the oracle too)');
  out.push(
    renderTable(
      ['profile', 'crawler', `@${Math.floor(cli.budget / 4)}`, `@${Math.floor(cli.budget / 2)}`, 'N_RDF', 'harvest', 'N_RDF/N', '×BC', 'requests', '%oracle', 's/crawl'],
      cells.map((c) => [
        c.profile,
        DISPLAY[c.strategy] ?? c.strategy,
        formatSpread(c.rdfAtQuarter),
        formatSpread(c.rdfAtHalf),
        formatSpread(c.rdf),
        formatPercent(c.harvestPerFetch.mean),
        formatPercent(c.harvestRate.mean),
        c.ratioToBc === null ? '–' : `${c.ratioToBc.toFixed(c.ratioToBc < 10 ? 2 : 0)}×`,
        c.requests.mean.toFixed(0),
        `${formatPercent(c.oracleFraction.mean)} ± ${(c.oracleFraction.sd * 100).toFixed(1)}`,
        (c.ms.mean / 1000).toFixed(1),
      ]),
    ),
    '',
  );

  out.push('Figure 4-2 — mean harvest rate over the profiles (N_RDF / N, N = status-200 documents; and N_RDF / fetches)');
  out.push(
    renderTable(
      ['crawler', 'N_RDF/N', 'N_RDF/fetches', '%oracle'],
      cli.strategies.map((s) => {
        const cs = cells.filter((c) => c.strategy === s);
        const m = (f: (c: Cell) => number) => cs.reduce((a, c) => a + f(c), 0) / cs.length;
        return [DISPLAY[s] ?? s, formatPercent(m((c) => c.harvestRate.mean), 2), formatPercent(m((c) => c.harvestPerFetch.mean), 2), formatPercent(m((c) => c.oracleFraction.mean))];
      }),
    ),
    '',
  );

  // Table 4-3 over the merged crawl graph (per seed, then mean over seeds).
  const table43: Record<string, unknown> = {};
  out.push(`Table 4-3 — fetch outcomes over the merged crawl graph of the ${cli.strategies.length} crawlers (unique URLs; mean over seeds)`);
  const rows43: string[][] = [];
  for (const p of cli.profiles) {
    const perSeed = [...byKey(runs.filter((r) => r.profile === p), (r) => String(r.seed)).values()].map((g) => mergedOutcomes(g).counts);
    const m = (k: keyof (typeof perSeed)[number]) => perSeed.reduce((a, c) => a + c[k], 0) / Math.max(1, perSeed.length);
    const share = (k: keyof (typeof perSeed)[number]) => `${Math.round(m(k))} (${Math.round((m(k) / Math.max(1, m('docs'))) * 100)}%)`;
    table43[p] = perSeed;
    rows43.push([p, `${Math.round(m('docs'))}`, share('success'), share('redirect'), share('notAllowed'), share('error'), `${Math.round(m('rdf'))}`]);
  }
  out.push(renderTable(['profile', 'docs', 'success', 'redirect', 'not allowed', 'error', 'RDF'], rows43), '');

  // Table 4-5: per depth, for the rossetti-like profile (thesis PLD 4) or the last one.
  const p45 = cli.profiles.includes('rossetti-like') ? 'rossetti-like' : cli.profiles[cli.profiles.length - 1]!;
  const depthOf = (s: string) => {
    const g = runs.filter((r) => r.profile === p45 && r.strategy === s);
    const m = new Map<number, { n: number; rdf: number }>();
    for (const r of g) for (const d of r.metrics.depths) {
      const acc = m.get(d.depth) ?? { n: 0, rdf: 0 };
      acc.n += d.n / g.length;
      acc.rdf += d.rdf / g.length;
      m.set(d.depth, acc);
    }
    return m;
  };
  const mergedDepth = new Map<number, { n: number; rdf: number }>();
  const seedsOf45 = [...byKey(runs.filter((r) => r.profile === p45), (r) => String(r.seed)).values()];
  for (const g of seedsOf45) for (const o of mergedOutcomes(g).merged.values()) {
    const acc = mergedDepth.get(o.depth) ?? { n: 0, rdf: 0 };
    acc.n += 1 / seedsOf45.length;
    if (o.rdf) acc.rdf += 1 / seedsOf45.length;
    mergedDepth.set(o.depth, acc);
  }
  const cols45 = cli.strategies.filter((s) => s === 'bfs' || s === 'fc-r+hr');
  const depth45 = cols45.map(depthOf);
  const allDepths = [...new Set([...mergedDepth.keys(), ...depth45.flatMap((m) => [...m.keys()])])].sort((a, b) => a - b);
  out.push(`Table 4-5 — ${p45}: documents fetched (N) and RDF found per depth (mean over seeds)`);
  out.push(
    renderTable(
      ['depth', 'merged N', 'merged RDF', ...cols45.flatMap((s) => [`${DISPLAY[s]} N`, `${DISPLAY[s]} RDF`])],
      allDepths.map((d) => [
        `${d}`,
        (mergedDepth.get(d)?.n ?? 0).toFixed(0),
        (mergedDepth.get(d)?.rdf ?? 0).toFixed(0),
        ...depth45.flatMap((m) => [(m.get(d)?.n ?? 0).toFixed(0), (m.get(d)?.rdf ?? 0).toFixed(0)]),
      ]),
    ),
    '',
  );

  // Table 4-6 and Figure 4-1 for every focused crawler that labels (FC-R+HR first, as the thesis reports).
  const precision: Record<string, unknown> = {};
  const rulesOut: Record<string, unknown> = {};
  for (const s of cli.strategies) {
    const perProfile = cli.profiles.map((p) => ({ p, labels: pooledLabels(runs.filter((r) => r.profile === p && r.strategy === s)), rules: pooledRules(runs.filter((r) => r.profile === p && r.strategy === s)) }));
    precision[s] = Object.fromEntries(perProfile.map((x) => [x.p, x.labels]));
    rulesOut[s] = Object.fromEntries(perProfile.map((x) => [x.p, x.rules]));
    if (s !== 'fc-r+hr') continue;
    out.push(`Table 4-6 — precision of ${DISPLAY[s]} per predicted label (N_L / N_LS / N_LT summed over seeds; truth = the simulated web's labels)`);
    const shown: Label[] = ['R', 'HR', 'H', 'N'];
    const meanPrec = (label: Label) => {
      const ps = perProfile.map((x) => x.labels.find((l) => l.label === label)!.precision).filter((v): v is number => v !== null);
      return ps.length === 0 ? null : ps.reduce((a, b) => a + b, 0) / ps.length;
    };
    out.push(
      renderTable(
        ['profile', ...shown.flatMap((l) => [`${l}: N_L / N_LS / N_LT`, `${l} prec.`])],
        [
          ...perProfile.map((x) => [
            x.p,
            ...shown.flatMap((l) => {
              const v = x.labels.find((y) => y.label === l)!;
              return [`${v.nL} / ${v.nLS} / ${v.nLT}`, formatPercent(v.precision, 2)];
            }),
          ]),
          ['mean', ...shown.flatMap((l) => ['', formatPercent(meanPrec(l), 2)])],
        ],
      ),
      '',
    );
    out.push(`Figure 4-1 — ${DISPLAY[s]}: support / confidence of each rule (%, pooled over seeds; mean over the profiles where it fired)`);
    const ruleRows: string[][] = [];
    for (const [label, names] of [['R', RULES_R], ['HR', RULES_HR]] as const) {
      for (const rule of names) {
        const per = perProfile.map((x) => x.rules.find((r) => r.rule === rule && r.label === label));
        const fired = per.filter((r): r is NonNullable<typeof r> => r !== undefined && r.nRLS > 0);
        const meanOf = (f: (r: (typeof fired)[number]) => number | null) => {
          const vs = fired.map(f).filter((v): v is number => v !== null);
          return vs.length === 0 ? null : vs.reduce((a, b) => a + b, 0) / vs.length;
        };
        // Thesis: support is averaged over all PLDs (a rule that never fired supports 0%); confidence where it fired.
        const supportAll = perProfile.map((_, i) => per[i]?.support ?? 0).reduce((a, b) => a + b, 0) / perProfile.length;
        ruleRows.push([
          rule,
          label,
          ...per.map((r) => (r === undefined || r.nRLS === 0 ? '– / –' : `${((r.support ?? 0) * 100).toFixed(1)} / ${((r.confidence ?? 0) * 100).toFixed(1)}`)),
          `${(supportAll * 100).toFixed(2)} / ${fired.length === 0 ? '–' : ((meanOf((r) => r.confidence) ?? 0) * 100).toFixed(2)}`,
        ]);
      }
    }
    out.push(renderTable(['rule', 'label', ...cli.profiles, 'mean sup / conf'], ruleRows), '');
  }

  process.stdout.write(`${out.join('\n')}\n`);
  return { table43, precision, rules: rulesOut, tablesText: out.join('\n') };
}

/** Issue 17's headline: RDF documents at equal fetches per profile and in total, and precision against the pattern ceiling. */
function headline(runs: readonly RunResult[], cells: readonly Cell[], cli: ReturnType<typeof parseCli>, seedsText: string): string[] {
  const out: string[] = [];
  const held = cli.profiles.filter((p) => HELD_OUT_PROFILES.includes(p));
  out.push(`Profiles — tuning (design and tuning only): ${TUNING_PROFILES.join(', ')}`);
  out.push(`           held-out (headline figures, never tuned on): ${HELD_OUT_PROFILES.join(', ')}`);
  out.push(`This run: ${cli.profiles.map((p) => `${p} (${HELD_OUT_PROFILES.includes(p) ? 'held-out' : 'tuning'})`).join(', ')}`, '');
  const cols = cli.strategies;
  const mean = (p: string, s: string) => cells.find((c) => c.profile === p && c.strategy === s)?.rdf.mean ?? 0;
  const refCell = (p: string) => cells.find((c) => c.profile === p && c.strategy === (cols.includes('yield') ? 'yield' : cols[0]));
  const oracleOf = (p: string) => refCell(p)?.oracle.mean ?? 0;
  const patternOf = (p: string) => refCell(p)?.pattern.mean ?? 0;
  const patternRows: string[][] = [];
  const rows: string[][] = [];
  const groups: Array<[string, string[]]> = [['held-out', held], ['tuning', cli.profiles.filter((p) => !held.includes(p))]];
  for (const [name, profiles] of groups) {
    if (profiles.length === 0) continue;
    for (const p of profiles) {
      rows.push([p, ...cols.map((s) => mean(p, s).toFixed(1)), oracleOf(p).toFixed(1), ...ratios(cols, (s) => mean(p, s), oracleOf(p))]);
      patternRows.push([p, oracleOf(p).toFixed(1), patternOf(p).toFixed(1), ...patternRatios(cols, (s) => mean(p, s), oracleOf(p), patternOf(p))]);
    }
    const sum = (s: string) => profiles.reduce((a, p) => a + mean(p, s), 0);
    const oracleSum = profiles.reduce((a, p) => a + oracleOf(p), 0);
    rows.push([`total ${name}`, ...cols.map((s) => sum(s).toFixed(1)), oracleSum.toFixed(1), ...ratios(cols, sum, oracleSum)]);
    const patternSum = profiles.reduce((a, p) => a + patternOf(p), 0);
    patternRows.push([`total ${name}`, oracleSum.toFixed(1), patternSum.toFixed(1), ...patternRatios(cols, sum, oracleSum, patternSum)]);
  }
  out.push(`Issue 17 — RDF documents at equal fetches (≤ ${cli.budget} per PLD, scale ${cli.scale}; ${seedsText}); oracle@k of the yield crawl's fetches`);
  out.push(renderTable(['profile', ...cols.map((s) => DISPLAY[s] ?? s), 'oracle@k', ...ratioHeaders(cols)], rows), '');
  if (held.length > 0 && cols.includes('yield') && cols.includes('fc-r+hr')) out.push(...defaultRule(runs, held, mean, oracleOf), '');
  out.push('Pattern oracle (src/simweb/pattern-oracle.ts): a best-first crawl ordered by each URL template\'s true RDF documents per fetch');
  out.push('(what a page leads to counted), known from the ground truth: the best a URL-template learner knows, not each page;');
  out.push('a greedy reference, not a proven bound. At the same k as the oracle; "of pattern" = a crawler\'s RDF / the pattern oracle\'s');
  out.push(renderTable(['profile', 'oracle@k', 'pattern@k', 'pattern/oracle', ...cols.map((s) => `${DISPLAY[s] ?? s} of pattern`)], patternRows), '');
  // Precision of R and HR (thesis §9) against the pattern ceiling at the same N_LS, pooled over seeds.
  const prec: string[][] = [];
  for (const s of cols.filter((x) => x !== 'bfs')) {
    for (const p of cli.profiles) {
      const g = runs.filter((r) => r.profile === p && r.strategy === s);
      const labels = pooledLabels(g);
      const ceil = (l: 'R' | 'HR') => {
        const vs = g.map((r) => r.ceiling[l]).filter((v): v is number => v !== null);
        return vs.length === 0 ? null : vs.reduce((a, b) => a + b, 0) / vs.length;
      };
      const lab = (l: 'R' | 'HR') => labels.find((x) => x.label === l)!;
      prec.push([
        DISPLAY[s] ?? s,
        `${p}${held.includes(p) ? '' : ' (tuning)'}`,
        `${lab('R').nLS}`,
        formatPercent(lab('R').precision, 1),
        formatPercent(ceil('R'), 1),
        `${lab('HR').nLS}`,
        formatPercent(lab('HR').precision, 1),
        formatPercent(ceil('HR'), 1),
      ]);
    }
  }
  out.push('Precision of the predicted labels R and HR (N_LT / N_LS, pooled over seeds) and the pattern ceiling: the best precision any');
  out.push('URL-template predictor reaches with as many predictions (per template, the share of its pages truly R / HR; mean over seeds)');
  out.push(renderTable(['crawler', 'profile', 'R: N_LS', 'R prec.', 'R ceiling', 'HR: N_LS', 'HR prec.', 'HR ceiling'], prec), '');
  return out;
}

/** Two-sided 95% Student t quantiles by degrees of freedom (1…30; beyond, the normal's). */
const T95 = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05, 2.04];

/**
 * Issue 17 item 2's rules for making `yield` the default, checked on the held-out profiles of this run: ≥ 1.10× FC-R+HR's
 * RDF documents in total, never ≥ 3% fewer on a profile, and ≥ 0.85 of the oracle. Each profile's ratio of means comes
 * with a 95% interval of the per-seed ratios (paired by generator seed; geometric mean ± t·sd over seeds of the log
 * ratio), so that a verdict on one profile can be told from the scatter between seeds — at concurrency > 1 the order of
 * fetches, and so a profile's ratio, also moves between runs of the same seeds.
 */
function defaultRule(runs: readonly RunResult[], held: readonly string[], mean: (p: string, s: string) => number, oracleOf: (p: string) => number): string[] {
  const interval = (p: string): string => {
    const logs: number[] = [];
    for (const y of runs.filter((r) => r.profile === p && r.strategy === 'yield')) {
      const f = runs.find((r) => r.profile === p && r.strategy === 'fc-r+hr' && r.seed === y.seed);
      if (f !== undefined && f.nRdf > 0 && y.nRdf > 0) logs.push(Math.log(y.nRdf / f.nRdf));
    }
    if (logs.length < 2) return 'one seed: no interval';
    const m = logs.reduce((a, b) => a + b, 0) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / (logs.length - 1));
    const h = (T95[logs.length - 2] ?? 1.96) * (sd / Math.sqrt(logs.length));
    return `per-seed 95% interval ${Math.exp(m - h).toFixed(3)}–${Math.exp(m + h).toFixed(3)} over ${logs.length} seeds`;
  };
  const ratio = (p: string) => (mean(p, 'fc-r+hr') === 0 ? Number.POSITIVE_INFINITY : mean(p, 'yield') / mean(p, 'fc-r+hr'));
  const total = held.reduce((a, p) => a + mean(p, 'yield'), 0);
  const totalFc = held.reduce((a, p) => a + mean(p, 'fc-r+hr'), 0);
  const oracle = held.reduce((a, p) => a + oracleOf(p), 0);
  const lowest = [...held].sort((a, b) => ratio(a) - ratio(b))[0] as string;
  const below = held.filter((p) => ratio(p) <= 0.97); // 3% fewer or more
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  return [
    `Issue 17's rules for making YIELD the default, on the ${held.length} held-out profile(s) of this run:`,
    `  YIELD / FC-R+HR in total >= 1.10: ${(total / totalFc).toFixed(3)} — ${verdict(total / totalFc >= 1.1)}`,
    `  no profile with >= 3% fewer (YIELD / FC-R+HR > 0.97 on each): ${below.length === 0 ? `lowest ${lowest} ${ratio(lowest).toFixed(3)} (${interval(lowest)})` : below.map((p) => `${p} ${ratio(p).toFixed(3)} (${interval(p)})`).join('; ')} — ${verdict(below.length === 0)}`,
    `  YIELD / oracle in total >= 0.85: ${(total / oracle).toFixed(3)} — ${verdict(total / oracle >= 0.85)}`,
  ];
}

function patternRatios(cols: readonly string[], value: (s: string) => number, oracle: number, pattern: number): string[] {
  const r = (a: number, b: number) => (b === 0 ? '–' : (a / b).toFixed(3));
  return [r(pattern, oracle), ...cols.map((s) => r(value(s), pattern))];
}

function ratioHeaders(cols: readonly string[]): string[] {
  return [...(cols.includes('yield') && cols.includes('fc-r+hr') ? ['YIELD/FC-R+HR'] : []), ...(cols.includes('yield') ? ['YIELD/oracle'] : []), ...(cols.includes('fc-r+hr') ? ['FC-R+HR/oracle'] : [])];
}

function ratios(cols: readonly string[], value: (s: string) => number, oracle: number): string[] {
  const r = (a: number, b: number) => (b === 0 ? '–' : (a / b).toFixed(3));
  return [
    ...(cols.includes('yield') && cols.includes('fc-r+hr') ? [r(value('yield'), value('fc-r+hr'))] : []),
    ...(cols.includes('yield') ? [r(value('yield'), oracle)] : []),
    ...(cols.includes('fc-r+hr') ? [r(value('fc-r+hr'), oracle)] : []),
  ];
}

// ---------- CSV ----------

function writeCurves(runs: readonly RunResult[], oracles: Map<string, number[]>, patterns: Map<string, number[]>, cli: ReturnType<typeof parseCli>): string[] {
  const files: string[] = [];
  for (const p of cli.profiles) {
    const seeds = [...new Set(runs.filter((r) => r.profile === p).map((r) => r.seed))];
    const meanRows: number[][] = [];
    for (const seed of seeds) {
      const oracle = oracles.get(`${p}|${seed}`) ?? [];
      const pattern = patterns.get(`${p}|${seed}`) ?? [];
      const cols = cli.strategies.map((s) => runs.find((r) => r.profile === p && r.seed === seed && r.strategy === s)?.curve ?? []);
      const lines = [`fetches,oracle,pattern_oracle,${cli.strategies.join(',')}`];
      for (let k = 1; k <= cli.budget; k++) {
        const row = [k, oracle[k] ?? oracle[oracle.length - 1] ?? 0, pattern[k] ?? pattern[pattern.length - 1] ?? 0, ...cols.map((c) => c[k - 1] ?? c[c.length - 1] ?? 0)];
        lines.push(row.join(','));
        meanRows[k - 1] ??= new Array(row.length).fill(0);
        row.forEach((v, i) => {
          meanRows[k - 1]![i]! += i === 0 ? 0 : v / seeds.length;
        });
      }
      const file = join(cli.out, `harvest-${p}-seed${seed}.csv`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      files.push(file);
    }
    const meanLines = [`fetches,oracle,pattern_oracle,${cli.strategies.join(',')}`, ...meanRows.map((row, i) => [i + 1, ...row.slice(1).map((v) => v.toFixed(2))].join(','))];
    const file = join(cli.out, `harvest-${p}-mean.csv`);
    writeFileSync(file, `${meanLines.join('\n')}\n`);
    files.push(file);
  }
  return files;
}

// ---------- main ----------

const cli = parseCli();
mkdirSync(cli.out, { recursive: true });
const started = performance.now();
log(`thesis bench: ${cli.profiles.length} profiles × ${cli.strategies.length} crawlers × ${cli.seeds} seeds, budget ${cli.budget}, scale ${cli.scale}`);
const runs: RunResult[] = [];
const oracles = new Map<string, number[]>();
const patterns = new Map<string, number[]>();
for (let seed = cli.seedBase; seed < cli.seedBase + cli.seeds; seed++) {
  for (const profile of cli.profiles) {
    const { runs: r, oracle, pattern } = await crawlProfile(profile, seed, cli);
    runs.push(...r);
    oracles.set(`${profile}|${seed}`, oracle);
    patterns.set(`${profile}|${seed}`, pattern);
  }
}
const elapsedS = (performance.now() - started) / 1000;
const cells = aggregateCells(runs, cli);
const printed = printTables(runs, cells, cli);
const files = writeCurves(runs, oracles, patterns, cli);
const sample = (curve: number[]) => curve.filter((_, i) => (i + 1) % 100 === 0 || i === curve.length - 1);
const json = {
  setup: { ...cli, linksPerDoc: 500, crawlDelay: 0, elapsedS },
  cells,
  runs: runs.map(({ outcomes: _o, curve, ...r }) => ({ ...r, curveEvery100: sample(curve) })),
  table43: printed.table43,
  precision: printed.precision,
  rules: printed.rules,
};
const jsonFile = join(cli.out, 'thesis.json');
writeFileSync(jsonFile, `${JSON.stringify(json, null, 1)}\n`);
writeFileSync(join(cli.out, 'tables.txt'), `${printed.tablesText as string}\n`);
log(`${runs.length} crawls in ${elapsedS.toFixed(0)} s; wrote ${jsonFile}, tables.txt and ${files.length} CSV files under ${cli.out}`);
