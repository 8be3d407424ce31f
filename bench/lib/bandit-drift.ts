// The bandit on site sets that change during the crawl, under politeness: replay table over many seeds, live crawls vs replay.
import { createPolicy } from '../../src/bandit/create-policy.ts';
import { simulateConcurrent } from '../../src/bandit/simulate-concurrent.ts';
import type { ReplayArm } from '../../src/bandit/simulate.ts';
import { Prng } from '../../src/random/prng.ts';
import { buildWeb, startSimweb } from '../../src/simweb/index.ts';
import { crawlOnce } from './bandit-crawl.ts';
import { modelSource, siteSequence } from '../../src/simweb/site-sequence.ts';

/** The four kinds of changing site sets and their simulated-web profiles (src/simweb/profiles/bandit-drift.ts). */
const DRIFT_KINDS = {
  late: { profile: 'bandit-late', title: '(a) links past a late start' },
  dry: { profile: 'bandit-dry', title: '(b) links drying up early' },
  rich: { profile: 'bandit-rich', title: '(c) a few rich among poor' },
  many: { profile: 'bandit-many', title: '(d) many sites, few links' },
} as const;

export type DriftKind = keyof typeof DRIFT_KINDS;

/** BeeBot §3's fixed rules: the yardstick. */
const FIXED_RULES = ['round-robin', 'r1', 'r2', 'r3'] as const;

export interface DriftSettings {
  budget: number;
  /** Fetches in flight (`--concurrency`); host concurrency is 1, politeness delay 0. */
  concurrency: number;
  /** The default policy measured against the fixed rules. */
  policy: string;
}

/** The arms of one generated set: each site's external links per page in breadth-first order (no depth limit). */
function driftArms(kind: DriftKind, seed: number, budget: number): ReplayArm[] {
  const model = buildWeb({ profiles: DRIFT_KINDS[kind].profile, seed });
  const source = modelSource(model);
  return model.sites.map((s) => ({ id: s.pld, rewards: siteSequence(source, s.startUrl, Number.POSITIVE_INFINITY, budget) }));
}

/**
 * The replay of `policy` as a polite crawl runs it: `concurrency` fetches in flight, one per PLD, fetch times
 * uniform in [0.5, 1.5) (seeded), so that fetches end one by one as they do over HTTP.
 */
function replayDrift(policy: string, arms: readonly ReplayArm[], seed: number, s: DriftSettings): number {
  const latency = new Prng(seed * 31 + 7);
  const p = createPolicy(policy, { budget: s.budget, seed });
  return simulateConcurrent(p, arms, s.budget, { concurrency: s.concurrency, latency: () => 0.5 + latency.next() }).total;
}

/** The same set crawled for real over HTTP on 127.0.0.1: external links found by the crawl (read from the truth). */
async function liveDrift(kind: DriftKind, policies: readonly string[], seed: number, s: DriftSettings): Promise<Record<string, { reward: number; inFlight: number }>> {
  const web = await startSimweb({ profiles: DRIFT_KINDS[kind].profile, seed });
  try {
    const out: Record<string, { reward: number; inFlight: number }> = {};
    for (const bandit of policies) {
      const f = await crawlOnce(web, web.sites.map((site) => site.startUrl), {
        bandit,
        strategy: 'bfs',
        reward: 'external-links',
        budget: s.budget,
        seed,
        maxDepth: Number.POSITIVE_INFINITY,
        concurrency: s.concurrency,
        hostConcurrency: 1,
      });
      out[bandit] = { reward: f.reward, inFlight: f.inFlight };
      console.error(`live ${kind} seed ${seed} ${bandit}: ${f.reward} external links, ${f.inFlight.toFixed(2)} fetches in flight on average, ${(f.ms / 1000).toFixed(1)} s`);
    }
    return out;
  } finally {
    await web.close();
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function half(xs: readonly number[]): number {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  return (1.96 * Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1))) / Math.sqrt(xs.length);
}

/** Results of one kind: policy → value per seed (seeds in `seeds` order). */
type KindResults = Record<string, number[]>;

/** The summary of one kind: best fixed rule by mean, the default's ratio to it, the default's worst seed. */
function summarizeKind(r: KindResults, seeds: readonly number[], policy: string): { best: string; ratio: number; worst: { seed: number; ratio: number } } {
  const best = FIXED_RULES.filter((f) => r[f]).reduce((a, b) => (mean(r[b]!) > mean(r[a]!) ? b : a));
  const ratio = mean(r[policy]!) / mean(r[best]!);
  let worst = { seed: seeds[0]!, ratio: Number.POSITIVE_INFINITY };
  seeds.forEach((seed, k) => {
    const top = Math.max(...FIXED_RULES.filter((f) => r[f]).map((f) => r[f]![k]!));
    const q = top > 0 ? r[policy]![k]! / top : 1;
    if (q < worst.ratio) worst = { seed, ratio: q };
  });
  return { best, ratio, worst };
}

/** A markdown table: one row per policy, one column per kind, mean ± 95% interval [× best fixed rule]; then the summary rows. */
function driftTable(results: Record<DriftKind, KindResults>, kinds: readonly DriftKind[], seeds: readonly number[], policies: readonly string[], policy: string): string[] {
  const head = ['policy', ...kinds.map((k) => DRIFT_KINDS[k].title)];
  const sums = Object.fromEntries(kinds.map((k) => [k, summarizeKind(results[k], seeds, policy)]));
  const rows = policies.map((p) => [
    p,
    ...kinds.map((k) => {
      const xs = results[k][p]!;
      const h = half(xs);
      return `${mean(xs).toFixed(0)}${Number.isNaN(h) ? '' : ` ± ${h.toFixed(0)}`} [${(mean(xs) / mean(results[k][sums[k]!.best]!)).toFixed(3)}]`;
    }),
  ]);
  rows.push([`${policy} / best fixed`, ...kinds.map((k) => `${sums[k]!.ratio.toFixed(3)} (best: ${sums[k]!.best})`)]);
  rows.push([`worst seed (${policy} / best fixed of that seed)`, ...kinds.map((k) => `seed ${sums[k]!.worst.seed}: ${sums[k]!.worst.ratio.toFixed(2)}`)]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
}

/**
 * The whole experiment: the replay of every policy on every kind and seed (tables for the tuning seeds and the
 * held-out ones), then the live crawls of `live` seeds against the replay of the same pages. Returns the lines to print.
 */
export async function runDrift(o: { kinds: DriftKind[]; seeds: number[]; tune: number[]; live: number[]; policies: string[]; settings: DriftSettings }): Promise<string[]> {
  const { kinds, policies, settings } = o;
  const replay = {} as Record<DriftKind, KindResults>;
  for (const kind of kinds) {
    replay[kind] = Object.fromEntries(policies.map((p) => [p, [] as number[]]));
    for (const seed of o.seeds) {
      const arms = driftArms(kind, seed, settings.budget);
      for (const p of policies) replay[kind][p]!.push(replayDrift(p, arms, seed, settings));
    }
  }
  const held = o.seeds.filter((s) => !o.tune.includes(s));
  const subset = (seeds: number[]) =>
    Object.fromEntries(kinds.map((k) => [k, Object.fromEntries(policies.map((p) => [p, seeds.map((s) => replay[k][p]![o.seeds.indexOf(s)]!)]))])) as Record<DriftKind, KindResults>;
  const range = (xs: number[]) => (xs.length === 0 ? 'none' : `${xs[0]}–${xs.at(-1)}`);
  const what = `external links found, N = ${settings.budget} pages, concurrency ${settings.concurrency}, host concurrency 1, no delay; replay over the simulated web's pages`;
  const lines: string[] = [];
  for (const [label, seeds] of [
    [`held-out seeds ${range(held)} (never tuned on)`, held],
    [`tuning seeds ${range(o.tune)}`, o.tune],
    [`all seeds ${range(o.seeds)}`, o.seeds],
  ] as const) {
    if (seeds.length === 0) continue;
    lines.push('', `Changing site sets, ${label}: ${what}; mean ± 95% interval [× best fixed rule]`, ...driftTable(subset([...seeds]), kinds, seeds, policies, settings.policy));
  }
  if (o.live.length === 0) return lines;
  const lower = { ...settings, concurrency: Math.max(1, settings.concurrency - 1) };
  lines.push(
    '',
    `Live crawls over HTTP on 127.0.0.1 (concurrency ${settings.concurrency}, host concurrency 1) vs replay of the same pages, seeds ${o.live.join(', ')} (sums): ` +
      `live / replay at concurrency ${settings.concurrency} = ratio [replay at concurrency ${lower.concurrency}]; last row: fetches in flight on average in the live crawls`,
  );
  const head = ['policy', ...kinds.map((k) => DRIFT_KINDS[k].title)];
  const cells: string[][] = [...policies.map((p) => [p]), ['fetches in flight (live)']];
  for (const kind of kinds) {
    const live: Record<string, number> = {};
    const rep: Record<string, number> = {};
    const repLower: Record<string, number> = {};
    let inFlight = 0;
    for (const seed of o.live) {
      const got = await liveDrift(kind, policies, seed, settings);
      const arms = driftArms(kind, seed, settings.budget);
      for (const p of policies) {
        live[p] = (live[p] ?? 0) + got[p]!.reward;
        rep[p] = (rep[p] ?? 0) + replayDrift(p, arms, seed, settings);
        repLower[p] = (repLower[p] ?? 0) + replayDrift(p, arms, seed, lower);
        inFlight += got[p]!.inFlight / (policies.length * o.live.length);
      }
    }
    policies.forEach((p, i) => {
      cells[i]!.push(`${live[p]} / ${rep[p]} = ${(live[p]! / Math.max(1, rep[p]!)).toFixed(3)} [${repLower[p]}]`);
    });
    cells.at(-1)!.push(inFlight.toFixed(2));
  }
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  lines.push(line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line));
  return lines;
}
