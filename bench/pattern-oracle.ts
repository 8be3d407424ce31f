// The pattern oracle against the oracle (issue 17), from the link graph only (no crawl): which template value to
// order by, and how much of the oracle a clairvoyant URL-template predictor reaches at k fetches.
//
// Usage: node bench/pattern-oracle.ts [--profiles single] [--seeds 3] [--seed-base 1] [--scale 0.5] [--k 500,1000,2000]
//                                     [--values rate,reach,useful] [--template format|url]
//
// `single` = the single-site tuning profiles (as bench/yield-tuning.ts); `held-out` the held-out ones. The curves are
// computed as bench:thesis computes the oracle: one site, robots respected, HTML variants of negotiated URIs allowed.
// Prints, per profile and in total, RDF documents after k fetches of the oracle and of the pattern oracle with each
// template value (sum over seeds), and the pattern oracle's share of the oracle. Choose the value on tuning profiles.
// `--template url`: plain `urlTemplate`; `format` (default): with format names in query values kept (`formatTemplate`).
import { parseArgs } from 'node:util';
import { urlTemplate } from '../src/links/url-template.ts';
import {
  buildWeb,
  formatTemplate,
  linksOf,
  META_PROFILES,
  type OracleSource,
  oracleCurve,
  type PatternValue,
  patternOracleCurve,
  SINGLE_SITE_TUNING_PROFILES,
  truthRecords,
} from '../src/simweb/index.ts';
const { values } = parseArgs({
  options: {
    profiles: { type: 'string', default: 'single' },
    seeds: { type: 'string', default: '3' },
    'seed-base': { type: 'string', default: '1' },
    scale: { type: 'string', default: '0.5' },
    k: { type: 'string', default: '500' },
    values: { type: 'string', default: 'rate,reach,useful' },
    template: { type: 'string', default: 'format' },
  },
});
const profiles = values.profiles === 'single' ? SINGLE_SITE_TUNING_PROFILES : values.profiles!.split(',').flatMap((p) => META_PROFILES[p.trim()] ?? [p.trim()]);
const seeds = Number(values.seeds);
const seedBase = Number(values['seed-base']);
const scale = Number(values.scale);
const ks = values.k!.split(',').map(Number);
const kinds = values.values!.split(',') as PatternValue[];
const maxK = Math.max(...ks);
const templateOf = values.template === 'url' ? urlTemplate : formatTemplate;
const log = (s: string) => process.stdout.write(`${s}\n`);

log(`pattern oracle vs oracle: seeds ${seedBase}…${seedBase + seeds - 1}, scale ${scale}, template ${values.template}; RDF documents summed over seeds`);
for (const k of ks) {
  const rows: string[][] = [];
  const total = new Map<string, number>();
  for (const profile of profiles) {
    const sums = new Map<string, number>();
    for (let seed = seedBase; seed < seedBase + seeds; seed++) {
      const model = buildWeb({ profiles: profile, seed, scale });
      const truth = [...truthRecords(model)];
      const site = model.sites[0]!;
      const source: OracleSource = { sites: [{ host: site.host, startUrl: site.startUrl }], truth: () => truth, links: (u) => linksOf(model, u) };
      const options = { hosts: [site.host], htmlVariants: true };
      const oracle = oracleCurve(source, maxK, options);
      sums.set('oracle', (sums.get('oracle') ?? 0) + (oracle[k] ?? 0));
      for (const kind of kinds) {
        const curve = patternOracleCurve(source, maxK, { ...options, value: kind, templateOf });
        sums.set(kind, (sums.get(kind) ?? 0) + (curve[k] ?? 0));
        for (let i = 0; i <= maxK; i++) if ((curve[i] ?? 0) > (oracle[i] ?? 0)) throw new Error(`${profile} seed ${seed}: ${kind} above the oracle at k=${i}`);
      }
    }
    for (const [key, v] of sums) total.set(key, (total.get(key) ?? 0) + v);
    rows.push(row(profile, sums));
  }
  rows.push(row('total', total));
  log(`\nk = ${k} fetches`);
  log(['profile'.padEnd(18), 'oracle'.padStart(8), ...kinds.map((x) => x.padStart(8)), ...kinds.map((x) => `${x}/or`.padStart(10))].join(' '));
  for (const r of rows) log(r.join(' '));
}

function row(label: string, sums: Map<string, number>): string[] {
  const o = sums.get('oracle') ?? 0;
  return [
    label.padEnd(18),
    String(o).padStart(8),
    ...kinds.map((x) => String(sums.get(x) ?? 0).padStart(8)),
    ...kinds.map((x) => (o === 0 ? '–' : ((sums.get(x) ?? 0) / o).toFixed(3)).padStart(10)),
  ];
}
