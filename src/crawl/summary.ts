// **CrawlTally** keeps the running figures of a crawl (what `--json` prints), rebuilt from records on resume.
import { isRdfObtained } from '../metrics/true-labels.ts';
import type { CrawlRecord } from './types.ts';

export interface PldTally {
  fetched: number;
  /** Of `fetched`, refused by robots.txt before any request: recorded, but not spent from the budget. */
  denied: number;
  rdfDocuments: number;
  triples: number;
  errors: number;
}

export interface CrawlSummary {
  fetched: number;
  /** Documents whose bytes were RDF and parsed without error (thesis §9 N_RDF). */
  rdfDocuments: number;
  /** HTML documents with embedded RDF (JSON-LD, RDFa, Microdata) stored. */
  embeddedDocuments: number;
  triples: number;
  /** rdfDocuments / fetched (thesis §9). */
  harvestRate: number;
  errors: number;
  byStatus: Record<string, number>;
  /** Of `fetched`, refused by robots.txt before any request (not spent from the budget). */
  denied: number;
  perPld: Record<string, PldTally>;
  durationMs: number;
  /** `offline`: every request failed at the connection level for longer than `maxOfflineMs` (a resume retries). */
  stoppedBy: 'budget' | 'exhausted' | 'interrupted' | 'offline';
  resumed: boolean;
}

/** Whether a record counts as an RDF document obtained (thesis §9); the one definition lives in metrics. */
export const isRdfRecord: (r: CrawlRecord) => boolean = isRdfObtained;

/** Figures of a crawl; `fetched` counts every record, the budget counts `fetched − denied` (requests sent). */
export class CrawlTally {
  fetched = 0;
  rdfDocuments = 0;
  embeddedDocuments = 0;
  triples = 0;
  errors = 0;
  denied = 0;
  readonly byStatus: Record<string, number> = {};
  readonly perPld = new Map<string, PldTally>();

  add(r: CrawlRecord): void {
    this.fetched += 1;
    const pld = this.pld(r.pld);
    pld.fetched += 1;
    if (r.outcome === 'denied') {
      this.denied += 1;
      pld.denied += 1;
    }
    if (isRdfRecord(r)) {
      this.rdfDocuments += 1;
      pld.rdfDocuments += 1;
    } else if (r.detectedType === 'html' && r.triples > 0) {
      this.embeddedDocuments += 1;
    }
    this.triples += r.triples;
    pld.triples += r.triples;
    if (r.error !== null) {
      this.errors += 1;
      pld.errors += 1;
    }
    const status = r.status === null ? r.outcome : String(r.status);
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }

  /** Records that spent budget: every fetch but robots refusals (no request was sent). */
  get spent(): number {
    return this.fetched - this.denied;
  }

  /** A PLD's spent budget (its records but robots refusals), without adding the PLD to `perPld`. */
  spentOf(name: string): number {
    const t = this.perPld.get(name);
    return t === undefined ? 0 : t.fetched - t.denied;
  }

  pld(name: string): PldTally {
    let t = this.perPld.get(name);
    if (!t) {
      t = { fetched: 0, denied: 0, rdfDocuments: 0, triples: 0, errors: 0 };
      this.perPld.set(name, t);
    }
    return t;
  }

  summary(durationMs: number, stoppedBy: CrawlSummary['stoppedBy'], resumed: boolean): CrawlSummary {
    return {
      fetched: this.fetched,
      rdfDocuments: this.rdfDocuments,
      embeddedDocuments: this.embeddedDocuments,
      triples: this.triples,
      harvestRate: this.fetched === 0 ? 0 : this.rdfDocuments / this.fetched,
      errors: this.errors,
      byStatus: { ...this.byStatus },
      denied: this.denied,
      perPld: Object.fromEntries([...this.perPld].sort(([a], [b]) => a.localeCompare(b))),
      durationMs,
      stoppedBy,
      resumed,
    };
  }
}
