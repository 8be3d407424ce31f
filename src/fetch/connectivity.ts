// **Connectivity** decides what a fetch's failure means: its origin's own (the URL fails) or perhaps the network's (pause).
import { type FailingOrigin, OriginHealth } from './origin-health.ts';
import { OutageDetector, type OutageEvent, type OutageOptions } from './outage.ts';

/**
 * When an origin whose failures are its own counts as dead: 3 failures in a row over 10 s (its robots.txt is asked
 * again after 1, 2, 4 s: about four connection attempts by then).
 */
const DEAD_AFTER = { failures: 3, ms: 10_000 };

/** One fetch as the connectivity bookkeeping sees it. */
export interface FetchSeen {
  /** The origin the last request went to (after redirects). */
  origin: string;
  /** 'answered': an HTTP response came back; 'connection': none at all (refused, reset, timeout, DNS, TLS); 'other': none, for a reason of the URL (refused address, invalid URL). */
  outcome: 'answered' | 'connection' | 'other';
  /** Why it failed (recorded for the end summary's dead origins). */
  reason: string;
  /** The fetch was the probe of an outage pause (`start` said so). */
  probe: boolean;
  /** How many hosts (PLDs) have work now (OutageDetector). */
  activeHosts: number;
}

/**
 * What the crawl does with a fetch's outcome. `check`: ask `target` (GET its robots.txt), then call `checked`.
 * `own`: the origin's failure: the URL is retried with back-off a bounded number of times, then recorded as failed;
 * its PLD does not wait; `dead`: the origin has failed long enough (`deadAfter`) that the URL fails at once, with no
 * retry (a dead origin's queued URLs then cost one politeness slot each, not one per attempt). `network`: maybe the network: `offline` when the crawl is paused (the URL goes back, no
 * attempt spent). `event`: the crawl paused or resumed.
 */
export type Verdict =
  | { kind: 'fine'; event: OutageEvent | null }
  | { kind: 'check'; target: string }
  | { kind: 'own'; event: OutageEvent | null; dead: boolean }
  | { kind: 'network'; offline: boolean; event: OutageEvent | null };

/**
 * The rule: the network is down only when origins that answered before fail too. A connection failure on an
 * origin that never answered, or that fails while another answered since, is that origin's (OriginHealth); it never
 * pauses the crawl. Any other connection failure is first checked against another origin that answered (the most
 * recent): if it answers, the failure is the origin's own; if not, both count towards an outage (OutageDetector),
 * which pauses the crawl with back-off. A pause's probe is checked the same way, so a probe that happens to go to a
 * dead origin cannot keep the crawl paused. One check at a time; pure, over an injected clock.
 */
export class Connectivity {
  readonly health = new OriginHealth();
  readonly #outage: OutageDetector;
  readonly #deadAfter: { failures: number; ms: number };
  #checking = false;

  constructor(options: OutageOptions & { deadAfter?: { failures: number; ms: number } } = {}) {
    const { deadAfter, ...outage } = options;
    this.#outage = new OutageDetector(outage);
    this.#deadAfter = deadAfter ?? DEAD_AFTER;
  }

  #isDead(origin: string, now: number): boolean {
    return this.health.isDead(origin, now, this.#deadAfter.failures, this.#deadAfter.ms);
  }

  /** Whether the crawl is paused by an outage (or probing after a pause). */
  get offline(): boolean {
    return this.#outage.offline;
  }

  /** When the current pause ends (epoch ms); 0 when not paused. */
  get pausedUntil(): number {
    return this.#outage.pausedUntil;
  }

  /** How long the crawl has been offline at `now` (0 when it is not). */
  offlineFor(now: number): number {
    return this.#outage.offlineFor(now);
  }

  /** Whether a fetch may start at `now` (OutageDetector.canStart). */
  canStart(now: number): boolean {
    return this.#outage.canStart(now);
  }

  /** A fetch starts; true when it is the probe of a pause. */
  start(): boolean {
    return this.#outage.start();
  }

  /** Records a fetch's outcome and says what it means. */
  observe(seen: FetchSeen, now: number): Verdict {
    if (seen.outcome !== 'connection') {
      if (seen.outcome === 'answered') this.health.answered(seen.origin, now);
      return { kind: 'fine', event: this.#outage.observe({ host: seen.origin, connectionFailure: false, probe: seen.probe, activeHosts: seen.activeHosts }, now) };
    }
    this.health.failed(seen.origin, now, seen.reason);
    const own = this.health.isOwnFailure(seen.origin);
    if (this.#outage.offline && !seen.probe) {
      // Started before the pause, failing now: no news, and not the URL's fault either (it goes back, no attempt spent).
      this.#outage.observe({ host: seen.origin, connectionFailure: true, probe: false, activeHosts: seen.activeHosts }, now);
      return { kind: 'network', offline: true, event: null };
    }
    // The probe of a pause asks the origin that answered last, failing or not; any other suspect failure asks one that is not failing.
    const target = own && !seen.probe ? null : this.health.probeTarget(seen.origin, seen.probe);
    if (target !== null && !this.#checking) {
      this.#checking = true;
      return { kind: 'check', target };
    }
    if (own && !seen.probe) return { kind: 'own', event: null, dead: this.#isDead(seen.origin, now) };
    const event = this.#outage.observe({ host: seen.origin, connectionFailure: true, probe: seen.probe, activeHosts: seen.activeHosts }, now);
    return { kind: 'network', offline: this.#outage.offline, event };
  }

  /** The answer of the check `observe` asked for: whether `target` gave an HTTP response. */
  checked(seen: FetchSeen, target: string, answered: boolean, now: number): Verdict {
    this.#checking = false;
    const { probe, activeHosts } = seen;
    if (answered) {
      this.health.answered(target, now); // the network works: seen.origin's failures are its own from now on
      const event = this.#outage.observe({ host: target, connectionFailure: false, probe, activeHosts }, now);
      return { kind: 'own', event, dead: this.#isDead(seen.origin, now) };
    }
    this.health.failed(target, now, `no answer to a probe while ${seen.origin} failed`);
    const first = this.#outage.observe({ host: seen.origin, connectionFailure: true, probe, activeHosts }, now);
    const second = this.#outage.observe({ host: target, connectionFailure: true, probe: false, activeHosts }, now);
    return { kind: 'network', offline: this.#outage.offline, event: first ?? second };
  }

  /** The check `observe` asked for will not be answered (the crawl is stopping): another may be asked. */
  abandonCheck(): void {
    this.#checking = false;
  }

  /** Origins whose last requests failed at the connection level (the end summary's dead origins). */
  failing(): FailingOrigin[] {
    return this.health.failing();
  }
}
