// **OriginHealth** remembers, per origin, whether it ever answered and how long it has failed, to tell a dead origin from a network outage.

/** What is known of one origin (scheme, host, port). */
interface OriginState {
  /** When it last gave an HTTP response (epoch ms); null: never in this run. */
  lastAnswer: number | null;
  /** Connection-level failures since its last answer. */
  failures: number;
  /** When the first of those failures happened (epoch ms). */
  failingSince: number;
  /** The last failure's reason (e.g. `ECONNREFUSED: connect ECONNREFUSED 127.0.0.2:9`). */
  reason: string;
}

/** An origin whose last requests failed at the connection level, as the crawl's end summary reports it. */
export interface FailingOrigin {
  origin: string;
  /** Connection-level failures in a row (since its last answer, if any). */
  failures: number;
  /** Whether it answered earlier in this run (it went away) or never did (dead, refused, unknown, firewalled). */
  answeredBefore: boolean;
  reason: string;
}

/** Answering origins remembered as probe targets and as witnesses that the network works. */
const RECENT = 16;

/**
 * Origins remembered; beyond this the earliest met is forgotten (a forgotten origin that fails later counts as one
 * that never answered: its URLs fail, they do not pause the crawl).
 */
const MAX_ORIGINS = 200_000;

/**
 * Pure bookkeeping over an injected clock. The rule: the network is suspected only when origins that answered
 * before fail too. A connection failure on an origin is the origin's own (`isOwnFailure`) when it never answered
 * (once any origin has answered in this run), or when another origin that is not failing answered after this one began to fail: the network worked then, so
 * the URL failed, not the network. Otherwise the failure is suspect, and `probeTarget` names another origin that
 * answered (the most recent) whose robots.txt tells which it is.
 */
export class OriginHealth {
  readonly #origins = new Map<string, OriginState>();
  /** The last RECENT distinct origins that answered, most recent last. */
  readonly #recent: string[] = [];
  /**
   * Origins that answered in an earlier run of this crawl (a resume), most recent last: probe targets only. They are
   * no witness that the network works now (`isOwnFailure` ignores them) until one answers in this run.
   */
  #earlier: string[] = [];

  /** Remembers the origins that answered last in earlier runs (at most RECENT, most recent last) as probe targets. */
  answeredEarlier(origins: readonly string[]): void {
    this.#earlier = origins.slice(-RECENT);
  }

  /** `origin` gave an HTTP response at `now` (any status): it is healthy, and witnesses that the network works. */
  answered(origin: string, now: number): void {
    const s = this.#origins.get(origin);
    if (s === undefined) this.#remember(origin, { lastAnswer: now, failures: 0, failingSince: 0, reason: '' });
    else {
      s.lastAnswer = now;
      s.failures = 0;
    }
    const at = this.#recent.indexOf(origin);
    if (at >= 0) this.#recent.splice(at, 1);
    this.#recent.push(origin);
    if (this.#recent.length > RECENT) this.#recent.shift();
  }

  /** A request to `origin` got no HTTP response at all (refused, reset, timeout, DNS, TLS) at `now`. */
  failed(origin: string, now: number, reason: string): void {
    const s = this.#origins.get(origin);
    if (s === undefined) {
      this.#remember(origin, { lastAnswer: null, failures: 1, failingSince: now, reason });
      return;
    }
    if (s.failures === 0) s.failingSince = now;
    s.failures += 1;
    s.reason = reason;
  }

  #remember(origin: string, state: OriginState): void {
    this.#origins.set(origin, state);
    if (this.#origins.size <= MAX_ORIGINS) return;
    for (const oldest of this.#origins.keys()) {
      if (this.#recent.includes(oldest)) continue; // the recent ones are read by isOwnFailure (at most RECENT skipped)
      this.#origins.delete(oldest);
      return;
    }
  }

  /** Whether `origin` ever answered in this run. */
  answeredBefore(origin: string): boolean {
    return (this.#origins.get(origin)?.lastAnswer ?? null) !== null;
  }

  /**
   * Whether the current connection failures of `origin` are its own, not the network's: it never answered while
   * others did, or an origin that is not failing now answered after `origin` began to fail. False for an origin
   * that is not failing, and for every origin while none has answered yet.
   */
  isOwnFailure(origin: string): boolean {
    const s = this.#origins.get(origin);
    if (s === undefined || s.failures === 0) return false;
    // Never answered: its own failure once the network has been seen to work in this run (something answered);
    // before that nothing tells a dead origin from a network (or proxy) that is down from the start.
    if (s.lastAnswer === null) return this.#recent.length > 0;
    for (let i = this.#recent.length - 1; i >= 0; i--) {
      const other = this.#origins.get(this.#recent[i] as string) as OriginState;
      if ((other.lastAnswer as number) <= s.failingSince) break; // most recent first: none later answered after
      if (this.#recent[i] !== origin && other.failures === 0) return true;
    }
    return false;
  }

  /**
   * Whether `origin` is dead: its failures are its own (`isOwnFailure`), at least `minFailures` of them in a row,
   * over at least `minMs` (so that one refused connection, or several URLs meeting one cached robots.txt failure,
   * is not enough).
   */
  isDead(origin: string, now: number, minFailures: number, minMs: number): boolean {
    const s = this.#origins.get(origin);
    return s !== undefined && s.failures >= minFailures && now - s.failingSince >= minMs && this.isOwnFailure(origin);
  }

  /**
   * The origin to ask whether the network works while `failing` fails: the one (not `failing`) that answered last,
   * among those not failing now unless `evenFailing`; null if none.
   */
  probeTarget(failing: string, evenFailing = false): string | null {
    for (let i = this.#recent.length - 1; i >= 0; i--) {
      const o = this.#recent[i] as string;
      if (o !== failing && (evenFailing || (this.#origins.get(o) as OriginState).failures === 0)) return o;
    }
    // Nothing answered in this run yet (a resume whose first URLs are on a dead host): ask an origin that answered in
    // an earlier run, one not failing in this run. If it answers, the network works and the failures are the origin's.
    for (let i = this.#earlier.length - 1; i >= 0; i--) {
      const o = this.#earlier[i] as string;
      if (o !== failing && (evenFailing || (this.#origins.get(o)?.failures ?? 0) === 0)) return o;
    }
    return null;
  }

  /** The origins whose last requests failed at the connection level (most failures first). */
  failing(): FailingOrigin[] {
    const out: FailingOrigin[] = [];
    for (const [origin, s] of this.#origins) {
      if (s.failures > 0) out.push({ origin, failures: s.failures, answeredBefore: s.lastAnswer !== null, reason: s.reason });
    }
    return out.sort((a, b) => b.failures - a.failures || (a.origin < b.origin ? -1 : 1));
  }
}
