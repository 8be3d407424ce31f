// **Crawl metrics** over crawl records: harvest, precision per label, rule support/confidence, outcomes, depth (thesis §9, §11).
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { Label } from '../relevance/types.ts';
import { type CrawlFigures, computeFigures, isDenied, isFetchError } from '../crawl-log/figures.ts';
import { type TruthMap, isFetchedOk, isRdfObtained, trueLabeler } from './true-labels.ts';

export const LABELS: readonly Label[] = ['R', 'HR', 'H', 'N'];

/** Precision figures of one predicted label (thesis §9, Table 4-6). */
interface LabelMetrics {
  label: Label;
  /** Fetched records predicted L. The engine records a prediction only for links it fetched, so this counts fetch attempts, not every link judged L. */
  nL: number;
  /** Predicted L and fetched successfully (status 200). */
  nLS: number;
  /** Predicted L, fetched successfully and truly L. */
  nLT: number;
  /** N_LT / N_LS; null when N_LS is 0. */
  precision: number | null;
}

/** Support and confidence of one rule for one predicted label (thesis §9, Figure 4-1). */
interface RuleMetrics {
  rule: string;
  label: Label;
  /** Predicted L with this rule among those that fired, fetched successfully. */
  nRLS: number;
  /** Of those, truly L. */
  nRLT: number;
  /** N_RLT / N_RLS × 100; null when N_RLS is 0. */
  confidence: number | null;
  /** N_RLT / N_LT × 100; null when N_LT is 0. Rules overlap, so supports need not add up to 100. */
  support: number | null;
}

/**
 * Fetch outcomes like Table 4-3. Each record counts once: not allowed, error, redirect, success; `error` and
 * `notAllowed` are the `errors` and `denied` figures (crawl-log/figures.ts), so every command agrees.
 */
export interface FetchOutcomes {
  /** Every record (`records`). */
  docs: number;
  /** A usable answer without redirects (body read or skipped by the fetch filter). */
  success: number;
  /** A usable answer after at least one redirect hop. */
  redirect: number;
  /** Refused by robots.txt (`denied`). */
  notAllowed: number;
  /** HTTP error status, network failure, timeout, limit (`errors`), redirected or not. */
  error: number;
}

/** Documents fetched and RDF found at one depth (Table 4-5). */
interface DepthMetrics {
  depth: number;
  /** Records fetched (requests sent) at this depth. */
  n: number;
  /** RDF documents obtained at this depth. */
  rdf: number;
}

/** Everything `rdfscout metrics` reports; plain JSON. */
export interface CrawlMetrics {
  /** Where true labels came from: the crawl's records alone, or a ground-truth file (falling back to the records for unlisted URLs). */
  truthSource: 'records' | 'truth';
  /** The crawl's figures, as every command defines them (crawl-log/figures.ts). */
  figures: CrawlFigures;
  /** Records that sent a request (`figures.fetched`, the budget spent). */
  fetched: number;
  /** N: documents fetched successfully (final status 200, `figures.ok`), the base of the precision tables (thesis §9). */
  n: number;
  /** N_RDF: RDF documents obtained (`figures.rdfDocuments`). */
  nRdf: number;
  /** The harvest rate N_RDF / fetched (`figures.harvestRate`; Table 4-4 divides by the 2000 fetches). */
  harvestRate: number;
  /** N_RDF / N: the RDF share of status-200 documents; null when N is 0. */
  okHarvestRate: number | null;
  outcomes: FetchOutcomes;
  labels: LabelMetrics[];
  rules: RuleMetrics[];
  depths: DepthMetrics[];
  /** RDF documents obtained after k fetches, k = 1 … fetched (index k − 1), in `seq` order (robots refusals skipped). */
  harvestCurve: number[];
}

// Order of rules in reports: the thesis's Figure 4-1, then ours.
const RULE_ORDER = ['ex1', 'ty1', 'ti1', 'an1', 'co1', 'ty2', 'ti2', 'an2', 'co2', 'pa1', 'ex0', 'r1', 'r2', 'hat10', 'u-ext', 'u-word', 'u-host'];

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);
const percent = (a: number, b: number): number | null => (b === 0 ? null : (a / b) * 100);

/** Classifies one record for Table 4-3. */
export function outcomeOf(record: CrawlRecord): keyof Omit<FetchOutcomes, 'docs'> {
  if (isDenied(record)) return 'notAllowed';
  if (isFetchError(record)) return 'error';
  return record.redirects.length > 0 ? 'redirect' : 'success';
}

/** Computes the thesis's metrics from crawl records, with an optional ground truth (thesis §9). Pure. */
export function computeMetrics(records: readonly CrawlRecord[], truth?: TruthMap): CrawlMetrics {
  const sorted = [...records].sort((a, b) => a.seq - b.seq);
  const trueLabel = trueLabeler(sorted, truth);

  const outcomes: FetchOutcomes = { docs: sorted.length, success: 0, redirect: 0, notAllowed: 0, error: 0 };
  const labels = new Map(LABELS.map((label) => [label, { label, nL: 0, nLS: 0, nLT: 0, precision: null } as LabelMetrics]));
  const rules = new Map<string, RuleMetrics>();
  const depths = new Map<number, DepthMetrics>();
  const harvestCurve: number[] = [];
  const figures = computeFigures(sorted);
  let nRdf = 0;

  for (const record of sorted) {
    outcomes[outcomeOf(record)]++;
    const ok = isFetchedOk(record);
    const rdf = isRdfObtained(record);
    if (rdf) nRdf++;
    if (!isDenied(record)) {
      harvestCurve.push(nRdf);
      let depth = depths.get(record.depth);
      if (depth === undefined) depths.set(record.depth, (depth = { depth: record.depth, n: 0, rdf: 0 }));
      depth.n++;
      if (rdf) depth.rdf++;
    }

    if (record.label === null) continue;
    const lm = labels.get(record.label)!;
    lm.nL++;
    if (!ok) continue;
    lm.nLS++;
    const truly = trueLabel(record) === record.label;
    if (truly) lm.nLT++;
    for (const rule of new Set(record.rules)) {
      const key = `${record.label} ${rule}`;
      let rm = rules.get(key);
      if (rm === undefined) rules.set(key, (rm = { rule, label: record.label, nRLS: 0, nRLT: 0, confidence: null, support: null }));
      rm.nRLS++;
      if (truly) rm.nRLT++;
    }
  }

  for (const lm of labels.values()) lm.precision = ratio(lm.nLT, lm.nLS);
  for (const rm of rules.values()) {
    rm.confidence = percent(rm.nRLT, rm.nRLS);
    rm.support = percent(rm.nRLT, labels.get(rm.label)!.nLT);
  }

  return {
    truthSource: truth === undefined ? 'records' : 'truth',
    figures,
    fetched: figures.fetched,
    n: figures.ok,
    nRdf: figures.rdfDocuments,
    harvestRate: figures.harvestRate,
    okHarvestRate: ratio(figures.rdfDocuments, figures.ok),
    outcomes,
    labels: [...labels.values()],
    rules: [...rules.values()].sort(compareRules),
    depths: [...depths.values()].sort((a, b) => a.depth - b.depth),
    harvestCurve,
  };
}

function compareRules(a: RuleMetrics, b: RuleMetrics): number {
  const rank = (r: RuleMetrics) => {
    const i = RULE_ORDER.indexOf(r.rule);
    return i === -1 ? RULE_ORDER.length : i;
  };
  return rank(a) - rank(b) || LABELS.indexOf(a.label) - LABELS.indexOf(b.label) || a.rule.localeCompare(b.rule);
}
