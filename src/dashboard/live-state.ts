// **LiveState** keeps what the dashboard shows of a running crawl: counters from the crawler's view, the harvest
// curve, queued vs crawled over time, per-PLD status codes, the log tail, errors, latest documents, bandit arms.
import type { CrawlControl, NetworkView } from '../crawl/control.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import { isFetchedOk, isRdfObtained } from '../metrics/index.ts';
import { predictStop, type StopForecast } from './forecast.ts';

/** `/api/status`: the figures of the crawl now (README "Dashboard API"). */
export interface LiveStatus {
  fetched: number;
  rdfDocuments: number;
  triples: number;
  /** Statements a lenient parse dropped, over the crawl (crawl-log/figures.ts `statementsDropped`). */
  statementsDropped: number;
  /** Distinct links found past `--max-links-per-doc` and not followed, and on how many documents (crawl-log/figures.ts). */
  linksBeyondCap: number;
  documentsWithLinksCut: number;
  /** rdfDocuments / fetched (thesis §9 per fetch); 0 before the first fetch. */
  harvestRate: number;
  /** Of the fetched links predicted R (thesis §5 Relevancy_R), the share that were RDF (status 200); null before any. */
  precision: number | null;
  errors: number;
  queued: number;
  inFlight: number;
  /** Paused by the operator. */
  paused: boolean;
  /** Paused by the network (an outage: origins that answered before fail too), for how long, and when it is probed next. */
  network: NetworkView;
  stopped: boolean;
  /** The run has returned (budget spent, nothing left, or stopped). */
  finished: boolean;
  /** Pages per second over the last 5 s, and since the dashboard started. */
  pagesPerSecond: { now: number; average: number };
  maxDocs: number;
  forecast: StopForecast;
  blocked: string[];
  elapsedMs: number;
}

/** One line of the log tail (and of the latest documents: predicted label vs what the fetch found). */
export interface LogLine {
  seq: number;
  url: string;
  pld: string;
  status: number | null;
  outcome: string;
  detectedType: string | null;
  /** The label predicted before fetching (R / HR / H / N), null for seeds and sitemaps. */
  predicted: string | null;
  /** What it was: 'R' when RDF was obtained, else the detected type or the outcome. */
  actual: string;
  triples: number;
  /** Statements a lenient parse dropped from the document (0: none). */
  dropped: number;
  ms: number;
  error: string | null;
  errorMessage: string | null;
}

export interface SeriesPoint {
  t: number;
  queued: number;
  crawled: number;
}

export interface ArmPoint {
  t: number;
  arm: string;
  pulls: number;
  mean: number;
  index: number | null;
}

const LOG_MAX = 200;
const ERRORS_MAX = 100;
const CURVE_MAX = 4000;
const SERIES_MAX = 1800;
const RATE_WINDOW_MS = 5000;

/** Receives records (from `rdfscout:crawl:record`) and samples the crawler's view; everything it returns is plain JSON. */
export class LiveState {
  readonly #control: CrawlControl;
  readonly #now: () => number;
  readonly #started: number;
  readonly log: LogLine[] = [];
  readonly errors: LogLine[] = [];
  readonly errorKinds = new Map<string, number>();
  /** [fetched, rdfDocuments] after each record (halved in density when it grows past CURVE_MAX). */
  harvest: Array<[number, number]> = [];
  #curveStep = 1;
  readonly series: SeriesPoint[] = [];
  readonly arms: ArmPoint[] = [];
  readonly statuses = new Map<string, Record<string, number>>();
  #predictedR = 0;
  #predictedRRight = 0;
  /** Times of the records of the last RATE_WINDOW_MS, from #recentHead on (a queue that drops from the front). */
  #recent: number[] = [];
  #recentHead = 0;
  #startFetched: number | null = null;
  /** Records seen since the dashboard started. */
  #records = 0;
  finished = false;

  constructor(control: CrawlControl, now: () => number = Date.now) {
    this.#control = control;
    this.#now = now;
    this.#started = now();
  }

  /** Takes one committed record (the crawl's record channel). */
  addRecord(r: CrawlRecord): void {
    const t = this.#now();
    this.#records += 1;
    this.#recent.push(t);
    this.#dropOld(t);
    const rdf = isRdfObtained(r);
    if (r.label === 'R' && isFetchedOk(r)) {
      this.#predictedR += 1;
      if (rdf) this.#predictedRRight += 1;
    }
    const code = r.status === null ? r.outcome : String(r.status);
    const byStatus = this.statuses.get(r.pld) ?? {};
    byStatus[code] = (byStatus[code] ?? 0) + 1;
    this.statuses.set(r.pld, byStatus);
    const line: LogLine = {
      seq: r.seq,
      url: r.finalUrl,
      pld: r.pld,
      status: r.status,
      outcome: r.outcome,
      detectedType: r.detectedType,
      predicted: r.label,
      actual: rdf ? 'R' : (r.detectedType ?? r.outcome),
      triples: r.triples,
      dropped: r.recovery?.dropped ?? 0,
      ms: r.ms,
      error: r.error,
      errorMessage: r.errorMessage,
    };
    push(this.log, line, LOG_MAX);
    if (r.error !== null) {
      push(this.errors, line, ERRORS_MAX);
      this.errorKinds.set(r.error, (this.errorKinds.get(r.error) ?? 0) + 1);
    }
    const tally = this.#control.view?.tally();
    const last = this.harvest.at(-1);
    // Records of concurrent fetches may be published after both joined the tally: one point per fetch count.
    if (tally && last !== undefined && last[0] === tally.fetched) last[1] = tally.rdfDocuments;
    else if (tally && tally.fetched % this.#curveStep === 0) {
      this.harvest.push([tally.fetched, tally.rdfDocuments]);
      if (this.harvest.length > CURVE_MAX) {
        this.harvest = this.harvest.filter((_, i) => i % 2 === 1);
        this.#curveStep *= 2;
      }
    }
  }

  /** Drops record times older than the rate window (amortised O(1) per record). */
  #dropOld(t: number): void {
    while (this.#recentHead < this.#recent.length && (this.#recent[this.#recentHead] as number) <= t - RATE_WINDOW_MS) this.#recentHead++;
    if (this.#recentHead > 1024) {
      this.#recent = this.#recent.slice(this.#recentHead);
      this.#recentHead = 0;
    }
  }

  /** Samples queued vs crawled and the bandit's arms (called once per tick, 1 Hz). */
  sample(): void {
    const view = this.#control.view;
    if (!view) return;
    const t = this.#now();
    push(this.series, { t, queued: view.queued(), crawled: view.tally().fetched }, SERIES_MAX);
    const arms = view.arms();
    if (arms === null) return;
    const top = [...arms].sort((a, b) => b.pulls - a.pulls).slice(0, 12);
    for (const a of top) push(this.arms, { t, arm: a.arm, pulls: a.pulls, mean: a.meanReward, index: Number.isFinite(a.index) ? a.index : null }, SERIES_MAX * 4);
  }

  status(): LiveStatus {
    const view = this.#control.view;
    const t = this.#now();
    const tally = view?.tally();
    const fetched = tally?.fetched ?? 0;
    if (this.#startFetched === null && view) this.#startFetched = fetched - this.#records;
    const elapsedMs = t - this.#started;
    this.#dropOld(t);
    const now = (this.#recent.length - this.#recentHead) / (RATE_WINDOW_MS / 1000);
    const average = elapsedMs > 0 ? (fetched - (this.#startFetched ?? fetched)) / (elapsedMs / 1000) : 0;
    const maxDocs = view?.maxDocs() ?? 0;
    const queued = view?.queued() ?? 0;
    return {
      fetched,
      rdfDocuments: tally?.rdfDocuments ?? 0,
      triples: tally?.triples ?? 0,
      statementsDropped: tally?.figures.statementsDropped ?? 0,
      linksBeyondCap: tally?.figures.linksBeyondCap ?? 0,
      documentsWithLinksCut: tally?.figures.documentsWithLinksCut ?? 0,
      harvestRate: fetched === 0 ? 0 : (tally?.rdfDocuments ?? 0) / fetched,
      precision: this.#predictedR === 0 ? null : this.#predictedRRight / this.#predictedR,
      errors: tally?.errors ?? 0,
      queued,
      inFlight: view?.inFlight() ?? 0,
      paused: this.#control.paused,
      network: view?.network?.() ?? { paused: false, offlineMs: 0, nextProbeAt: null },
      stopped: this.#control.stopSignal.aborted,
      finished: this.finished,
      pagesPerSecond: { now, average },
      maxDocs,
      forecast: predictStop({ spent: (tally?.spent ?? 0), maxDocs, rate: average, series: this.series }),
      blocked: [...this.#control.blocked],
      elapsedMs,
    };
  }

  /** The per-PLD table: the crawler's figures joined with status codes and bandit arms. */
  plds(): PldRow[] {
    const view = this.#control.view;
    if (!view) return [];
    const t = this.#now();
    const tally = view.tally();
    const arms = new Map((view.arms() ?? []).map((a) => [a.arm, a]));
    const live = new Map(view.plds(t).map((p) => [p.pld, p]));
    const names = new Set([...tally.perPld.keys(), ...live.keys()]);
    return [...names].map((pld) => {
      const f = tally.perPld.get(pld);
      const q = live.get(pld);
      const a = arms.get(pld);
      const fetched = f?.fetched ?? 0;
      return {
        pld,
        fetched,
        rdfDocuments: f?.rdfDocuments ?? 0,
        harvestRate: fetched === 0 ? 0 : (f?.rdfDocuments ?? 0) / fetched,
        statuses: this.statuses.get(pld) ?? {},
        queued: q?.queued ?? 0,
        inFlight: q?.inFlight ?? 0,
        pulls: a?.pulls ?? null,
        index: a && Number.isFinite(a.index) ? a.index : null,
        nextAllowedInMs: q?.nextAllowedAt == null ? null : Math.max(0, q.nextAllowedAt - t),
        robotsDelayMs: q?.robotsDelayMs ?? null,
        errors: f?.errors ?? 0,
        blocked: this.#control.isBlocked(pld),
      };
    });
  }

  /** What the relevance model learned: C_HR's RDF parents (thesis §5) when the strategy has them, at most `max`. */
  learned(max = 200): { strategy: string | null; parents: string[]; total: number } {
    const snap = this.#control.view?.learned() as { strategy?: string; parents?: unknown } | undefined;
    const parents = Array.isArray(snap?.parents) ? (snap.parents as unknown[]).map(String) : [];
    return { strategy: snap?.strategy ?? null, parents: parents.slice(-max), total: parents.length };
  }
}

/** One row of `/api/plds`. */
export interface PldRow {
  pld: string;
  fetched: number;
  rdfDocuments: number;
  harvestRate: number;
  /** Records by HTTP status (or outcome when there was no answer); 403/429/5xx show blocking. */
  statuses: Record<string, number>;
  queued: number;
  inFlight: number;
  pulls: number | null;
  index: number | null;
  nextAllowedInMs: number | null;
  robotsDelayMs: number | null;
  errors: number;
  blocked: boolean;
}

function push<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}
