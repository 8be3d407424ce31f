// Replays every bandit policy over synthetic site sets shaped like BeeBot §4 (RAS-like, university-like, 5+5 mix) and prints Table 2.
//
// Usage: node bench/bandit-replay.ts [--seeds 30] [--budget 2000] [--variants [--only LABEL-PREFIX]] [--json FILE]
//        node bench/bandit-replay.ts --drift [--seeds 20] [--concurrency 4]: the changing site sets under
//        politeness, replayed over the simulated web's pages (the table `bench:bandit -- --drift` prints beside its live crawls).
// Sites are generated from a seed; rewards are external links per page in BFS order, X(i, j) of BeeBot §3.

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createPolicy, POLICY_NAMES, type PolicyOptions } from '../src/bandit/create-policy.ts';
import { Prng } from '../src/random/prng.ts';
import { sampleGamma, samplePoisson } from '../src/random/samplers.ts';
import { type ReplayArm, simulate } from '../src/bandit/simulate.ts';
import { runDrift } from './lib/bandit-drift.ts';

// Page counts like Table 1 (the first five of each kind are the article's; the other five are made up alike).
const RAS_PAGES = [1298, 1100, 2411, 39292, 3523, 950, 1800, 4200, 2700, 600];
const UNIV_PAGES = [431, 1766, 1471, 12935, 7253, 3000, 5200, 900, 2400, 9800];

/**
 * A RAS-like site (BeeBot §4): most pages have no external link, a few "hub" pages (a links page, a list of
 * partners) have very many (Pareto, α = 1.5, from 10, capped at 600). Hubs are three times likelier among the
 * first 20 pages (level 1). One site in four is rich in hubs.
 */
function generateRasSite(prng: Prng, id: string, pages: number, budget: number): ReplayArm {
  const rich = prng.next() < 0.25;
  const hubRate = rich ? 0.01 + 0.02 * prng.next() : 0.001 + 0.004 * prng.next();
  const rewards: number[] = [];
  for (let j = 0; j < Math.min(pages, budget); j++) {
    const h = j < 20 ? 3 * hubRate : hubRate;
    if (prng.next() < h) {
      rewards.push(Math.min(600, Math.round(10 / (1 - prng.next()) ** (1 / 1.5))));
    } else {
      rewards.push(prng.next() < 0.02 ? 1 + samplePoisson(prng, 1) : 0);
    }
  }
  return { id, rewards };
}

/**
 * A university-like site (BeeBot §4): few external links per page, spread over many pages. The rate
 * (0.3–1.2 per page) varies by section (runs of ~40 pages, Gamma(0.7) multiplier) and fades with depth
 * (e-folding after 300–3000 pages). Half the sites have a front (first 5–15 pages) richer than the rest
 * (navigation with partner links), the other half a front with none: the first pages mislead a greedy rule.
 */
function generateUnivSite(prng: Prng, id: string, pages: number, budget: number): ReplayArm {
  const rate = 0.3 + 0.9 * prng.next();
  const fade = 300 + 2700 * prng.next();
  const frontLength = 5 + Math.floor(11 * prng.next());
  const frontRate = prng.next() < 0.5 ? 1 + 3 * prng.next() : 0;
  const rewards: number[] = [];
  let section = 0;
  let multiplier = 1;
  for (let j = 0; j < Math.min(pages, budget); j++) {
    if (section === 0) {
      section = 1 + Math.floor(-40 * Math.log(1 - prng.next()));
      multiplier = sampleGamma(prng, 0.7, 0.7);
    }
    section--;
    const lambda = j < frontLength ? frontRate : rate * multiplier * Math.exp(-j / fade);
    rewards.push(samplePoisson(prng, lambda));
  }
  return { id, rewards };
}

type SetName = 'ras' | 'univ' | 'mix';

function generateSet(set: SetName, seed: number, budget: number): ReplayArm[] {
  const prng = new Prng(seed * 7919 + (set === 'ras' ? 1 : set === 'univ' ? 2 : 3));
  if (set === 'ras') return RAS_PAGES.map((p, k) => generateRasSite(prng, `ras${k}`, p, budget));
  if (set === 'univ') return UNIV_PAGES.map((p, k) => generateUnivSite(prng, `univ${k}`, p, budget));
  return [
    ...RAS_PAGES.slice(0, 5).map((p, k) => generateRasSite(prng, `ras${k}`, p, budget)),
    ...UNIV_PAGES.slice(0, 5).map((p, k) => generateUnivSite(prng, `univ${k}`, p, budget)),
  ];
}

interface Entry {
  label: string;
  name: string;
  opts: PolicyOptions;
}

function meanAndInterval(xs: number[]): { mean: number; half: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1);
  return { mean, half: (1.96 * Math.sqrt(variance)) / Math.sqrt(xs.length) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: '30' },
      budget: { type: 'string', default: '2000' },
      variants: { type: 'boolean', default: false },
      json: { type: 'string' },
      only: { type: 'string' },
      drift: { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '4' },
    },
  });
  if (values.drift) {
    const seedList = Array.from({ length: process.argv.includes('--seeds') ? Number(values.seeds) : 20 }, (_, k) => k + 1);
    const settings = { budget: Number(values.budget), concurrency: Number(values.concurrency), policy: 'auto' };
    const kinds = ['late', 'dry', 'rich', 'many'] as const;
    const lines = await runDrift({ kinds: [...kinds], seeds: seedList, tune: seedList.slice(0, 10), live: [], policies: ['round-robin', 'r1', 'r2', 'r3', 'auto'], settings });
    for (const l of lines) console.log(l);
    return;
  }
  const seeds = Number(values.seeds);
  const budget = Number(values.budget);
  const entries: Entry[] = POLICY_NAMES.map((name) => ({ label: name, name, opts: {} }));
  if (values.variants) {
    for (const step of [1, 5, 20]) entries.push({ label: `r2 n=${step}`, name: 'r2', opts: { step } });
    for (const initialStep of [5, 10]) entries.push({ label: `r3 m=${initialStep}`, name: 'r3', opts: { initialStep } });
    for (const gamma of [0.98, 0.99, 0.998, 1]) entries.push({ label: `ducb γ=${gamma}`, name: 'ducb', opts: { gamma } });
    for (const window of [200, 1000]) entries.push({ label: `swucb W=${window}`, name: 'swucb', opts: { window } });
    for (const gamma of [0.99, 0.998, 1]) entries.push({ label: `thompson γ=${gamma}`, name: 'thompson', opts: { gamma } });
    for (const initialStep of [3, 10]) entries.push({ label: `thompson m=${initialStep}`, name: 'thompson', opts: { initialStep } });
    for (const priorPulls of [0.1, 10]) entries.push({ label: `thompson p0=${priorPulls}`, name: 'thompson', opts: { priorPulls } });
    for (const gamma of [0.98, 0.995, 1]) entries.push({ label: `auto γ=${gamma}`, name: 'auto', opts: { gamma } });
    for (const priorPulls of [0.1, 10]) entries.push({ label: `auto p0=${priorPulls}`, name: 'auto', opts: { priorPulls } });
  }
  if (values.only) {
    // Keep the default-option policies (the × columns need them) and the variants whose label starts with --only.
    const keep = (e: Entry) => Object.keys(e.opts).length === 0 || e.label.startsWith(values.only!);
    entries.splice(0, entries.length, ...entries.filter(keep));
  }
  const sets: SetName[] = ['ras', 'univ', 'mix'];
  const totals = new Map<string, Record<SetName, number[]>>();
  const started = performance.now();
  for (const e of entries) totals.set(e.label, { ras: [], univ: [], mix: [] });
  for (const set of sets) {
    for (let seed = 1; seed <= seeds; seed++) {
      const arms = generateSet(set, seed, budget);
      for (const e of entries) {
        const policy = createPolicy(e.name, { budget, seed, ...e.opts });
        totals.get(e.label)![set].push(simulate(policy, arms, budget).total);
      }
    }
  }
  const ms = performance.now() - started;

  const r1 = totals.get('r1')!;
  const r1Mean = Object.fromEntries(sets.map((s) => [s, meanAndInterval(r1[s]).mean])) as Record<SetName, number>;
  const best = Object.fromEntries(
    sets.map((s) => [s, Math.max(...entries.filter((e) => e.opts && Object.keys(e.opts).length === 0).map((e) => meanAndInterval(totals.get(e.label)![s]).mean))]),
  ) as Record<SetName, number>;
  console.log(`External links found with N = ${budget} pages, K = 10, ${seeds} seeds: mean ± 95% interval of the mean (× R1) [× best default-option policy]\n`);
  const head = ['policy', 'RAS-like', 'university-like', 'mix 5+5'];
  const rows = entries.map((e) => [
    e.label,
    ...sets.map((s) => {
      const { mean, half } = meanAndInterval(totals.get(e.label)![s]);
      return `${mean.toFixed(0)} ± ${half.toFixed(0)} (×${(mean / r1Mean[s]).toFixed(2)}) [${(mean / best[s]).toFixed(2)}]`;
    }),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log(`\n${entries.length} policies × 3 sets × ${seeds} seeds in ${(ms / 1000).toFixed(1)} s`);
  if (values.json) {
    writeFileSync(values.json, JSON.stringify({ budget, seeds, totals: Object.fromEntries(totals) }, null, 2));
  }
}

await main();
