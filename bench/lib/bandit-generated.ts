// The PLD bandit on generated site sets (src/simweb/profiles/generated-sets.ts): live crawls of each set under every
// policy, each policy's reward over the best fixed rule's (BeeBot §3: round-robin, R1, R2, R3) per set.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { prefixOracle } from '../../src/bandit/prefix-oracle.ts';
import { buildWeb, startSimweb } from '../../src/simweb/index.ts';
import { externalLinksOf, modelSource, rdfDocumentOf, siteSequence } from '../../src/simweb/site-sequence.ts';
import { crawlOnce } from './bandit-crawl.ts';

export type Reward = 'external-links' | 'rdf-docs';

/** BeeBot §3's fixed rules: the yardstick. */
export const FIXED = ['round-robin', 'r1', 'r2', 'r3'] as const;

/** The crawl's default policy per reward (src/crawl/options.ts). */
export const DEFAULT_POLICY: Record<Reward, string> = { 'external-links': 'auto', 'rdf-docs': 'auto' };

/**
 * The strategy inside each site per reward: BeeBot's breadth-first for external links (its X(i, j) are in BFS
 * order, §3); the crawl's default focused strategy for RDF documents, as a Linked-Data crawl runs.
 */
export const STRATEGY: Record<Reward, string> = { 'external-links': 'bfs', 'rdf-docs': 'fc-r+hr' };

export interface GeneratedSettings {
  budget: number;
  /** Strategy inside each site (default: STRATEGY[reward]). */
  strategy?: string;
  scale: number;
  concurrency: number;
  reward: Reward;
  policies: string[];
  /** Crawls of each (set, policy), each with its own crawl seed (the web stays the set's). Default 1. */
  repeats?: number;
}

export interface SetResult {
  seed: number;
  reward: Reward;
  concurrency: number;
  plds: number;
  oracle: number;
  /** Reward per policy, one per repeat (repeat r crawls with `crawlSeed(seed, r)`). */
  by: Record<string, number[]>;
}

/** The crawl's seed of repeat r of set `seed`: the set's own seed first, so that one repeat is the single run. */
function crawlSeed(seed: number, r: number): number {
  return seed + 1_000_000 * r;
}

/** The seeds of one split of bench/bandit-seeds.json (`tuning`, `evaluation`, `evaluation-2`, `evaluation-3`, `evaluation-4`). */
export function sealedSeeds(split: string): number[] {
  const file = JSON.parse(readFileSync(new URL('../bandit-seeds.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  const seeds = file[split];
  if (split === 'about' || !Array.isArray(seeds)) {
    const names = Object.keys(file).filter((k) => Array.isArray(file[k]));
    throw new Error(`bench/bandit-seeds.json has no split "${split}" (splits: ${names.join(', ')})`);
  }
  return seeds as number[];
}

/**
 * One set crawled live under every policy, `repeats` times each (this process). `known` holds rewards already
 * measured (a cache of the fixed rules' crawls): a policy's repeats found there are not crawled again.
 */
export async function runSet(seed: number, s: GeneratedSettings, known: Record<string, number[]> = {}): Promise<SetResult> {
  const profiles = `generated-${seed}`;
  const model = buildWeb({ profiles, seed, scale: s.scale });
  const source = modelSource(model);
  const rewardOf = s.reward === 'rdf-docs' ? rdfDocumentOf : externalLinksOf;
  const seqs = model.sites.map((site) => siteSequence(source, site.startUrl, Number.POSITIVE_INFINITY, s.budget, rewardOf));
  const oracle = prefixOracle(seqs, s.budget);
  const web = await startSimweb({ profiles, seed, scale: s.scale });
  try {
    const by: Record<string, number[]> = {};
    for (const bandit of s.policies) {
      const runs = (known[bandit] ?? []).slice(0, s.repeats ?? 1);
      for (let r = runs.length; r < (s.repeats ?? 1); r++) {
        const f = await crawlOnce(web, web.sites.map((site) => site.startUrl), {
          bandit,
          strategy: s.strategy ?? STRATEGY[s.reward],
          reward: s.reward,
          budget: s.budget,
          seed: crawlSeed(seed, r),
          maxDepth: Number.POSITIVE_INFINITY,
          concurrency: s.concurrency,
          hostConcurrency: 1,
        });
        runs.push(s.reward === 'rdf-docs' ? f.rdfDocuments : f.reward);
      }
      by[bandit] = runs;
    }
    return { seed, reward: s.reward, concurrency: s.concurrency, plds: model.sites.length, oracle, by };
  } finally {
    await web.close();
  }
}

/**
 * Runs the sets in `jobs` child processes at once (each `node bench/bandit.ts --generated-worker JSON`); `known`
 * gives, per set, rewards already measured (see `runSet`).
 */
export async function runSets(
  seeds: readonly number[],
  s: GeneratedSettings,
  jobs: number,
  onDone: (r: SetResult) => void,
  known: (seed: number) => Record<string, number[]> = () => ({}),
): Promise<SetResult[]> {
  const out: SetResult[] = [];
  let next = 0;
  const script = new URL('../bandit.ts', import.meta.url).pathname;
  const worker = async (): Promise<void> => {
    while (next < seeds.length) {
      const seed = seeds[next++]!;
      const child = spawn(process.execPath, [script, '--generated-worker', JSON.stringify({ seed, settings: s, known: known(seed) })], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      if (code !== 0) throw new Error(`set ${seed} (${s.reward}, concurrency ${s.concurrency}) failed with exit ${code}`);
      const r = JSON.parse(text.trim().split('\n').at(-1)!) as SetResult;
      out.push(r);
      onDone(r);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return out.sort((a, b) => a.seed - b.seed);
}

/** The q-quantile (0–1) of `xs` by the nearest-rank rule. */
function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** How a set's figure per policy is read from its repeats: the first crawl alone, or the mean of all. */
export type Reading = 'single' | 'mean';

/** A policy's reward on a set under `reading`. */
export function rewardOf(r: SetResult, policy: string, reading: Reading): number {
  const runs = r.by[policy]!;
  return reading === 'single' ? runs[0]! : runs.reduce((a, b) => a + b, 0) / runs.length;
}

/** The best fixed rule of a set under `reading` (its name and reward). */
export function bestFixed(r: SetResult, reading: Reading): { rule: string; reward: number } {
  let best = { rule: FIXED[0] as string, reward: Number.NEGATIVE_INFINITY };
  for (const p of FIXED) if (p in r.by && rewardOf(r, p, reading) > best.reward) best = { rule: p, reward: rewardOf(r, p, reading) };
  return best;
}

/** A policy's ratio to the best fixed rule of a set (1 where no fixed rule earns anything: the set says nothing). */
export function ratioOf(r: SetResult, policy: string, reading: Reading): number {
  const best = bestFixed(r, reading).reward;
  return best > 0 ? rewardOf(r, policy, reading) / best : 1;
}

/** A table row: per-set ratios (min, p10, median, shares ≥ 0.98 and ≥ 0.90) and the totals' ratios. */
function row(label: string, ratios: readonly number[], total: number, oracle: number | null): string {
  const share = (t: number) => `${ratios.filter((x) => x >= t).length}/${ratios.length}`;
  const q = (p: number) => quantile(ratios, p).toFixed(3);
  return `| ${label} | ${q(0)} | ${q(0.1)} | ${q(0.5)} | ${share(0.98)} | ${share(0.9)} | ${total.toFixed(3)} | ${oracle === null ? '—' : oracle.toFixed(3)} |`;
}

/** a ÷ b, 1 when b is 0 (nothing to earn: the set says nothing). */
function over(a: number, b: number): number {
  return b > 0 ? a / b : 1;
}

/** Each policy's ratio to the best fixed rule per set: min, 10th percentile, median, share ≥ 0.98, total. */
export function summarize(results: readonly SetResult[], policies: readonly string[], reading: Reading = 'single'): string[] {
  const lines: string[] = [];
  lines.push('| policy | min | p10 | median | sets ≥ 0.98 | sets ≥ 0.90 | total ÷ best fixed | total ÷ oracle |');
  lines.push('|---|---|---|---|---|---|---|---|');
  const sum = (f: (r: SetResult) => number) => results.reduce((a, r) => a + f(r), 0);
  for (const p of policies) {
    const ratios = results.map((r) => ratioOf(r, p, reading));
    const total = sum((r) => rewardOf(r, p, reading)) / Math.max(1, sum((r) => bestFixed(r, reading).reward));
    const oracle = sum((r) => rewardOf(r, p, reading)) / Math.max(1, sum((r) => r.oracle));
    lines.push(row(p, ratios, total, oracle));
  }
  return lines;
}

/**
 * The noise floor of a set from two crawls of every fixed rule (the first two repeats): the winner of crawl 1
 * (`bestFixed` on the first crawls), its reward on crawl 1 and on crawl 2, and the best fixed rule's reward on
 * crawl 2. Undefined when a fixed rule has fewer than two crawls.
 */
export function twoCrawls(r: SetResult): { winner: string; first: number; second: number; bestSecond: number } | undefined {
  if (FIXED.some((p) => (r.by[p]?.length ?? 0) < 2)) return undefined;
  const winner = bestFixed(r, 'single');
  return { winner: winner.rule, first: winner.reward, second: r.by[winner.rule]![1]!, bestSecond: Math.max(...FIXED.map((p) => r.by[p]![1]!)) };
}

/**
 * What repeat crawls allow (rows for the one-crawl table), from every set's first two crawls of the fixed rules:
 * - `self`: the best fixed rule of crawl 1 (chosen in hindsight), its crawl 2 ÷ its crawl 1: how far a rule that
 *   *is* the hindsight winner falls from its own first figure when crawled again;
 * - `winner on crawl 2`: that rule's crawl 2 ÷ the best fixed rule of crawl 2: the rule judged as `policy` rows
 *   are, against the largest of four noisy figures of the same crawl;
 * - `policy ÷ winner, crawl 2` (each of `policies`): the policy's first crawl ÷ the winner of crawl 1's reward on
 *   crawl 2: the best rule chosen on one crawl and judged on an independent one (no hindsight on the same noise).
 * Empty when a set lacks a second crawl of a fixed rule (`--repeats 1`).
 */
export function noiseFloor(results: readonly SetResult[], policies: readonly string[]): string[] {
  const pairs = results.map((r) => ({ r, t: twoCrawls(r) }));
  if (pairs.length === 0 || pairs.some((p) => p.t === undefined)) return [];
  const two = pairs as { r: SetResult; t: NonNullable<ReturnType<typeof twoCrawls>> }[];
  const sum = (f: (p: (typeof two)[number]) => number) => two.reduce((a, p) => a + f(p), 0);
  const lines = [
    row('self: best fixed rule of crawl 1, its crawl 2 ÷ crawl 1', two.map(({ t }) => over(t.second, t.first)), over(sum(({ t }) => t.second), sum(({ t }) => t.first)), null),
    row('that rule on crawl 2 ÷ best fixed rule of crawl 2', two.map(({ t }) => over(t.second, t.bestSecond)), over(sum(({ t }) => t.second), sum(({ t }) => t.bestSecond)), null),
  ];
  for (const p of policies) {
    if (two.some(({ r }) => r.by[p] === undefined)) continue;
    const mine = ({ r }: (typeof two)[number]) => r.by[p]![0]!;
    lines.push(row(`${p} ÷ best fixed rule of crawl 1 judged on crawl 2`, two.map((x) => over(mine(x), x.t.second)), over(sum(mine), sum(({ t }) => t.second)), null));
  }
  return lines;
}

/** The sets where `policy` falls below 0.98 of the best fixed rule under `reading`: what they hold and who wins. */
export function losingSets(results: readonly SetResult[], policy: string, reading: Reading): string[] {
  return results
    .filter((r) => ratioOf(r, policy, reading) < 0.98)
    .sort((a, b) => ratioOf(a, policy, reading) - ratioOf(b, policy, reading))
    .map((r) => {
      const best = bestFixed(r, reading);
      const runs = (p: string) => r.by[p]!.join('/');
      const t = twoCrawls(r);
      const self = t === undefined ? '' : ` (self ${over(t.second, t.first).toFixed(3)})`;
      return `set ${r.seed} (${r.plds} PLDs, oracle ${r.oracle}): ${policy} ${ratioOf(r, policy, reading).toFixed(3)} of ${best.rule}${self}; ${Object.keys(r.by).map((p) => `${p} ${runs(p)}`).join(', ')}`;
    });
}

/**
 * One line per set (`--per-set`): `policy` ÷ the best fixed rule on crawl 1 (and on the mean of the repeats), beside
 * the noise floor of `noiseFloor` for that set (self, the winner judged on crawl 2, `policy` ÷ the winner's crawl 2).
 */
export function perSetLines(results: readonly SetResult[], policy: string): string[] {
  return results.map((r) => {
    const best = bestFixed(r, 'single');
    const t = twoCrawls(r);
    const mean = r.by[policy]!.length > 1 ? `, mean ${ratioOf(r, policy, 'mean').toFixed(3)}` : '';
    const floor =
      t === undefined ? '' : `; ${t.winner} self ${over(t.second, t.first).toFixed(3)}, on crawl 2 ${over(t.second, t.bestSecond).toFixed(3)} of the best; ${policy} ÷ ${t.winner}'s crawl 2 ${over(r.by[policy]![0]!, t.second).toFixed(3)}`;
    return `set ${r.seed} (${r.plds} PLDs): ${policy} ${ratioOf(r, policy, 'single').toFixed(3)} of ${best.rule}${mean}${floor}`;
  });
}
