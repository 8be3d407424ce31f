// Where `yield` falls behind the pattern oracle on one tuning profile (issue 17): per URL template, its true rate
// (`templateValues`, RDF documents in or below its pages per fetch), yield's learned rate of the template's cluster at
// a few points of the crawl, and the fetches of yield and of the pattern oracle there.
//
// Usage: node bench/yield-gap.ts [--profile institute-like] [--seed 1] [--scale 0.5] [--budget 500] [--concurrency 1]
//                                [--points 50,100,200,300,500] [--options '{"barrenAfter":8}'] [--rows 30]
//
// Tuning profiles only (the held-out ones are refused). Templates are `urlTemplate`'s (the `t …` clusters of
// `LinkYield`); the pattern oracle orders by `formatTemplate` (its default), and its fetches are counted here by
// `urlTemplate` so both columns read alike. A learned rate is (RDF fetched + RDF expected below) / (fetches + their
// cost) of the template's cluster alone, before the shrinkage cascade; `n` is its fetches so far. A second table sets
// FC-R+HR's fetch order beside yield's: per template, the fetches of each within the first k fetches, at each point.
import { parseArgs } from 'node:util';
import { urlTemplate } from '../src/links/url-template.ts';
import type { FetchedDocument } from '../src/relevance/types.ts';
import type { LinkYieldOptions } from '../src/relevance/link-yield.ts';
import { fetchTree, HELD_OUT_PROFILES, patternOracleFetches, startSimweb, templateValues } from '../src/simweb/index.ts';
import { isGoal } from '../src/simweb/fetch-tree.ts';
import { type YieldStrategy, yieldTuning } from '../src/strategies/yield.ts';
import { isRdfDocument } from '../src/metrics/index.ts';
import { runCrawl } from './lib/run-crawl.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'institute-like' },
    seed: { type: 'string', default: '1' },
    scale: { type: 'string', default: '0.5' },
    budget: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '1' },
    points: { type: 'string', default: '50,100,200,300,500' },
    options: { type: 'string', default: '{}' },
    rows: { type: 'string', default: '30' },
  },
});
const profile = values.profile!;
if (HELD_OUT_PROFILES.includes(profile)) throw new Error(`${profile} is held out: never tune on it`);
const budget = Number(values.budget);
const concurrency = Number(values.concurrency);
const points = values.points!.split(',').map(Number);
const log = (s: string) => process.stdout.write(`${s}\n`);
const strip = (t: string) => t.replace(/^[^/]+/, '');

interface Row {
  fetches: number;
  rdf: number;
  /** Fetch index (1-based) of the template's first fetch. */
  first: number;
}
const bump = (m: Map<string, Row>, key: string, rdf: boolean, k: number) => {
  const r = m.get(key) ?? { fetches: 0, rdf: 0, first: k };
  r.fetches++;
  if (rdf) r.rdf++;
  m.set(key, r);
};

const web = await startSimweb({ profiles: profile, seed: Number(values.seed), scale: Number(values.scale), crawlDelay: 0 });
try {
  const site = web.sites[0]!;
  const opts = { hosts: [site.host], htmlVariants: true };
  const tree = fetchTree(web, opts);
  const truth = templateValues(tree, 'rate', urlTemplate);
  const pages = new Map<string, number>();
  for (const v of tree.order) pages.set(urlTemplate(tree.records[v]!.url), (pages.get(urlTemplate(tree.records[v]!.url)) ?? 0) + 1);

  // The pattern oracle's fetches (`patternOracleFetches`, as `patternOracleCurve` takes them).
  const pat = new Map<string, Row>();
  const patCurve = [0];
  patternOracleFetches(tree, [site.startUrl], budget).forEach((v, i) => {
    bump(pat, urlTemplate(tree.records[v]!.url), isGoal(tree, v), i + 1);
    patCurve.push(patCurve[i]! + (isGoal(tree, v) ? 1 : 0));
  });

  // Yield's crawl, reading its template clusters at the given numbers of learned fetches.
  const learned = new Map<number, Map<string, { n: number; rate: number }>>();
  let strategy: YieldStrategy | undefined;
  yieldTuning.options = JSON.parse(values.options!) as LinkYieldOptions;
  yieldTuning.created = (s) => {
    strategy = s;
    let count = 0;
    const learn = s.learn.bind(s);
    s.learn = (doc: FetchedDocument) => {
      learn(doc);
      count++;
      if (!points.includes(count)) return;
      const at = new Map<string, { n: number; rate: number }>();
      for (const t of truth.keys()) {
        const c = s.model.counts('t', t);
        if (c !== undefined) at.set(t, { n: c.n, rate: (c.rdf + c.below) / Math.max(1e-9, c.n + c.belowCost) });
      }
      learned.set(count, at);
    };
  };
  const run = await runCrawl({ seeds: [site.startUrl], proxy: web.proxyUrl, strategy: 'yield', maxDocs: budget, maxDocsPerPld: budget, maxLinksPerDoc: 500, concurrency, hostConcurrency: concurrency });
  yieldTuning.options = {};
  delete yieldTuning.created;
  if (strategy === undefined) throw new Error('no yield strategy was created');
  const fcRun = await runCrawl({ seeds: [site.startUrl], proxy: web.proxyUrl, strategy: 'fc-r+hr', maxDocs: budget, maxDocsPerPld: budget, maxLinksPerDoc: 500, concurrency, hostConcurrency: concurrency });
  /** Per template: fetches, RDF and first fetch; the RDF curve; and the template of each fetch in order. */
  const tally = (records: typeof run.records) => {
    const rows = new Map<string, Row>();
    const curve = [0];
    const order: string[] = [];
    for (const r of records) {
      if (r.outcome === 'denied') continue;
      order.push(urlTemplate(r.url));
      bump(rows, urlTemplate(r.url), isRdfDocument(r), order.length);
      curve.push(curve[order.length - 1]! + (isRdfDocument(r) ? 1 : 0));
    }
    return { rows, curve, order };
  };
  const { rows: yld, curve: yCurve, order: yOrder } = tally(run.records);
  const { rows: fc, curve: fcCurve, order: fcOrder } = tally(fcRun.records);

  log(`${profile} seed ${values.seed}, scale ${values.scale}, budget ${budget}, concurrency ${concurrency}, options ${values.options}`);
  const at = (curve: number[], p: number) => curve[Math.min(p, curve.length - 1)];
  log(`RDF after k fetches: ${points.map((p) => `k=${p} yield ${at(yCurve, p)} fc-r+hr ${at(fcCurve, p)} pattern ${at(patCurve, p)}`).join(' | ')}`);
  log('true = templateValues rate (urlTemplate); pages = reachable pages of the template; fetches/RDF/first fetch index;');
  log('learned@k = the template cluster\'s rate after k learned fetches (its fetches so far)');
  const keys = [...new Set([...pat.keys(), ...yld.keys()])].sort(
    (a, b) => Math.max(pat.get(b)?.fetches ?? 0, yld.get(b)?.fetches ?? 0) - Math.max(pat.get(a)?.fetches ?? 0, yld.get(a)?.fetches ?? 0),
  );
  const cell = (r: Row | undefined) => (r === undefined ? '-' : `${r.fetches}/${r.rdf}/@${r.first}`).padStart(13);
  log(`${'template'.padEnd(42)} ${'true'.padStart(5)} ${'pages'.padStart(5)} ${'pattern'.padStart(13)} ${'yield'.padStart(13)}  ${points.map((p) => `learned@${p}`.padStart(14)).join(' ')}`);
  for (const t of keys.slice(0, Number(values.rows))) {
    const l = points.map((p) => {
      const c = learned.get(p)?.get(t);
      return (c === undefined ? '-' : `${c.rate.toFixed(3)}(${c.n})`).padStart(14);
    });
    log(`${strip(t).slice(0, 42).padEnd(42)} ${(truth.get(t) ?? 0).toFixed(3).padStart(5)} ${String(pages.get(t) ?? 0).padStart(5)} ${cell(pat.get(t))} ${cell(yld.get(t))}  ${l.join(' ')}`);
  }

  // FC-R+HR's fetch order beside yield's: per template, fetches within the first k fetches (fc-r+hr / yield).
  log(`\nfetches within the first k fetches, fc-r+hr / yield (fc-r+hr: ${fcCurve.at(-1)} RDF documents in ${fcOrder.length} fetches)`);
  const firstK = (order: string[], t: string, p: number) => order.slice(0, p).filter((x) => x === t).length;
  const both = [...new Set([...fc.keys(), ...yld.keys()])].sort(
    (a, b) => Math.max(fc.get(b)?.fetches ?? 0, yld.get(b)?.fetches ?? 0) - Math.max(fc.get(a)?.fetches ?? 0, yld.get(a)?.fetches ?? 0),
  );
  log(`${'template'.padEnd(42)} ${points.map((p) => `k=${p}`.padStart(11)).join(' ')}`);
  for (const t of both.slice(0, Number(values.rows))) {
    log(`${strip(t).slice(0, 42).padEnd(42)} ${points.map((p) => `${firstK(fcOrder, t, p)}/${firstK(yOrder, t, p)}`.padStart(11)).join(' ')}`);
  }
} finally {
  await web.close();
}
