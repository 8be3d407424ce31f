// **OutageDetector** notices when every request fails at the connection level, pauses the crawl with back-off, and probes.

/** Options of an {@link OutageDetector}. */
export interface OutageOptions {
  /** Connection-level failures in a row (no success between) that mean "the network is down". Default: 6. */
  threshold?: number;
  /** Distinct hosts those failures must span, or every host with work if fewer have any. Default: 2. */
  minHosts?: number;
  /** First pause, ms; each failed probe doubles it. Default: 1000. */
  firstPauseMs?: number;
  /** Longest pause, ms. Default: 60000. */
  maxPauseMs?: number;
}

/** What changed, for a log line or a progress event. */
export type OutageEvent =
  | { kind: 'paused'; until: number; pauseMs: number; failures: number; hosts: number; since: number }
  | { kind: 'resumed'; offlineMs: number };

/**
 * Pure bookkeeping of the crawl's connectivity, with the clock passed in. Every fetch outcome is
 * `observe`d: a success (any HTTP response) resets it; `threshold` connection-level failures in a row across
 * `minHosts` hosts (or across all hosts with work, when fewer have any) pause the crawl for `firstPauseMs`. After a
 * pause one probe request may start (`canStart`, `start`); its failure doubles the pause (up to `maxPauseMs`), its success
 * ends the outage. Fetches that fail while paused are not the URLs' fault: the crawl requeues them without spending
 * an attempt or any budget.
 */
export class OutageDetector {
  readonly #threshold: number;
  readonly #minHosts: number;
  readonly #firstPauseMs: number;
  readonly #maxPauseMs: number;
  #streak = 0;
  #streakHosts = new Set<string>();
  #pausedUntil = 0;
  #pauseMs = 0;
  #offlineSince = 0;
  #probing = false;

  constructor(options: OutageOptions = {}) {
    this.#threshold = options.threshold ?? 6;
    this.#minHosts = options.minHosts ?? 2;
    this.#firstPauseMs = options.firstPauseMs ?? 1000;
    this.#maxPauseMs = options.maxPauseMs ?? 60_000;
  }

  /** Whether the crawl is in an outage (paused, or probing after a pause). */
  get offline(): boolean {
    return this.#pauseMs > 0;
  }

  /** When the current pause ends (epoch ms); 0 when not paused. */
  get pausedUntil(): number {
    return this.offline ? this.#pausedUntil : 0;
  }

  /** How long the crawl has been offline at `now` (0 when it is not). */
  offlineFor(now: number): number {
    return this.offline ? now - this.#offlineSince : 0;
  }

  /** Whether a fetch may start at `now`: always when online; when offline, one probe once the pause is over. */
  canStart(now: number): boolean {
    return !this.offline || (!this.#probing && now >= this.#pausedUntil);
  }

  /** Records that a fetch starts (after `canStart`); true when it is the probe of an outage, to `observe` with `probe: true`. */
  start(): boolean {
    if (!this.offline) return false;
    this.#probing = true;
    return true;
  }

  /**
   * Records one fetch outcome: `connectionFailure` when no HTTP response came back; `activeHosts` is how many hosts
   * (or PLDs) have work now. Returns the change, if any.
   */
  observe(outcome: { host: string; connectionFailure: boolean; probe: boolean; activeHosts: number }, now: number): OutageEvent | null {
    if (outcome.probe) this.#probing = false;
    if (!outcome.connectionFailure) {
      const wasOffline = this.offline;
      const offlineMs = this.offlineFor(now);
      this.#streak = 0;
      this.#streakHosts.clear();
      this.#pauseMs = 0;
      this.#pausedUntil = 0;
      return wasOffline ? { kind: 'resumed', offlineMs } : null;
    }
    this.#streak += 1;
    this.#streakHosts.add(outcome.host);
    if (this.offline) {
      if (!outcome.probe) return null; // fetches started before the pause, failing now: no news
      this.#pauseMs = Math.min(this.#pauseMs * 2, this.#maxPauseMs);
      return this.#pause(now);
    }
    const hostsNeeded = Math.max(1, Math.min(this.#minHosts, outcome.activeHosts));
    if (this.#streak < this.#threshold || this.#streakHosts.size < hostsNeeded) return null;
    this.#pauseMs = this.#firstPauseMs;
    this.#offlineSince = now;
    return this.#pause(now);
  }

  #pause(now: number): OutageEvent {
    this.#pausedUntil = now + this.#pauseMs;
    return { kind: 'paused', until: this.#pausedUntil, pauseMs: this.#pauseMs, failures: this.#streak, hosts: this.#streakHosts.size, since: this.#offlineSince };
  }
}
