// Replays the bandit policies over the generated site sets of a split (src/simweb/profiles/generated-sets.ts), one
// fetch at a time: each site's rewards in breadth-first order (BeeBot §3's X(i, j)), no HTTP. A quick look for
// tuning; the figures that count are the live crawls of `bench:bandit -- --generated`.
//
// Usage: node bench/bandit-generated-replay.ts [--split tuning] [--seeds N] [--budget 600] [--scale 0.1]
//        [--reward external-links|rdf-docs] [--policies auto,...] [--losers] [--orders K]
//
// --orders K: every policy is replayed on the sites in the order listed (the order the crawl discovers them: its
// seed list) and in K shuffled orders (seeded, the same for every policy), and a second table compares the means
// over the K + 1 orders. Why: R2's ties (and batches among arms that paid nothing) go to the earliest-discovered
// arm, so where every site left is barren at first, R2 digs whichever site is listed first; when that site happens
// to be rich deep down, R2 wins by the list's order, not by its rule (generated set 9022: 352 links as listed,
// 25–352 in shuffled orders, median 32).
import { parseArgs } from 'node:util';
import { createPolicy } from '../src/bandit/create-policy.ts';
import { prefixOracle } from '../src/bandit/prefix-oracle.ts';
import { type ReplayArm, simulate } from '../src/bandit/simulate.ts';
import { buildWeb } from '../src/simweb/index.ts';
import { externalLinksOf, modelSource, rdfDocumentOf, siteSequence } from '../src/simweb/site-sequence.ts';
import { FIXED, losingSets, type SetResult, sealedSeeds, summarize } from './lib/bandit-generated.ts';

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: 'tuning' },
    seeds: { type: 'string' },
    budget: { type: 'string', default: '600' },
    scale: { type: 'string', default: '0.1' },
    reward: { type: 'string', default: 'external-links' },
    policies: { type: 'string', default: 'auto' },
    losers: { type: 'boolean', default: false },
    orders: { type: 'string', default: '0' },
  },
});
const budget = Number(values.budget);
const scale = Number(values.scale);
const reward = values.reward === 'rdf-docs' ? 'rdf-docs' : 'external-links';
const all = sealedSeeds(values.split);
const seeds = values.seeds === undefined ? all : all.slice(0, Number(values.seeds));
const policies = [...new Set([...FIXED, ...values.policies.split(',')])];
const orders = Number(values.orders);

/** `arms` in the order of a seeded Fisher–Yates shuffle (mulberry32): the same for every policy. */
function shuffled<T>(arms: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...arms];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
const results: SetResult[] = [];
for (const seed of seeds) {
  const model = buildWeb({ profiles: `generated-${seed}`, seed, scale });
  const source = modelSource(model);
  const rewardOf = reward === 'rdf-docs' ? rdfDocumentOf : externalLinksOf;
  const arms: ReplayArm[] = model.sites.map((s) => ({ id: s.host, rewards: siteSequence(source, s.startUrl, Number.POSITIVE_INFINITY, budget, rewardOf) }));
  const by: Record<string, number[]> = {};
  const orderings = [arms, ...Array.from({ length: orders }, (_, k) => shuffled(arms, seed * 1000 + k + 1))];
  for (const p of policies) by[p] = orderings.map((o) => simulate(createPolicy(p, { budget, seed }), o, budget).total);
  results.push({ seed, reward, concurrency: 1, plds: arms.length, oracle: prefixOracle(arms.map((a) => a.rewards), budget), by });
}
console.log(`Replay, ${values.split} split (${seeds.length} sets), ${reward}, budget ${budget}, scale ${scale}, one fetch at a time`);
for (const l of summarize(results, policies, 'single')) console.log(l);
if (orders > 0) {
  console.log(`\nThe same, each policy's mean over the order listed and ${orders} shuffled orders of the sites`);
  for (const l of summarize(results, policies, 'mean')) console.log(l);
}
if (values.losers) for (const p of values.policies.split(',')) for (const l of losingSets(results, p, 'single')) console.log(`  ${l}`);
