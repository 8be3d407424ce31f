// Tunes the yield strategy on the tuning profiles only: FC-R+HR, the oracle and yield variants on
// the same simulated sites, with a per-URL-template diagnostic of where each crawler's fetches go.
//
// Usage: node bench/yield-tuning.ts [--profiles single] [--seeds 3] [--seed-base 1] [--scale 0.5] [--budget 500]
//                                   [--concurrency 1] [--variants '[{"name":"base"},{"name":"v1","options":{…}}]']
//                                   [--diag institute-like] [--diag-seed 1]
//
// `single` = the single-site tuning profiles (the held-out ones are refused: this script tunes). A variant names
// `LinkYield` options and a send-back margin (`YieldStrategyOptions`); the crawl does not take strategy options yet
// (Crawler.open creates the strategy by name), so only variants without options run. Concurrency 1 is
// deterministic; the held-out settings are scale 0.5, 500 fetches per PLD, concurrency 5 (as bench/thesis.ts).
// `--diag PROFILE` prints, per URL template, what FC-R+HR and each variant fetched there: fetches, RDF documents, pages
// on a shortest path to an RDF document (the only pages the oracle fetches) and the rest (waste). Each crawl is also
// compared with the pattern oracle (the best a URL-template learner can know; src/simweb/pattern-oracle.ts).
import { parseArgs } from 'node:util';
import { urlTemplate } from '../src/links/url-template.ts';
import type { LinkYieldOptions } from '../src/relevance/link-yield.ts';
import { HELD_OUT_PROFILES, oracleCurve, patternOracleCurve, SINGLE_SITE_TUNING_PROFILES, type SimWeb, startSimweb } from '../src/simweb/index.ts';
import { runCrawl } from '../test/helpers/run-crawl.ts';
import type { CrawlRecord } from '../src/crawl-log/record.ts';
import { isRdfDocument } from '../src/metrics/index.ts';

interface Variant {
  name: string;
  options?: LinkYieldOptions;
  margin?: number;
}

const { values } = parseArgs({
  options: {
    profiles: { type: 'string', default: 'single' },
    seeds: { type: 'string', default: '3' },
    'seed-base': { type: 'string', default: '1' },
    scale: { type: 'string', default: '0.5' },
    budget: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '1' },
    variants: { type: 'string', default: '[{"name":"yield"}]' },
    diag: { type: 'string', default: '' },
    'diag-seed': { type: 'string', default: '1' },
  },
});
const profiles = values.profiles === 'single' ? SINGLE_SITE_TUNING_PROFILES : values.profiles!.split(',').map((s) => s.trim());
for (const p of profiles) if (HELD_OUT_PROFILES.includes(p)) throw new Error(`${p} is held out: never tune on it`);
const seeds = Number(values.seeds);
const seedBase = Number(values['seed-base']);
const scale = Number(values.scale);
const budget = Number(values.budget);
const concurrency = Number(values.concurrency);
const variants = JSON.parse(values.variants!) as Variant[];
for (const v of variants) {
  if (v.options !== undefined || v.margin !== undefined) {
    throw new Error(`variant ${v.name}: options and margin need Crawler.open to pass YieldStrategyOptions to the strategy it creates; not wired yet`);
  }
}
const diag = values.diag!;
const diagSeed = Number(values['diag-seed']);
const log = (s: string) => process.stdout.write(`${s}\n`);

/** URLs on a shortest path from the start page to an RDF document (truth `R`, status 200): what the oracle may fetch. */
function usefulUrls(web: SimWeb): Set<string> {
  const truth = [...web.truth()].filter((t) => t.depth >= 0 && !t.disallowed);
  const byUrl = new Map(truth.map((t) => [t.url, t]));
  const useful = new Set<string>();
  for (const t of truth.slice().sort((a, b) => b.depth - a.depth)) {
    if (t.label === 'R' && t.status === 200) {
      useful.add(t.url);
      continue;
    }
    const next = [...web.links(t.url), ...(t.redirectTo ? [t.redirectTo] : [])];
    if (next.some((u) => useful.has(u) && byUrl.get(u)?.depth === t.depth + 1)) useful.add(t.url);
  }
  return useful;
}

interface TemplateRow {
  fetches: number;
  rdf: number;
  useful: number;
}

function byTemplate(records: readonly CrawlRecord[], useful: Set<string>): Map<string, TemplateRow> {
  const m = new Map<string, TemplateRow>();
  for (const r of records) {
    const k = urlTemplate(r.url).replace(/^[^/]+/, '');
    const row = m.get(k) ?? { fetches: 0, rdf: 0, useful: 0 };
    row.fetches++;
    if (isRdfDocument(r)) row.rdf++;
    if (useful.has(r.url) || useful.has(r.finalUrl)) row.useful++;
    m.set(k, row);
  }
  return m;
}

const names = ['fc-r+hr', ...variants.map((v) => v.name)];
const totals = new Map<string, Map<string, number>>(); // profile → crawler → RDF
const oracleTotals = new Map<string, Map<string, number>>(); // profile → crawler → oracle@k
const patternTotals = new Map<string, Map<string, number>>(); // profile → crawler → pattern oracle@k
const t0 = performance.now();
for (const profile of profiles) {
  totals.set(profile, new Map());
  oracleTotals.set(profile, new Map());
  patternTotals.set(profile, new Map());
  for (let seed = seedBase; seed < seedBase + seeds; seed++) {
    const web = await startSimweb({ profiles: profile, seed, scale, crawlDelay: 0 });
    try {
      const site = web.sites[0]!;
      const oracle = oracleCurve(web, budget * 4, { hosts: [site.host], htmlVariants: true });
      const pattern = patternOracleCurve(web, budget * 4, { hosts: [site.host], htmlVariants: true });
      const useful = profile === diag && seed === diagSeed ? usefulUrls(web) : null;
      const diagRows = new Map<string, Map<string, TemplateRow>>();
      const line: string[] = [];
      for (const name of names) {
        const v = variants.find((x) => x.name === name);
        const run = await runCrawl({
          seeds: [site.startUrl],
          proxy: web.proxyUrl,
          strategy: v === undefined ? name : 'yield',
          maxDocs: budget,
          maxDocsPerPld: budget,
          maxLinksPerDoc: 500,
          concurrency,
          hostConcurrency: concurrency,
        });
        const rdf = run.records.filter(isRdfDocument).length;
        // At equal fetches: the oracle, like the budget, counts a followed redirect chain as one (robots refusals are none).
        const fetched = run.records.filter((r) => r.outcome !== 'denied').length;
        const atK = oracle[Math.min(fetched, oracle.length - 1)] ?? 0;
        const t = totals.get(profile)!;
        t.set(name, (t.get(name) ?? 0) + rdf);
        const o = oracleTotals.get(profile)!;
        o.set(name, (o.get(name) ?? 0) + atK);
        const pt = patternTotals.get(profile)!;
        pt.set(name, (pt.get(name) ?? 0) + (pattern[Math.min(fetched, pattern.length - 1)] ?? 0));
        line.push(`${name}=${rdf}`);
        if (useful !== null) diagRows.set(name, byTemplate(run.records, useful));
      }
      log(`${profile} s${seed}: ${line.join('  ')}  oracle@${budget}=${oracle[budget]}  pattern@${budget}=${pattern[budget]}`);
      if (useful !== null) printDiag(diagRows);
    } finally {
      await web.close();
    }
  }
}

function printDiag(rows: Map<string, Map<string, TemplateRow>>): void {
  const templates = new Set<string>();
  for (const m of rows.values()) for (const k of m.keys()) templates.add(k);
  const cols = [...rows.keys()];
  const fmt = (r: TemplateRow | undefined) => (r === undefined ? '-'.padStart(13) : `${r.fetches}/${r.rdf}/${r.fetches - r.useful}`.padStart(13));
  log(`  diagnostic: per URL template, fetches/RDF/waste (waste = fetched, not on a shortest path to RDF)`);
  log(`  ${'template'.padEnd(50)} ${cols.map((c) => c.slice(0, 13).padStart(13)).join(' ')}`);
  const sorted = [...templates].sort((a, b) => Math.max(...cols.map((c) => rows.get(c)?.get(b)?.fetches ?? 0)) - Math.max(...cols.map((c) => rows.get(c)?.get(a)?.fetches ?? 0)));
  for (const k of sorted) log(`  ${k.slice(0, 50).padEnd(50)} ${cols.map((c) => fmt(rows.get(c)?.get(k))).join(' ')}`);
  const total = (c: string): TemplateRow => {
    const t = { fetches: 0, rdf: 0, useful: 0 };
    for (const r of rows.get(c)?.values() ?? []) {
      t.fetches += r.fetches;
      t.rdf += r.rdf;
      t.useful += r.useful;
    }
    return t;
  };
  log(`  ${'total'.padEnd(50)} ${cols.map((c) => fmt(total(c))).join(' ')}`);
}

log(`\n${'profile'.padEnd(18)} ${names.map((n) => n.slice(0, 10).padStart(10)).join(' ')}   ${names.slice(1).map((n) => `${n.slice(0, 8)}/fc`.padStart(11)).join(' ')}   ${names.map((n) => `${n.slice(0, 6)}/or`.padStart(9)).join(' ')}   ${names.map((n) => `${n.slice(0, 6)}/pat`.padStart(10)).join(' ')}   pat/or`);
log('(/or: of the oracle, /pat: of the pattern oracle, both at the crawl\'s fetches; pat/or: the pattern oracle\'s share of the oracle at the first crawler\'s fetches)');
const grand = new Map<string, number>();
const grandOracle = new Map<string, number>();
const grandPattern = new Map<string, number>();
for (const p of profiles) {
  const t = totals.get(p)!;
  const o = oracleTotals.get(p)!;
  const pt = patternTotals.get(p)!;
  for (const n of names) {
    grand.set(n, (grand.get(n) ?? 0) + (t.get(n) ?? 0));
    grandOracle.set(n, (grandOracle.get(n) ?? 0) + (o.get(n) ?? 0));
    grandPattern.set(n, (grandPattern.get(n) ?? 0) + (pt.get(n) ?? 0));
  }
  row(p, t, o, pt);
}
row('total', grand, grandOracle, grandPattern);
log(`seeds ${seedBase}…${seedBase + seeds - 1}, scale ${scale}, budget ${budget}, concurrency ${concurrency}; elapsed ${((performance.now() - t0) / 1000).toFixed(0)} s`);
for (const v of variants) log(`${v.name} = ${JSON.stringify({ ...v.options, ...(v.margin === undefined ? {} : { margin: v.margin }) })}`);

function row(label: string, t: Map<string, number>, o: Map<string, number>, pt: Map<string, number>): void {
  const fc = t.get('fc-r+hr') ?? 0;
  const ratios = names.slice(1).map((n) => (fc === 0 ? '–' : ((t.get(n) ?? 0) / fc).toFixed(3)).padStart(11));
  const orc = names.map((n) => ((o.get(n) ?? 0) === 0 ? '–' : ((t.get(n) ?? 0) / (o.get(n) ?? 1)).toFixed(3)).padStart(9));
  const pat = names.map((n) => ((pt.get(n) ?? 0) === 0 ? '–' : ((t.get(n) ?? 0) / (pt.get(n) ?? 1)).toFixed(3)).padStart(10));
  const first = names[0] ?? '';
  const patOr = (o.get(first) ?? 0) === 0 ? '–' : ((pt.get(first) ?? 0) / (o.get(first) ?? 1)).toFixed(3);
  log(`${label.padEnd(18)} ${names.map((n) => String(t.get(n) ?? 0).padStart(10)).join(' ')}   ${ratios.join(' ')}   ${orc.join(' ')}   ${pat.join(' ')}   ${patOr.padStart(6)}`);
}
