// **checkPoliteness** reads a request log and reports, per PLD, the most requests in flight at once and the smallest gaps between fetches (pure).
import type { RequestLogEntry } from './request-log.ts';

/** What the check needs of a request (a `RequestLogEntry` has it). */
export type LoggedRequest = Pick<RequestLogEntry, 'url' | 'pld' | 'start' | 'end' | 'status' | 'location'>;

/** Options of {@link checkPoliteness}. */
export interface PolitenessCheckOptions {
  /**
   * A request that starts at most this long after a `/robots.txt` request or a redirect to its URL (same PLD) ended
   * continues that fetch: the crawler sends robots.txt and redirect hops inside one politeness slot (fetch/politeness.ts
   * `finish`); the crawler may take a while to parse robots.txt on a loaded machine. Default: 1000 ms.
   */
  continuationMs?: number;
}

/** The politeness of one PLD as the server saw it. */
interface PldPoliteness {
  pld: string;
  requests: number;
  /** Requests grouped into fetches (robots.txt and redirect hops joined to the request they lead to). */
  fetches: number;
  /** Most requests in flight at one instant (an end at the very instant of a start does not overlap it). */
  maxInFlight: number;
  /** Smallest time between the starts of two consecutive fetches; `undefined` with fewer than two. */
  minStartGapMs?: number;
  /**
   * Smallest time from the end of the latest fetch that had ended before a fetch started to that start (the crawler
   * waits `--delay-ms` after a release); `undefined` when no fetch started after another had ended.
   */
  minIdleGapMs?: number;
}

/** The whole log's politeness: the worst PLD of each figure, and every PLD. */
export interface PolitenessReport {
  requests: number;
  fetches: number;
  plds: number;
  maxInFlight: number;
  maxInFlightPld?: string;
  minStartGapMs?: number;
  minStartGapPld?: string;
  minIdleGapMs?: number;
  minIdleGapPld?: string;
  byPld: PldPoliteness[];
}

interface Fetch {
  start: number;
  end: number;
}

/** Checks a log: max requests in flight per PLD, min gaps between fetches to one PLD (a distributed crawl's politeness proof). */
export function checkPoliteness(log: readonly LoggedRequest[], options: PolitenessCheckOptions = {}): PolitenessReport {
  const continuationMs = options.continuationMs ?? 1000;
  const byPldRequests = new Map<string, LoggedRequest[]>();
  for (const r of log) {
    const list = byPldRequests.get(r.pld);
    if (list) list.push(r);
    else byPldRequests.set(r.pld, [r]);
  }
  const byPld = [...byPldRequests].map(([pld, requests]) => checkPld(pld, requests, continuationMs));
  const report: PolitenessReport = { requests: log.length, fetches: 0, plds: byPld.length, maxInFlight: 0, byPld };
  for (const p of byPld) {
    report.fetches += p.fetches;
    if (p.maxInFlight > report.maxInFlight) {
      report.maxInFlight = p.maxInFlight;
      report.maxInFlightPld = p.pld;
    }
    if (p.minStartGapMs !== undefined && (report.minStartGapMs === undefined || p.minStartGapMs < report.minStartGapMs)) {
      report.minStartGapMs = p.minStartGapMs;
      report.minStartGapPld = p.pld;
    }
    if (p.minIdleGapMs !== undefined && (report.minIdleGapMs === undefined || p.minIdleGapMs < report.minIdleGapMs)) {
      report.minIdleGapMs = p.minIdleGapMs;
      report.minIdleGapPld = p.pld;
    }
  }
  return report;
}

function checkPld(pld: string, requests: readonly LoggedRequest[], continuationMs: number): PldPoliteness {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const out: PldPoliteness = { pld, requests: sorted.length, fetches: 0, maxInFlight: maxOverlap(sorted) };
  const fetches = groupFetches(sorted, continuationMs);
  out.fetches = fetches.length;
  let latestEnd = Number.NEGATIVE_INFINITY;
  let ended: Fetch[] = []; // fetches not yet known to have ended before the current start, by start order
  for (let i = 0; i < fetches.length; i++) {
    const f = fetches[i] as Fetch;
    if (i > 0) out.minStartGapMs = Math.min(out.minStartGapMs ?? Number.POSITIVE_INFINITY, f.start - (fetches[i - 1] as Fetch).start);
    const pending: Fetch[] = [];
    for (const g of ended) {
      if (g.end <= f.start) latestEnd = Math.max(latestEnd, g.end);
      else pending.push(g);
    }
    ended = pending;
    if (latestEnd > Number.NEGATIVE_INFINITY) out.minIdleGapMs = Math.min(out.minIdleGapMs ?? Number.POSITIVE_INFINITY, f.start - latestEnd);
    ended.push(f);
  }
  return out;
}

/** Most intervals [start, end) overlapping at one instant; a request without an end is still in flight. */
function maxOverlap(sorted: readonly LoggedRequest[]): number {
  const events: Array<[number, number]> = [];
  for (const r of sorted) {
    events.push([r.start, 1]);
    events.push([r.end ?? Number.POSITIVE_INFINITY, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // at one instant, ends before starts
  let now = 0;
  let max = 0;
  for (const [, delta] of events) {
    now += delta;
    max = Math.max(max, now);
  }
  return max;
}

/** Joins robots.txt and redirect hops to the request that follows them within `continuationMs`. */
function groupFetches(sorted: readonly LoggedRequest[], continuationMs: number): Fetch[] {
  const fetches: Fetch[] = [];
  /** The fetch of each recent request that may still lead to a later one. */
  const fetchOf = new Map<LoggedRequest, Fetch>();
  for (const r of sorted) {
    let lead: LoggedRequest | undefined;
    for (const p of fetchOf.keys()) {
      if (p.end !== undefined && r.start - p.end > continuationMs) {
        fetchOf.delete(p); // starts only grow: p can lead to no later request
        continue;
      }
      if (p.end === undefined || p.end > r.start) continue;
      if (!leadsTo(p, r)) continue;
      if (lead === undefined || (p.end ?? 0) > (lead.end ?? 0)) lead = p;
    }
    const joined = lead === undefined ? undefined : fetchOf.get(lead);
    if (joined) {
      joined.end = Math.max(joined.end, r.end ?? Number.POSITIVE_INFINITY);
      fetchOf.delete(lead as LoggedRequest); // a hop leads to one request only
      fetchOf.set(r, joined);
    } else {
      const f: Fetch = { start: r.start, end: r.end ?? Number.POSITIVE_INFINITY };
      fetches.push(f);
      fetchOf.set(r, f);
    }
  }
  return fetches;
}

/** Whether request `p` is a hop that the crawler follows with `r` in the same fetch. */
function leadsTo(p: LoggedRequest, r: LoggedRequest): boolean {
  if (pathOf(p.url) === '/robots.txt') return pathOf(r.url) !== '/robots.txt';
  return p.status >= 300 && p.status < 400 && p.location === r.url;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
