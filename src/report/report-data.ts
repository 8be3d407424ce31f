// **buildReportData** turns crawl records into what the report plots (pure): the harvest curve (thesis Fig. 4-1),
// per-PLD figures, precision per label (thesis Table 4-6), rule support and confidence (thesis Fig. 4-1), fetches per
// PLD over time (the bandit's pulls, BeeBot §3), and errors by kind.
import type { CrawlRecord } from '../crawl-log/record.ts';
import { type CrawlMetrics, computeMetrics, isRdfObtained, type TruthMap } from '../metrics/index.ts';

/** One crawl to report on. */
export interface ReportCrawlInput {
  /** Shown in legends, e.g. "fc-r+hr" or the folder name. */
  name: string;
  records: readonly CrawlRecord[];
  /** The crawl's PLD scheduler (`none` when it had no bandit); shown in the pulls chart's caption. */
  bandit?: string;
  truth?: TruthMap;
}

/** A curve drawn beside the crawls' harvest curves (breadth-first, the oracle). */
export interface ReferenceCurve {
  name: string;
  /** RDF documents after k fetches, index k − 1 (like `CrawlMetrics.harvestCurve`). */
  curve: readonly number[];
}

interface PldFigures {
  pld: string;
  fetched: number;
  rdfDocuments: number;
  errors: number;
}

export interface ReportCrawl {
  name: string;
  bandit: string | null;
  metrics: CrawlMetrics;
  /** The plotted harvest points [fetches, RDF documents]: every point, or an even sample of at most MAX_POINTS. */
  harvestPoints: Array<[number, number]>;
  plds: PldFigures[];
  /** Cumulative fetches of the busiest PLDs, sampled: [{ x: fetches so far, arm, value: pulls }]. */
  pulls: Array<{ x: number; arm: string; value: number }>;
  errorsByKind: Array<{ kind: string; count: number }>;
}

/** A further plot of curves against fetches (e.g. cumulative external links per bandit policy). */
export interface ExtraCurves {
  title: string;
  yLabel: string;
  series: readonly ReferenceCurve[];
}

export interface ReportData {
  crawls: ReportCrawl[];
  references: Array<{ name: string; harvestPoints: Array<[number, number]> }>;
  curves: Array<{ title: string; yLabel: string; series: Array<{ name: string; harvestPoints: Array<[number, number]> }> }>;
}

/** Points plotted per curve at most: a 100k-fetch crawl still gives a small SVG. */
const MAX_POINTS = 1000;
const MAX_ARMS = 10;
const PULL_SAMPLES = 200;

/** The k (1-based fetch counts) at which a curve of `n` points is drawn: all when n ≤ max, else an even sample ending at n. */
function sampleKs(n: number, max = MAX_POINTS): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i + 1);
  const ks: number[] = [];
  for (let i = 1; i <= max; i++) ks.push(Math.round((i * n) / max));
  return ks;
}

/** [k, curve[k − 1]] at the sampled k. */
export function curvePoints(curve: readonly number[], max = MAX_POINTS): Array<[number, number]> {
  return sampleKs(curve.length, max).map((k) => [k, curve[k - 1] ?? 0]);
}

export function buildReportData(crawls: readonly ReportCrawlInput[], references: readonly ReferenceCurve[] = [], curves: readonly ExtraCurves[] = []): ReportData {
  const sampled = (r: ReferenceCurve) => ({ name: r.name, harvestPoints: curvePoints(r.curve) });
  return {
    crawls: crawls.map(reportCrawl),
    references: references.map(sampled),
    curves: curves.map((c) => ({ title: c.title, yLabel: c.yLabel, series: c.series.map(sampled) })),
  };
}

function reportCrawl(input: ReportCrawlInput): ReportCrawl {
  const sorted = [...input.records].sort((a, b) => a.seq - b.seq);
  const metrics = computeMetrics(sorted, input.truth);
  const plds = new Map<string, PldFigures>();
  const errors = new Map<string, number>();
  for (const r of sorted) {
    let p = plds.get(r.pld);
    if (p === undefined) plds.set(r.pld, (p = { pld: r.pld, fetched: 0, rdfDocuments: 0, errors: 0 }));
    p.fetched += 1;
    if (isRdfObtained(r)) p.rdfDocuments += 1;
    if (r.error !== null) {
      p.errors += 1;
      errors.set(r.error, (errors.get(r.error) ?? 0) + 1);
    }
  }
  const byFetched = [...plds.values()].sort((a, b) => b.fetched - a.fetched || a.pld.localeCompare(b.pld));
  return {
    name: input.name,
    bandit: input.bandit ?? null,
    metrics,
    harvestPoints: curvePoints(metrics.harvestCurve),
    plds: byFetched,
    pulls: pullsOverTime(sorted, new Set(byFetched.slice(0, MAX_ARMS).map((p) => p.pld))),
    errorsByKind: [...errors].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count),
  };
}

/** Cumulative fetches per arm (PLD) at sampled points of the crawl: each fetch is one pull of its PLD's arm. */
function pullsOverTime(sorted: readonly CrawlRecord[], arms: ReadonlySet<string>): ReportCrawl['pulls'] {
  const at = new Set(sampleKs(sorted.length, PULL_SAMPLES));
  const counts = new Map<string, number>([...arms].map((a) => [a, 0]));
  const out: ReportCrawl['pulls'] = [];
  sorted.forEach((r, i) => {
    if (counts.has(r.pld)) counts.set(r.pld, (counts.get(r.pld) ?? 0) + 1);
    if (at.has(i + 1)) for (const [arm, value] of counts) out.push({ x: i + 1, arm, value });
  });
  return out;
}
