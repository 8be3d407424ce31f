// **CrawlTally** keeps the running figures of a crawl (what `--json` prints), rebuilt from records on resume.
import type { FailingOrigin } from '../fetch/origin-health.ts';
import { addRecord, type CrawlFigures, emptyFigures, isDenied, isFetchError } from './figures.ts';
import { isRdfObtained } from './record.ts';
import type { CrawlRecord } from './record.ts';

/** One PLD's share of the figures (same definitions as `CrawlFigures`, crawl-log/figures.ts). */
export interface PldTally {
  /** Records of the PLD that sent a request (its spent `--max-docs-per-pld` budget). */
  fetched: number;
  /** Records refused by robots.txt: recorded, but not fetched and not spent from the budget. */
  denied: number;
  rdfDocuments: number;
  triples: number;
  errors: number;
}

/**
 * What ended a crawl: the total budget (`--max-docs`), every PLD with links left at its `--max-docs-per-pld`
 * budget, nothing left to fetch, nothing left within `--max-depth` (deeper links were dropped), a signal, `stopped`: the
 * operator's clean stop (the dashboard's stop button, `CrawlControl.stop()`), or
 * `offline`: every request failed at the connection level for longer than `--max-offline-ms` (a resume retries).
 */
export type StopReason = 'max-docs' | 'max-docs-per-pld' | 'frontier-empty' | 'max-depth' | 'signal' | 'stopped' | 'offline';

export interface CrawlSummary extends CrawlFigures {
  byStatus: Record<string, number>;
  perPld: Record<string, PldTally>;
  durationMs: number;
  stoppedBy: StopReason;
  resumed: boolean;
  /**
   * Origins whose last requests got no answer at all (refused, reset, timeout, DNS, TLS) when the run ended: dead,
   * or gone; their URLs were recorded as failed, not waited for (fetch/connectivity.ts). Most failures first.
   */
  deadOrigins?: FailingOrigin[];
  /** JSON-LD remote contexts in the crawl's store: fetched, and failed (counted apart from documents); set by a crawl run. */
  contexts?: { fetched: number; failed: number };
  /** A worker of a shared crawl: its id; its `refetched` is then the shared count (URLs handed out again after a lost lease). */
  worker?: string;
}

/** Whether a record counts as an RDF document obtained (thesis §9); the one definition lives in record.ts. */
export const isRdfRecord: (r: CrawlRecord) => boolean = isRdfObtained;

/** What the run loop knows when it stops; `stopReason` names the cause. */
export interface StopFacts {
  /** Every request failed at the connection level for longer than `--max-offline-ms`. */
  offline: boolean;
  aborted: boolean;
  /** The abort came from the operator's stop (`CrawlControl.stop()`), not from a signal. */
  stopped?: boolean;
  /** Requests still allowed by `--max-docs` (nothing in flight). */
  budgetLeft: number;
  /** Links still queued when nothing more could be served. */
  queued: number;
  /** Some PLD reached its `--max-docs-per-pld` budget. */
  pldBudgetReached: boolean;
  /** Links not queued because they were deeper than `--max-depth`. */
  depthDropped: number;
}

/** The cause of a stop, from the facts (pure). A per-PLD budget explains a stop only when links are left queued. */
export function stopReason(f: StopFacts): StopReason {
  if (f.aborted) return f.stopped === true ? 'stopped' : 'signal';
  if (f.offline) return 'offline';
  if (f.budgetLeft <= 0) return 'max-docs';
  if (f.queued > 0 && f.pldBudgetReached) return 'max-docs-per-pld';
  if (f.depthDropped > 0) return 'max-depth';
  return 'frontier-empty';
}

/**
 * What the shared counters of a crawl run by several processes say (the Redis coordinator reads them in one step):
 * every worker's fetches, not one process's.
 */
export interface SharedReading {
  queued: number;
  inFlight: number;
  /** Requests sent (the total budget spent). */
  spent: number;
  /** Queued entries whose PLD has spent its `--max-docs-per-pld` budget: nobody may fetch them. */
  blockedQueued: number;
  /** Links dropped for being deeper than `--max-depth`, by any worker. */
  depthDropped: number;
}

/**
 * Whether a shared crawl is over for every worker, and why (pure): nothing in flight anywhere, and the total budget
 * spent or nothing queued that a PLD's budget still allows. The reason is the one `stopReason` gives one process
 * that stopped in the same state, so that every mode ends the same way.
 */
export function sharedStopReason(r: SharedReading, maxDocs: number): StopReason | null {
  if (r.inFlight > 0) return null;
  if (r.spent < maxDocs && r.queued > r.blockedQueued) return null;
  return stopReason({ aborted: false, offline: false, budgetLeft: maxDocs - r.spent, queued: r.queued, pldBudgetReached: r.blockedQueued > 0, depthDropped: r.depthDropped });
}

/** Figures of a crawl (crawl-log/figures.ts), per PLD too; `fetched` (requests sent) is what budgets count. */
export class CrawlTally {
  readonly figures: CrawlFigures = emptyFigures();
  readonly byStatus: Record<string, number> = {};
  readonly perPld = new Map<string, PldTally>();

  get fetched(): number {
    return this.figures.fetched;
  }
  get rdfDocuments(): number {
    return this.figures.rdfDocuments;
  }
  get triples(): number {
    return this.figures.triples;
  }
  get errors(): number {
    return this.figures.errors;
  }
  get denied(): number {
    return this.figures.denied;
  }

  add(r: CrawlRecord): void {
    addRecord(this.figures, r);
    const pld = this.pld(r.pld);
    if (isDenied(r)) pld.denied += 1;
    else pld.fetched += 1;
    if (isRdfObtained(r)) pld.rdfDocuments += 1;
    pld.triples += r.triples;
    if (isFetchError(r)) pld.errors += 1;
    const status = r.status === null ? r.outcome : String(r.status);
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }

  /** Requests sent (the budget spent): every record but robots refusals. */
  get spent(): number {
    return this.figures.fetched;
  }

  /** A PLD's spent budget, without adding the PLD to `perPld`. */
  spentOf(name: string): number {
    return this.perPld.get(name)?.fetched ?? 0;
  }

  pld(name: string): PldTally {
    let t = this.perPld.get(name);
    if (!t) {
      t = { fetched: 0, denied: 0, rdfDocuments: 0, triples: 0, errors: 0 };
      this.perPld.set(name, t);
    }
    return t;
  }

  summary(durationMs: number, stoppedBy: StopReason, resumed: boolean): CrawlSummary {
    return {
      ...this.figures,
      byStatus: { ...this.byStatus },
      perPld: Object.fromEntries([...this.perPld].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, { ...v }])),
      durationMs,
      stoppedBy,
      resumed,
    };
  }
}
