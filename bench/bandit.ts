// Real crawls of the simulated BeeBot site sets (RAS-like, university-like, 5+5 mix) under every bandit policy: BeeBot §4 Table 2, plus ours.
//
// Usage: node bench/bandit.ts [--seeds 20] [--budget 2000] [--scale 1] [--sets ras,univ,mix] [--policies a,b]
//                             [--thesis] [--thesis-seeds 2] [--thesis-budget 2000] [--json FILE]
// Each crawl is in-process (`Crawler`), breadth-first inside each site, one fetch at a time, no politeness delay,
// so the policy's choice sequence is deterministic. Reward = external links on the fetched pages, read from the
// simulated web's truth (exact; the engine's own count is capped at --max-links-per-doc).
// With --replay, no HTTP: each site's breadth-first page sequence is computed from the simulated web's graph with
// BeeBot's semantics (external links are counted, never crawled; depth ≤ 5; redirects followed; robots-disallowed
// pages skipped) and every policy is replayed over it with `simulate` — fast enough for 20+ seeds.
// With --thesis, the same policies with rdf-docs reward over the thesis-like multi-PLD web, with bfs and fc-r+hr.

import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPolicy, POLICY_NAMES } from '../src/bandit/create-policy.ts';
import { type ReplayArm, simulate } from '../src/bandit/simulate.ts';
import { Crawler } from '../src/crawl/crawler.ts';
import { readRecords } from '../src/crawl/records.ts';
import { type SimWeb, startSimweb } from '../src/simweb/index.ts';

type SetName = 'ras' | 'univ' | 'mix';

interface CrawlFigures {
  /** External links on fetched pages of the seed sites (BeeBot's S_R(N)). */
  reward: number;
  /** RDF documents found (thesis runs). */
  rdfDocuments: number;
  /** Fetches spent outside the seed sites (partner sites the engine queued one hop out). */
  offSite: number;
  ms: number;
}

async function crawlOnce(web: SimWeb, seeds: string[], opts: { bandit: string; strategy: string; reward: 'external-links' | 'rdf-docs'; budget: number; seed: number; maxDepth: number }): Promise<CrawlFigures> {
  const out = await mkdtemp(join(tmpdir(), 'rdfscout-bench-'));
  const t0 = performance.now();
  const crawler = await Crawler.open({
    out,
    seeds,
    proxy: web.proxyUrl,
    allowPrivate: true,
    delayMs: 0,
    concurrency: 1,
    strategy: opts.strategy,
    bandit: opts.bandit,
    reward: opts.reward,
    maxDocs: opts.budget,
    maxDepth: opts.maxDepth,
    seed: opts.seed,
  });
  try {
    const summary = await crawler.run();
    const seedPlds = new Set(seeds.map((u) => web.truthFor(u)?.pld ?? new URL(u).hostname));
    let reward = 0;
    let offSite = 0;
    for await (const r of readRecords(crawler.state)) {
      if (!seedPlds.has(r.pld)) offSite++;
      if (r.outcome === 'ok') reward += web.truthFor(r.finalUrl)?.externalLinks ?? 0;
    }
    return { reward, rdfDocuments: summary.rdfDocuments, offSite, ms: performance.now() - t0 };
  } finally {
    await crawler.close();
    await rm(out, { recursive: true, force: true });
  }
}

/** X(i, 1), X(i, 2), …: external links per page of one site in breadth-first order (BeeBot §3), from the graph. */
function siteSequence(web: SimWeb, start: string, maxDepth: number, budget: number): number[] {
  const host = new URL(start).hostname;
  const seen = new Set<string>([start]);
  const queue: Array<{ url: string; depth: number }> = [{ url: start, depth: 0 }];
  const rewards: number[] = [];
  for (let i = 0; i < queue.length && rewards.length < budget; i++) {
    const { url, depth } = queue[i]!;
    let final = url;
    let truth = web.truthFor(final);
    for (let hop = 0; hop < 5 && truth?.redirectTo !== undefined; hop++) {
      final = truth.redirectToHtml ?? truth.redirectTo;
      seen.add(final);
      truth = web.truthFor(final);
    }
    if (truth?.disallowed) continue;
    rewards.push(truth?.externalLinks ?? 0);
    if (depth >= maxDepth) continue;
    for (const link of web.links(final)) {
      if (new URL(link).hostname !== host || seen.has(link)) continue;
      seen.add(link);
      queue.push({ url: link, depth: depth + 1 });
    }
  }
  return rewards;
}

function meanAndInterval(xs: number[]): { mean: number; half: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1);
  return { mean, half: xs.length > 1 ? (1.96 * Math.sqrt(variance)) / Math.sqrt(xs.length) : Number.NaN };
}

function printTable(title: string, columns: string[], labels: string[], cell: (label: string, col: string) => number[], baseline: string): void {
  console.log(`\n${title}`);
  const base = Object.fromEntries(columns.map((c) => [c, meanAndInterval(cell(baseline, c)).mean]));
  const best = Object.fromEntries(columns.map((c) => [c, Math.max(...labels.map((l) => meanAndInterval(cell(l, c)).mean))]));
  const rows = labels.map((l) => [
    l,
    ...columns.map((c) => {
      const { mean, half } = meanAndInterval(cell(l, c));
      const pm = Number.isNaN(half) ? '' : ` ± ${half.toFixed(0)}`;
      return `${mean.toFixed(0)}${pm} (×${(mean / base[c]!).toFixed(2)}) [${(mean / best[c]!).toFixed(2)}]`;
    }),
  ]);
  const head = ['policy', ...columns];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: '20' },
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
    },
  });
  const seeds = Number(values.seeds);
  const budget = Number(values.budget);
  const scale = Number(values.scale);
  const sets = values.sets.split(',') as SetName[];
  const policies = values.policies.split(/,(?![a-zA-Z]+=)/);
  const started = performance.now();
  const results: Record<string, unknown> = { budget, seeds, scale };

  if (values.replay) {
    const totals = new Map<string, Record<string, number[]>>(policies.map((p) => [p, { ras: [], univ: [], mix: [] }]));
    for (const set of sets) {
      for (let seed = 1; seed <= seeds; seed++) {
        const web = await startSimweb({ profiles: set === 'ras' ? 'beebot-ras' : set === 'univ' ? 'beebot-univ' : 'beebot-ras,beebot-univ', seed, scale });
        const sites = set === 'mix' ? [...web.sites.filter((s) => s.profile === 'beebot-ras').slice(0, 5), ...web.sites.filter((s) => s.profile === 'beebot-univ').slice(0, 5)] : web.sites;
        const arms: ReplayArm[] = sites.map((s) => ({ id: s.pld, rewards: siteSequence(web, s.startUrl, 5, budget) }));
        await web.close();
        for (const p of policies) {
          // A policy label may carry options: `thompson:gamma=1`, `r2:step=20`.
          const [name, ...kv] = p.split(/[:,]/);
          const opts = Object.fromEntries(kv.map((e) => e.split('=')).map(([k, v]) => [k, Number(v)]));
          totals.get(p)![set]!.push(simulate(createPolicy(name!, { budget, seed, ...opts }), arms, budget).total);
        }
      }
    }
    const cols = sets.map((s) => ({ ras: 'RAS-like', univ: 'university-like', mix: 'mix 5+5' })[s]);
    printTable(
      `External links found, simweb graph replay (BeeBot semantics), N = ${budget} pages, K = 10, ${seeds} seeds, scale ${scale}: mean ± 95% interval (× R1) [× best]`,
      cols,
      policies,
      (l, c) => totals.get(l)![sets[cols.indexOf(c)]!]!,
      policies.includes('r1') ? 'r1' : policies[0]!,
    );
    results.replay = Object.fromEntries(totals);
  }

  if (!values['thesis-only'] && !values.replay) {
    const totals = new Map<string, Record<string, number[]>>(policies.map((p) => [p, { ras: [], univ: [], mix: [] }]));
    const offSite = new Map<string, Record<string, number[]>>(policies.map((p) => [p, { ras: [], univ: [], mix: [] }]));
    for (const set of sets) {
      for (let seed = 1; seed <= seeds; seed++) {
        const web = await startSimweb({ profiles: set === 'ras' ? 'beebot-ras' : set === 'univ' ? 'beebot-univ' : 'beebot-ras,beebot-univ', seed, scale });
        const sites = set === 'mix' ? [...web.sites.filter((s) => s.profile === 'beebot-ras').slice(0, 5), ...web.sites.filter((s) => s.profile === 'beebot-univ').slice(0, 5)] : web.sites;
        try {
          for (const bandit of policies) {
            const f = await crawlOnce(web, sites.map((s) => s.startUrl), { bandit, strategy: 'bfs', reward: 'external-links', budget, seed, maxDepth: 5 });
            totals.get(bandit)![set]!.push(f.reward);
            offSite.get(bandit)![set]!.push(f.offSite);
            console.error(`${set} seed ${seed} ${bandit}: ${f.reward} external links, ${f.offSite} off-site fetches, ${(f.ms / 1000).toFixed(1)} s`);
          }
        } finally {
          await web.close();
        }
      }
    }
    const cols = sets.map((s) => ({ ras: 'RAS-like', univ: 'university-like', mix: 'mix 5+5' })[s]);
    const byCol = (l: string, c: string, m: typeof totals) => m.get(l)![sets[cols.indexOf(c)]!]!;
    printTable(
      `External links found, real crawls, N = ${budget} pages, K = 10, ${seeds} seed(s), scale ${scale}: mean ± 95% interval (× R1) [× best]`,
      cols,
      policies,
      (l, c) => byCol(l, c, totals),
      policies.includes('r1') ? 'r1' : policies[0]!,
    );
    printTable('Off-site fetches (partner PLDs the engine queued one hop out; part of the budget N)', cols, policies, (l, c) => byCol(l, c, offSite), policies[0]!);
    results.beebot = { totals: Object.fromEntries(totals), offSite: Object.fromEntries(offSite) };
  }

  if (values.thesis || values['thesis-only']) {
    const tSeeds = Number(values['thesis-seeds']);
    const tBudget = Number(values['thesis-budget']);
    const labels = ['none', ...policies];
    const strategies = ['fc-r+hr', 'bfs'];
    const rdf = new Map<string, Record<string, number[]>>(labels.map((p) => [p, Object.fromEntries(strategies.map((s) => [s, []]))]));
    for (let seed = 1; seed <= tSeeds; seed++) {
      const web = await startSimweb({ profiles: 'thesis', seed, scale });
      try {
        for (const strategy of strategies) {
          for (const bandit of labels) {
            const f = await crawlOnce(web, web.sites.map((s) => s.startUrl), { bandit, strategy, reward: 'rdf-docs', budget: tBudget, seed, maxDepth: Number.POSITIVE_INFINITY });
            rdf.get(bandit)![strategy]!.push(f.rdfDocuments);
            console.error(`thesis seed ${seed} ${strategy} ${bandit}: ${f.rdfDocuments} RDF documents, ${(f.ms / 1000).toFixed(1)} s`);
          }
        }
      } finally {
        await web.close();
      }
    }
    printTable(
      `RDF documents found, thesis-like web (${'thesis'}), global budget ${tBudget}, ${tSeeds} seed(s), scale ${scale}: mean ± 95% interval (× no bandit) [× best]`,
      strategies,
      labels,
      (l, c) => rdf.get(l)![c]!,
      'none',
    );
    results.thesis = Object.fromEntries(rdf);
  }
  console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s in all`);
  if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2));
}

await main();
