// **DeadOrigins** reads the records for the origins whose last fetches got no answer at all (for `stats`).
import type { FailingOrigin } from '../fetch/origin-health.ts';
import type { CrawlRecord } from './record.ts';

/** Failures that mean "no HTTP response": a connection that failed, or a robots.txt that could not be reached. */
function isNoAnswer(r: CrawlRecord): boolean {
  if (r.outcome !== 'failed' || r.status !== null) return false;
  if (r.error === 'RDFSCOUT_CONNECTION_FAILED' || r.error === 'RDFSCOUT_CONNECT_TIMEOUT') return true;
  // A robots.txt that answered 5xx or 429 says "(HTTP 503)"; one that got no response names the network error.
  return r.error === 'RDFSCOUT_ROBOTS_UNAVAILABLE' && !/\(HTTP \d{3}\)/.test(r.errorMessage ?? '');
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Keeps, per origin, its failures with no answer since its last answer, over records in fetch order (pure). The
 * crawl's end summary names the dead origins of one run (fetch/origin-health.ts); this reads them from the records
 * of every run, so that `stats` names them too.
 */
export class DeadOrigins {
  readonly #origins = new Map<string, { failures: number; answered: boolean; reason: string }>();

  add(r: CrawlRecord): void {
    const origin = originOf(r.outcome === 'failed' ? r.finalUrl || r.url : r.finalUrl);
    const s = this.#origins.get(origin) ?? { failures: 0, answered: false, reason: '' };
    if (isNoAnswer(r)) {
      s.failures += 1;
      s.reason = r.errorMessage ?? r.error ?? '';
    } else if (r.status !== null || r.outcome !== 'failed') {
      s.answered = true;
      s.failures = 0;
    }
    this.#origins.set(origin, s);
  }

  /** The origins whose last records are failures with no answer, most failures first. */
  list(): FailingOrigin[] {
    const out: FailingOrigin[] = [];
    for (const [origin, s] of this.#origins) if (s.failures > 0) out.push({ origin, failures: s.failures, answeredBefore: s.answered, reason: s.reason });
    return out.sort((a, b) => b.failures - a.failures || (a.origin < b.origin ? -1 : 1));
  }
}
