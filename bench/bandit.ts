// Real crawls of the simulated BeeBot site sets (RAS-like, university-like, 5+5 mix) under every bandit policy: BeeBot §4 Table 2, plus ours.
//
// Usage: node bench/bandit.ts [--seeds 20] [--seed-start 1] [--jobs 2] [--budget 2000] [--scale 1] [--sets ras,univ,mix]
//                             [--policies a,b] [--thesis] [--thesis-seeds 2] [--thesis-budget 2000] [--json FILE] [--md FILE]
//                             [--partial FILE (each finished unit's rows, as JSON lines)] [--report DIR | --no-report]
// Writes an HTML report per set (first seed: every policy's crawl, its reward curve, pulls per arm) into --report
// (default bench/results).
// Each crawl is in-process (`Crawler`), breadth-first inside each site, one fetch at a time, no politeness delay,
// so the policy's choice sequence is deterministic up to retry back-off timing. Reward = external links on the
// fetched pages, read from the simulated web's truth (exact; the engine's own count is capped at --max-links-per-doc).
// With --jobs 2 (default) the (set, seed) units run in two child processes at once
// (one simulated web and every policy per unit); --jobs 1 runs them in this process.
// Seeds are --seed-start … --seed-start + --seeds − 1: a second range checks that a result is not one of a seed range.
// With --replay, no HTTP: each site's breadth-first page sequence is computed from the simulated web's graph with
// BeeBot's semantics (external links are counted, never crawled; depth ≤ 5; redirects followed; robots-disallowed
// pages skipped) and every policy is replayed over it with `simulate` — fast enough for 20+ seeds.
// With --thesis, the same policies with rdf-docs reward over the thesis-like multi-PLD web, with bfs and fc-r+hr.
// With --generated [--split tuning|evaluation|evaluation-2|evaluation-3|evaluation-4] [--repeats R] [--cache FILE] [--losers] [--per-set]: the generated
// site sets, live (bench/lib/bandit-generated-run.ts).

import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPolicy, POLICY_NAMES } from '../src/bandit/create-policy.ts';
import { type ReplayArm, simulate } from '../src/bandit/simulate.ts';
import { type ReferenceCurve, type ReportCrawlInput, writeReport } from '../src/report/index.ts';
import { type SimWeb, startSimweb } from '../src/simweb/index.ts';
import { crawlOnce } from './lib/bandit-crawl.ts';
import { type GeneratedSettings, type Reward, runSet } from './lib/bandit-generated.ts';
import { runGenerated } from './lib/bandit-generated-run.ts';
import { printTable } from './lib/bandit-table.ts';
import { type DriftKind, runDrift } from './lib/bandit-drift.ts';
import { siteSequence } from '../src/simweb/site-sequence.ts';

type SetName = 'ras' | 'univ' | 'mix';

/** Lines printed so far (for --md). */
const printed: string[] = [];

function say(line: string): void {
  console.log(line);
  printed.push(line);
}

/** One unit of real-crawl work: one simulated web (a set and a generator seed) crawled under every policy. */
type Unit = { kind: 'beebot'; set: SetName; seed: number } | { kind: 'thesis'; seed: number };

interface UnitRow {
  label: string;
  column: string;
  value: number;
  offSite: number;
}

interface UnitSettings {
  policies: string[];
  budget: number;
  scale: number;
  thesisBudget: number;
  /** Write an HTML report of every policy's crawl of this seed's webs into `reportDir` (issue 19). */
  reportSeed: number;
  reportDir: string | null;
}

const PROFILES: Record<SetName, string> = { ras: 'beebot-ras', univ: 'beebot-univ', mix: 'beebot-ras,beebot-univ' };

/** The mix is the first five RAS-like and the first five university-like sites (Table 1's sample set). */
function sitesOf(web: SimWeb, set: SetName): SimWeb['sites'] {
  if (set !== 'mix') return web.sites;
  return [...web.sites.filter((s) => s.profile === 'beebot-ras').slice(0, 5), ...web.sites.filter((s) => s.profile === 'beebot-univ').slice(0, 5)];
}

async function runUnit(unit: Unit, u: UnitSettings): Promise<UnitRow[]> {
  const rows: UnitRow[] = [];
  if (unit.kind === 'beebot') {
    const web = await startSimweb({ profiles: PROFILES[unit.set], seed: unit.seed, scale: u.scale });
    try {
      const seeds = sitesOf(web, unit.set).map((s) => s.startUrl);
      const report = u.reportDir !== null && unit.seed === u.reportSeed;
      const crawls: ReportCrawlInput[] = [];
      const rewards: ReferenceCurve[] = [];
      for (const bandit of u.policies) {
        const f = await crawlOnce(web, seeds, { bandit, strategy: 'bfs', reward: 'external-links', budget: u.budget, seed: unit.seed, maxDepth: 5, keepRecords: report });
        rows.push({ label: bandit, column: unit.set, value: f.reward, offSite: f.offSite });
        console.error(`${unit.set} seed ${unit.seed} ${bandit}: ${f.reward} external links, ${f.offSite} off-site fetches, ${(f.ms / 1000).toFixed(1)} s`);
        if (report) {
          crawls.push({ name: bandit, records: f.records, bandit });
          rewards.push({ name: bandit, curve: f.rewardCurve });
        }
      }
      if (report && u.reportDir !== null) {
        const file = join(u.reportDir, `report-bandit-${unit.set}-seed${unit.seed}.html`);
        await writeReport(file, crawls, {
          title: `BeeBot experiment: ${unit.set} set, seed ${unit.seed}, N = ${u.budget} pages, every policy`,
          curves: [{ title: "The bandit's reward: external links found against fetches (BeeBot §3)", yLabel: 'external links', series: rewards }],
        });
        console.error(`report: ${file}`);
      }
    } finally {
      await web.close();
    }
    return rows;
  }
  const web = await startSimweb({ profiles: 'thesis', seed: unit.seed, scale: u.scale });
  try {
    for (const strategy of THESIS_STRATEGIES) {
      for (const bandit of ['none', ...u.policies]) {
        const f = await crawlOnce(web, web.sites.map((s) => s.startUrl), { bandit, strategy, reward: 'rdf-docs', budget: u.thesisBudget, seed: unit.seed, maxDepth: Number.POSITIVE_INFINITY });
        rows.push({ label: bandit, column: strategy, value: f.rdfDocuments, offSite: f.offSite });
        console.error(`thesis seed ${unit.seed} ${strategy} ${bandit}: ${f.rdfDocuments} RDF documents, ${(f.ms / 1000).toFixed(1)} s`);
      }
    }
  } finally {
    await web.close();
  }
  return rows;
}

const THESIS_STRATEGIES = ['fc-r+hr', 'bfs'];

/** Runs one unit in a child process (this file with --worker); its stdout's last line is the rows as JSON. */
function runUnitInChild(unit: Unit, u: UnitSettings): Promise<UnitRow[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [import.meta.filename, '--worker', JSON.stringify({ unit, settings: u })], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench worker for ${JSON.stringify(unit)} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)!) as UnitRow[]);
    });
  });
}

/**
 * Runs the units, `jobs` at a time (1: in this process), and returns every row. A unit that fails is tried once
 * more; each finished unit's rows are appended to `partial` (JSON lines), if given, so that a crash loses one unit.
 */
async function runUnits(units: Unit[], u: UnitSettings, jobs: number, partial?: string): Promise<UnitRow[]> {
  const rows: UnitRow[][] = new Array(units.length);
  let next = 0;
  const once = (unit: Unit) => (jobs === 1 ? runUnit(unit, u) : runUnitInChild(unit, u));
  const worker = async () => {
    while (next < units.length) {
      const k = next++;
      try {
        rows[k] = await once(units[k]!);
      } catch (err) {
        console.error(`unit ${JSON.stringify(units[k])} failed (${(err as Error).message}); trying it once more`);
        rows[k] = await once(units[k]!);
      }
      if (partial) appendFileSync(partial, `${JSON.stringify({ unit: units[k], rows: rows[k] })}\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return rows.flat();
}

/** label → column → values, in unit order (so that seeds line up across labels). */
function tabulate(rows: UnitRow[], pick: (r: UnitRow) => number): Map<string, Record<string, number[]>> {
  const m = new Map<string, Record<string, number[]>>();
  for (const r of rows) {
    if (!m.has(r.label)) m.set(r.label, {});
    const cols = m.get(r.label)!;
    (cols[r.column] ??= []).push(pick(r));
  }
  return m;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: '20' },
      'seed-start': { type: 'string', default: '1' },
      jobs: { type: 'string', default: '2' },
      budget: { type: 'string', default: '2000' },
      scale: { type: 'string', default: '1' },
      sets: { type: 'string', default: 'ras,univ,mix' },
      policies: { type: 'string', default: POLICY_NAMES.join(',') },
      thesis: { type: 'boolean', default: false },
      'thesis-only': { type: 'boolean', default: false },
      replay: { type: 'boolean', default: false },
      'thesis-seeds': { type: 'string', default: '2' },
      'thesis-budget': { type: 'string', default: '2000' },
      json: { type: 'string' },
      md: { type: 'string' },
      report: { type: 'string', default: 'bench/results' },
      'no-report': { type: 'boolean', default: false },
      partial: { type: 'string' },
      worker: { type: 'string' },
      drift: { type: 'boolean', default: false },
      kinds: { type: 'string', default: 'late,dry,rich,many' },
      'tune-seeds': { type: 'string', default: '10' },
      'live-seeds': { type: 'string', default: '11,12' },
      concurrency: { type: 'string', default: '4' },
      generated: { type: 'boolean', default: false },
      split: { type: 'string', default: 'evaluation' },
      rewards: { type: 'string', default: 'external-links,rdf-docs' },
      concurrencies: { type: 'string', default: '1,4' },
      'generated-worker': { type: 'string' },
      strategy: { type: 'string' },
      repeats: { type: 'string', default: '1' },
      cache: { type: 'string' },
      losers: { type: 'boolean', default: false },
      'per-set': { type: 'boolean', default: false },
    },
  });
  if (values['generated-worker'] !== undefined) {
    const { seed, settings, known } = JSON.parse(values['generated-worker']) as { seed: number; settings: GeneratedSettings; known: Record<string, number[]> };
    process.stdout.write(`${JSON.stringify(await runSet(seed, settings, known))}\n`);
    return;
  }
  if (values.generated) {
    // --generated's own defaults: 600 fetches, scale 0.1, every seed of the split, auto besides the fixed rules.
    const given = (flag: string) => process.argv.some((a) => a === `--${flag}` || a.startsWith(`--${flag}=`));
    await runGenerated(
      {
        split: values.split,
        seeds: given('seeds') ? Number(values.seeds) : undefined,
        budget: Number(given('budget') ? values.budget : '600'),
        scale: Number(given('scale') ? values.scale : '0.1'),
        jobs: Math.min(2, Math.max(1, Number(values.jobs))),
        policies: values.policies === POLICY_NAMES.join(',') ? ['auto'] : values.policies.split(','),
        rewards: values.rewards.split(',') as Reward[],
        concurrencies: values.concurrencies.split(',').map(Number),
        repeats: Number(values.repeats),
        strategy: values.strategy,
        cache: values.cache,
        losers: values.losers,
        perSet: values['per-set'],
        json: values.json,
      },
      say,
    );
    if (values.md) writeFileSync(values.md, `${printed.join('\n')}\n`);
    return;
  }
  if (values.worker !== undefined) {
    const { unit, settings } = JSON.parse(values.worker) as { unit: Unit; settings: UnitSettings };
    process.stdout.write(`${JSON.stringify(await runUnit(unit, settings))}\n`);
    return;
  }
  const seeds = Number(values.seeds);
  const seedStart = Number(values['seed-start']);
  const seedList = Array.from({ length: seeds }, (_, k) => seedStart + k);
  if (values.drift) {
    const live = values['live-seeds'] === '' ? [] : values['live-seeds'].split(',').map(Number);
    const policies = values.policies === POLICY_NAMES.join(',') ? ['round-robin', 'r1', 'r2', 'r3', 'auto'] : values.policies.split(',');
    const settings = { budget: Number(values.budget), concurrency: Number(values.concurrency), policy: 'auto' };
    const kinds = values.kinds.split(',') as DriftKind[];
    const tune = seedList.filter((s) => s < seedStart + Number(values['tune-seeds']));
    const lines = await runDrift({ kinds, seeds: seedList, tune, live, policies, settings });
    for (const l of lines) say(l);
    if (values.md) writeFileSync(values.md, `${printed.join('\n')}\n`);
    return;
  }
  const jobs = Math.min(2, Math.max(1, Number(values.jobs)));
  const budget = Number(values.budget);
  const scale = Number(values.scale);
  const sets = values.sets.split(',') as SetName[];
  const policies = values.policies.split(/,(?![a-zA-Z]+=)/);
  const started = performance.now();
  const results: Record<string, unknown> = { budget, seeds, seedStart, scale, jobs };
  const cols = sets.map((s) => ({ ras: 'RAS-like', univ: 'university-like', mix: 'mix 5+5' })[s]);
  const setOf = (c: string) => sets[cols.indexOf(c)]!;
  const seedsText = `seeds ${seedStart}–${seedStart + seeds - 1}`;

  if (values.replay) {
    const totals = new Map<string, Record<string, number[]>>(policies.map((p) => [p, { ras: [], univ: [], mix: [] }]));
    for (const set of sets) {
      for (const seed of seedList) {
        const web = await startSimweb({ profiles: PROFILES[set], seed, scale });
        const arms: ReplayArm[] = sitesOf(web, set).map((s) => ({ id: s.pld, rewards: siteSequence(web, s.startUrl, 5, budget) }));
        await web.close();
        for (const p of policies) {
          // A policy label may carry options: `thompson:gamma=1`, `r2:step=20`.
          const [name, ...kv] = p.split(/[:,]/);
          const opts = Object.fromEntries(kv.map((e) => e.split('=')).map(([k, v]) => [k, Number(v)]));
          totals.get(p)![set]!.push(simulate(createPolicy(name!, { budget, seed, ...opts }), arms, budget).total);
        }
      }
    }
    printTable(
      say,
      `External links found, simweb graph replay (BeeBot semantics), N = ${budget} pages, K = 10, ${seeds} seeds (${seedsText}), scale ${scale}: mean ± 95% interval (× R1) [× best fixed rule]`,
      cols,
      policies,
      (l, c) => totals.get(l)![setOf(c)]!,
      policies.includes('r1') ? 'r1' : policies[0]!,
    );
    results.replay = Object.fromEntries(totals);
  }

  const reportDir = values['no-report'] ? null : values.report!;
  if (reportDir !== null) mkdirSync(reportDir, { recursive: true });
  const settings: UnitSettings = { policies, budget, scale, thesisBudget: Number(values['thesis-budget']), reportSeed: seedStart, reportDir };
  if (!values['thesis-only'] && !values.replay) {
    const units: Unit[] = sets.flatMap((set) => seedList.map((seed) => ({ kind: 'beebot' as const, set, seed })));
    const rows = await runUnits(units, settings, jobs, values.partial);
    const totals = tabulate(rows, (r) => r.value);
    const offSite = tabulate(rows, (r) => r.offSite);
    const byCol = (l: string, c: string, m: typeof totals) => m.get(l)?.[setOf(c)] ?? [];
    printTable(
      say,
      `External links found, real crawls, N = ${budget} pages, K = 10, ${seeds} seed(s) (${seedsText}), scale ${scale}: mean ± 95% interval (× R1) [× best fixed rule]`,
      cols,
      policies,
      (l, c) => byCol(l, c, totals),
      policies.includes('r1') ? 'r1' : policies[0]!,
    );
    printTable(say, 'Off-site fetches (partner PLDs the engine queued one hop out; part of the budget N)', cols, policies, (l, c) => byCol(l, c, offSite), policies[0]!);
    results.beebot = { totals: Object.fromEntries(totals), offSite: Object.fromEntries(offSite) };
  }

  if (values.thesis || values['thesis-only']) {
    const tSeeds = Number(values['thesis-seeds']);
    const units: Unit[] = Array.from({ length: tSeeds }, (_, k) => ({ kind: 'thesis' as const, seed: seedStart + k }));
    const rdf = tabulate(await runUnits(units, settings, jobs, values.partial), (r) => r.value);
    printTable(
      say,
      `RDF documents found, thesis-like web (thesis), global budget ${settings.thesisBudget}, ${tSeeds} seed(s) from ${seedStart}, scale ${scale}: mean ± 95% interval (× no bandit) [× best fixed rule]`,
      THESIS_STRATEGIES,
      ['none', ...policies],
      (l, c) => rdf.get(l)?.[c] ?? [],
      'none',
    );
    results.thesis = Object.fromEntries(rdf);
  }
  say(`\n${((performance.now() - started) / 1000).toFixed(0)} s in all (${jobs} job(s))`);
  if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2));
  if (values.md) writeFileSync(values.md, `${printed.join('\n')}\n`);
}

await main();
