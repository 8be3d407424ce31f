// Replays the bandit policies over the generated site sets of a split (src/simweb/profiles/generated-sets.ts), one
// fetch at a time: each site's rewards in breadth-first order (BeeBot §3's X(i, j)), no HTTP. A quick look for
// tuning; the figures that count are the live crawls of `bench:bandit -- --generated`.
//
// Usage: node bench/bandit-generated-replay.ts [--split tuning] [--seeds N] [--budget 600] [--scale 0.1]
//        [--reward external-links|rdf-docs] [--policies auto,...] [--losers]
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
  },
});
const budget = Number(values.budget);
const scale = Number(values.scale);
const reward = values.reward === 'rdf-docs' ? 'rdf-docs' : 'external-links';
const all = sealedSeeds(values.split);
const seeds = values.seeds === undefined ? all : all.slice(0, Number(values.seeds));
const policies = [...new Set([...FIXED, ...values.policies.split(',')])];
const results: SetResult[] = [];
for (const seed of seeds) {
  const model = buildWeb({ profiles: `generated-${seed}`, seed, scale });
  const source = modelSource(model);
  const rewardOf = reward === 'rdf-docs' ? rdfDocumentOf : externalLinksOf;
  const arms: ReplayArm[] = model.sites.map((s) => ({ id: s.host, rewards: siteSequence(source, s.startUrl, Number.POSITIVE_INFINITY, budget, rewardOf) }));
  const by: Record<string, number[]> = {};
  for (const p of policies) by[p] = [simulate(createPolicy(p, { budget, seed }), arms, budget).total];
  results.push({ seed, reward, concurrency: 1, plds: arms.length, oracle: prefixOracle(arms.map((a) => a.rewards), budget), by });
}
console.log(`Replay, ${values.split} split (${seeds.length} sets), ${reward}, budget ${budget}, scale ${scale}, one fetch at a time`);
for (const l of summarize(results, policies, 'single')) console.log(l);
if (values.losers) for (const p of values.policies.split(',')) for (const l of losingSets(results, p, 'single')) console.log(`  ${l}`);
