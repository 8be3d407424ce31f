// `bench:bandit -- --generated`: the generated site sets of a sealed split crawled live per reward and concurrency,
// each policy's reward ÷ the best fixed rule (BeeBot §3) per set, from one crawl and from the mean of `--repeats`.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DEFAULT_POLICY, FIXED, type GeneratedSettings, losingSets, noiseFloor, perSetLines, type Reward, runSets, type SetResult, STRATEGY, sealedSeeds, summarize } from './bandit-generated.ts';

export interface GeneratedArgs {
  split: string;
  /** The first N seeds of the split (all when undefined). */
  seeds: number | undefined;
  budget: number;
  scale: number;
  jobs: number;
  /** Policies besides the fixed rules. */
  policies: string[];
  rewards: Reward[];
  concurrencies: number[];
  repeats: number;
  strategy: string | undefined;
  /** JSON lines of the fixed rules' crawls, read and extended (tuning: only the policy under study is crawled again). */
  cache: string | undefined;
  /** Print the sets where the default falls below 0.98 of the best fixed rule. */
  losers: boolean;
  /** Print every set: the default ÷ the best fixed rule beside the set's noise floor (see `perSetLines`). */
  perSet?: boolean;
  json: string | undefined;
}

interface CacheLine {
  key: string;
  seed: number;
  policy: string;
  runs: number[];
}

/** What a cached crawl depends on besides its set and policy. */
function cacheKey(s: GeneratedSettings): string {
  return JSON.stringify([s.reward, s.concurrency, s.budget, s.scale, s.strategy]);
}

function readCache(file: string | undefined): CacheLine[] {
  if (file === undefined || !existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as CacheLine);
}

/** Runs the generated sets; returns the lines to print (also printed with `say` as they come). */
export async function runGenerated(a: GeneratedArgs, say: (line: string) => void): Promise<SetResult[]> {
  if (!Number.isInteger(a.repeats) || a.repeats < 1) throw new Error(`--repeats must be an integer ≥ 1 (got ${a.repeats})`);
  const all = sealedSeeds(a.split);
  const seeds = a.seeds === undefined ? all : all.slice(0, a.seeds);
  const policies = [...new Set([...FIXED, ...a.policies])];
  const cache = readCache(a.cache);
  const out: SetResult[] = [];
  say(`Generated site sets, ${a.split} split (${seeds.length} sets: ${seeds[0]}…${seeds.at(-1)}), budget ${a.budget}, scale ${a.scale}, ${a.repeats} crawl(s) per set and policy, live crawls`);
  for (const reward of a.rewards) {
    for (const concurrency of a.concurrencies) {
      const strategy = a.strategy ?? STRATEGY[reward];
      const settings: GeneratedSettings = { budget: a.budget, scale: a.scale, concurrency, reward, policies, strategy, repeats: a.repeats };
      const key = cacheKey(settings);
      const known = (seed: number) =>
        Object.fromEntries(cache.filter((c) => c.key === key && c.seed === seed && (FIXED as readonly string[]).includes(c.policy)).map((c) => [c.policy, c.runs]));
      const results = await runSets(seeds, settings, a.jobs, (r) => {
        console.error(`set ${r.seed} ${reward} c${concurrency}: ${policies.map((p) => `${p} ${r.by[p]!.join('/')}`).join(', ')} (oracle ${r.oracle})`);
        if (a.cache !== undefined) for (const p of FIXED) appendFileSync(a.cache, `${JSON.stringify({ key, seed: r.seed, policy: p, runs: r.by[p] })}\n`);
      }, known);
      out.push(...results);
      const head = `${reward}, concurrency ${concurrency}, strategy ${strategy}: each policy ÷ the best fixed rule of the set (default: ${DEFAULT_POLICY[reward]})`;
      say(`\n${head}; one crawl per set and policy (the first repeat)`);
      for (const l of summarize(results, policies, 'single')) say(l);
      // What repeat crawls allow: the hindsight winner's own repeatability, and the best rule judged on another crawl.
      const floor = noiseFloor(results, policies.filter((p) => !(FIXED as readonly string[]).includes(p)));
      for (const l of floor) say(l);
      if (floor.length === 0) say('(the noise floor — self: the best fixed rule of crawl 1, crawl 2 ÷ crawl 1 — needs --repeats 2)');
      if (a.repeats > 1) {
        say(`\n${head}; the mean of ${a.repeats} crawls per set and policy, against the best fixed rule's mean`);
        for (const l of summarize(results, policies, 'mean')) say(l);
      }
      if (a.perSet) for (const l of perSetLines(results, DEFAULT_POLICY[reward])) say(`  ${l}`);
      if (a.losers) for (const l of losingSets(results, DEFAULT_POLICY[reward], a.repeats > 1 ? 'mean' : 'single')) say(`  ${l}`);
    }
  }
  if (a.json !== undefined) writeFileSync(a.json, JSON.stringify(out, null, 2));
  return out;
}
