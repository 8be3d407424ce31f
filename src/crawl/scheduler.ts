// **Scheduler** decides which link is fetched next: the ready set of PLDs, politeness, budgets, bandit or global order.
import type { BanditPolicy } from '../bandit/types.ts';
import type { CrawlTally } from '../crawl-log/tally.ts';
import { Connectivity, type FetchSeen, type Verdict } from '../fetch/connectivity.ts';
import type { FailingOrigin } from '../fetch/origin-health.ts';
import { Politeness } from '../fetch/politeness.ts';
import type { FetchResult } from '../fetch/types.ts';
import type { Frontier, FrontierEntry, PldQueue } from '../frontier/types.ts';
import { hostOf, pldOf } from '../links/normalize-url.ts';
import { type ClaimView, LOCAL_CLAIMS } from './coordinator.ts';
import { ReadySet } from './ready-set.ts';

/** Every PLD is placed afresh at least this often (ms): a safety net under the event-driven ready set. */
const FULL_SCAN_MS = 1000;

export interface SchedulerOptions {
  frontier: Frontier;
  /** Origins that answered in earlier runs of this crawl, most recent last: probe targets before any answers now. */
  answeredEarlier?: readonly string[];
  /** The PLD bandit (BeeBot §3); null: the frontier's global (priority, seq) order. */
  policy: BanditPolicy | null;
  /** Records so far (the spent budget). */
  tally: CrawlTally;
  /** Total and per-PLD budgets (fetches; robots refusals are not spent). */
  maxDocs: number;
  maxDocsPerPld: number;
  /** Politeness delay between requests to one PLD (ms) and requests in flight per PLD. */
  delayMs: number;
  hostConcurrency: number;
  /** The clock (epoch ms). Tests inject one; the crawl passes `Date.now`. */
  now: () => number;
  /** What the crawl's other processes claimed for this one (Coordinator.claims). Default: none (a process alone). */
  claims?: ClaimView;
}

/**
 * The crawl's scheduling state, pure bookkeeping over an injected clock: which PLDs may be served now (work due,
 * budget left, not excluded, politeness allows), which one is served next (the bandit's choice among them, or the
 * most urgent head of all), and when to look again. The crawler tells it what happened (`started`, `fetched`,
 * `landed`, `changed`), and it never waits or reads the wall clock itself.
 */
export class Scheduler {
  readonly #o: SchedulerOptions;
  readonly #politeness: Politeness;
  /** PLDs servable now, and when the others wake (`changed` places a PLD after every change to it). */
  readonly #ready = new ReadySet();
  /** In-flight fetches per PLD (for the per-PLD budget). */
  readonly #inFlightPerPld = new Map<string, number>();
  /** PLDs out of the game for good (BeeBot's Not Available sites). */
  readonly #excluded = new Set<string>();
  /** Connectivity: a dead origin's failures are its URLs'; an outage (origins that answered fail too) pauses the crawl. */
  readonly #outage = new Connectivity();
  /** When each started fetch started, and the politeness times its start replaced (`requestEnded` with `sent` false). */
  readonly #starts = new WeakMap<FrontierEntry, { at: number; before: ReturnType<Politeness['start']> }>();
  /** Picked entries whose request is the one probe of an outage. */
  readonly #probes = new WeakSet<FrontierEntry>();
  #inFlight = 0;
  #lastFullScan = Number.NEGATIVE_INFINITY;

  readonly #claims: ClaimView;

  constructor(o: SchedulerOptions) {
    this.#o = o;
    this.#outage.health.answeredEarlier(o.answeredEarlier ?? []);
    this.#claims = o.claims ?? LOCAL_CLAIMS;
    this.#politeness = new Politeness({ delayMs: o.delayMs, hostConcurrency: o.hostConcurrency });
  }

  /** Fetches in flight (handed out and not landed). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Fetches still allowed by the total budget (records so far plus those in flight). */
  budgetLeft(): number {
    return this.#o.maxDocs - this.#o.tally.spent - this.#inFlight;
  }

  /** A PLD's budget spent: its requests so far (robots refusals excepted) plus those in flight. */
  #pldSpent(pld: string): number {
    return this.#o.tally.spentOf(pld) + (this.#inFlightPerPld.get(pld) ?? 0);
  }

  /**
   * Places a PLD in the ready set after anything about it changed: servable now (work due, budget left, not
   * excluded, politeness allows), asleep until its politeness delay or retry back-off ends, or out until the
   * next change (nothing queued, budget spent, host at its concurrency limit).
   */
  changed(pld: string): void {
    const now = this.#o.now();
    if (this.#excluded.has(pld) || this.#pldSpent(pld) >= this.#o.maxDocsPerPld) {
      this.#ready.place(pld, null, now);
      return;
    }
    // dueAt: the earliest retry back-off end among its queued entries (Infinity when none is queued).
    this.#ready.place(pld, Math.max(this.#politeness.readyAt(pld, pld, now), this.#o.frontier.dueAt(pld)), now);
  }

  /** Every PLD with work, placed afresh: at the start, and now and then as a safety net (FULL_SCAN_MS). */
  #changedAll(): void {
    for (const q of this.#o.frontier.queues()) this.changed(q.pld);
    this.#lastFullScan = this.#o.now();
  }

  /** A fetch of `pld` committed: its queue and budget changed, and so did the queues of the PLDs of `enqueued`. */
  committed(pld: string, enqueued: readonly { url: string }[]): void {
    this.changed(pld);
    let last = pld;
    for (const e of enqueued) {
      const p = pldOf(e.url);
      if (p !== last) this.changed(p);
      last = p;
    }
  }

  /** The operator blocked `pld` (dashboard): nothing more is fetched from it in this run, and the bandit retires it. */
  block(pld: string): void {
    this.exclude(pld);
    this.#o.policy?.retire(pld);
  }

  /** What the scheduler knows of a PLD now (dashboard): fetches in flight, next request allowed at, Crawl-delay. */
  pldView(pld: string, now: number): { inFlight: number; nextAllowedAt: number | null; robotsDelayMs: number | null } {
    const at = this.#politeness.readyAt(pld, pld, now);
    return { inFlight: this.#inFlightPerPld.get(pld) ?? 0, nextAllowedAt: Number.isFinite(at) ? at : null, robotsDelayMs: this.#politeness.crawlDelayOf(pld) };
  }

  /** Takes a PLD out of the game for good (BeeBot §2: a Not Available site). */
  exclude(pld: string): void {
    this.#excluded.add(pld);
    this.#ready.place(pld, null, this.#o.now());
  }

  /** Chooses the next link: among ready PLDs, by the bandit or by the global (priority, seq) order; counts it in flight until `landed`. */
  pick(): FrontierEntry | null {
    const now = this.#o.now();
    if (!this.#outage.canStart(now)) return null; // paused by an outage, or its probe is out
    if (now - this.#lastFullScan >= FULL_SCAN_MS) this.#changedAll();
    const { frontier, policy } = this.#o;
    // PLDs another process changed are placed afresh, and entries claimed for this process under a lease on their
    // PLD go first (the lease was taken for them); a process alone has neither.
    for (const pld of this.#claims.drainChanged()) this.changed(pld);
    for (const pld of this.#claims.claimed()) {
      const entry = this.#excluded.has(pld) ? null : frontier.next(pld, now);
      if (entry !== null) return this.#handOut(entry);
    }
    if (this.#claims.saturated()) return null;
    const candidates = [...this.#ready.wake(now)];
    for (;;) {
      if (candidates.length === 0) return null;
      let pld: string;
      if (policy === null) {
        let best: PldQueue | null = null;
        for (const name of candidates) {
          const q = frontier.queueOf(name);
          if (q !== null && (best === null || q.headPriority < best.headPriority || (q.headPriority === best.headPriority && q.headSeq < best.headSeq))) best = q;
        }
        pld = best?.pld ?? (candidates[0] as string);
      } else {
        pld = policy.choose(candidates);
      }
      const entry = frontier.next(pld, now);
      if (entry !== null) return this.#handOut(entry);
      // Its head waits (a retry back-off: it goes to sleep; a disk read: it stays ready for the next pick).
      this.changed(pld);
      if (this.#claims.saturated()) return null; // no more claims may be asked for now
      candidates.splice(candidates.indexOf(pld), 1);
    }
  }

  /**
   * A shared frontier, just before a fetch's release is sent: asks the frontier for the entries the next
   * picks would take (the same choice as `pick`: bandit or global order among the ready PLDs), so that the release
   * claims them in its own script instead of a claim of their own. Hands nothing out: it runs only while no claimed
   * entry waits, and then every `next()` of a shared frontier only records what is wanted and answers null.
   */
  claimAhead(): void {
    const claims = this.#claims;
    if (claims.claimed().length > 0 || this.budgetLeft() <= 0) return;
    const entry = this.pick();
    if (entry === null) return;
    // Not reached (see above); were it, the entry goes back to its queue rather than be lost.
    this.landed(entry);
    void claims.giveBack(entry);
  }

  /** Counts a picked entry in flight; the caller starts its request (`requestStarted`), then says `changed(entry.pld)`. */
  #handOut(entry: FrontierEntry): FrontierEntry {
    this.#inFlight += 1;
    this.#inFlightPerPld.set(entry.pld, (this.#inFlightPerPld.get(entry.pld) ?? 0) + 1);
    return entry;
  }

  /** A picked fetch is no longer in flight (it joined the tally, or was put back): budgets stop counting it. */
  landed(entry: FrontierEntry): void {
    this.#inFlight -= 1;
    this.#inFlightPerPld.set(entry.pld, (this.#inFlightPerPld.get(entry.pld) ?? 1) - 1);
  }

  /** The request of `entry` goes out now (politeness: one more in flight on its PLD). */
  requestStarted(entry: FrontierEntry): void {
    const at = this.#o.now();
    this.#starts.set(entry, { at, before: this.#politeness.start(entry.pld, entry.pld, at) });
    if (this.#outage.start()) this.#probes.add(entry); // while paused, the one request that tests the network
  }

  /**
   * The send gate of the LevelDB mode (a worker of a shared crawl asks Redis instead): whether the
   * request of `entry`, handed out and started, may be sent now. `waitMs` 0 when it may (the send is recorded: the
   * PLD's next request waits `--delay-ms`), else how long to wait before asking again; `at` is the clock's now.
   * `pick` spaces the hand-outs; this spaces what leaves, whatever happened in between (a robots.txt another fetch
   * was loading, a busy event loop).
   */
  gate(entry: FrontierEntry): { waitMs: number; at: number } {
    return this.gatePld(entry.pld);
  }

  /**
   * {@link gate} for a request that is no frontier entry (a JSON-LD context a document needs): spaced from the PLD's
   * other requests by the same delay, but not counted against its host concurrency, as the document that waits for
   * it may hold the PLD's only slot.
   */
  gatePld(pld: string): { waitMs: number; at: number } {
    const now = this.#o.now();
    const sendAt = this.#politeness.sendAt(pld, now);
    if (sendAt > now) return { waitMs: sendAt - now, at: now };
    this.#politeness.sent(pld, pld, now);
    return { waitMs: 0, at: now };
  }

  /**
   * The request of `entry` ended; `crawlDelayMs` is its host's robots.txt Crawl-delay (null: none). robots.txt is
   * per host (RFC 9309): the PLD waits for the slowest of its hosts. `sent`: whether the fetch sent any request.
   */
  requestEnded(entry: FrontierEntry, crawlDelayMs: number | null, sent = true): void {
    this.#politeness.setCrawlDelay(hostOf(entry.url), crawlDelayMs, entry.pld); // first: the delay after this end counts it
    const start = this.#starts.get(entry);
    this.#starts.delete(entry);
    // A fetch that sent nothing (its origin's robots.txt refusal or failure known from the cache) takes no slot: a
    // dead origin's queued URLs then end without holding up their PLD's live hosts.
    if (!sent && start !== undefined) this.#politeness.finishUnsent(entry.pld, entry.pld, start.at, start.before);
    else this.#politeness.finish(entry.pld, entry.pld, this.#o.now());
    this.changed(entry.pld);
  }

  /**
   * Tells the connectivity bookkeeping how the request of `entry` went (fetch/connectivity.ts). A `check` verdict
   * asks the caller to probe another origin and to call `checked` with the answer. `network` with `offline`: it failed
   * while the crawl is paused: not the URL's fault, so it goes back in the queue until `pausedUntil`, no attempt spent.
   * `own`: the origin's failure (the URL is retried, then recorded; its PLD does not wait). A pause or resume event
   * places every PLD afresh.
   */
  observe(entry: FrontierEntry, result: FetchResult): Verdict {
    const verdict = this.#outage.observe(this.#seen(entry, result), this.#o.now());
    if (verdict.kind !== 'check') this.#probes.delete(entry); // a check keeps the probe mark for `checked`
    return this.#placeOn(verdict);
  }

  /** The answer to a `check` verdict of `observe(entry, result)`: whether `target` answered. */
  checked(entry: FrontierEntry, result: FetchResult, target: string, answered: boolean): Verdict {
    const verdict = this.#outage.checked(this.#seen(entry, result), target, answered, this.#o.now());
    this.#probes.delete(entry);
    return this.#placeOn(verdict);
  }

  /** The check a `check` verdict asked for was not made (the fetch was aborted). */
  abandonCheck(entry: FrontierEntry): void {
    this.#probes.delete(entry);
    this.#outage.abandonCheck();
  }

  #placeOn(verdict: Verdict): Verdict {
    if (verdict.kind !== 'check' && verdict.event !== null) this.#changedAll();
    return verdict;
  }

  /** `entry`'s fetch as Connectivity sees it. */
  #seen(entry: FrontierEntry, result: FetchResult): FetchSeen {
    const probe = this.#probes.has(entry);
    let origin: string;
    try {
      origin = new URL(result.finalUrl).origin;
    } catch {
      origin = entry.url;
    }
    if (result.kind !== 'failed') return { origin, outcome: 'answered', reason: '', probe, activeHosts: 0 };
    const outcome = result.connection === true ? 'connection' : result.status !== null || result.error === 'RDFSCOUT_ROBOTS_UNAVAILABLE' ? 'answered' : 'other';
    return { origin, outcome, reason: result.message, probe, activeHosts: outcome === 'connection' ? this.#o.frontier.queues().length : 0 };
  }

  /** Origins whose last requests failed at the connection level (the end summary's dead origins). */
  failingOrigins(): FailingOrigin[] {
    return this.#outage.failing();
  }

  /** When the current outage pause ends (epoch ms); 0 when the crawl is not paused. */
  get pausedUntil(): number {
    return this.#outage.pausedUntil;
  }

  /** How long the crawl has been offline (ms; 0 when it is not). */
  offlineFor(): number {
    return this.#outage.offlineFor(this.#o.now());
  }

  /** The server asked to wait (Retry-After), or its connections fail: no request to the PLD before `until`. */
  backoff(pld: string, until: number): void {
    this.#politeness.backoff(pld, until);
  }

  /**
   * When something may become available: now + 5 ms while PLDs are ready but unserved (heads read from disk), else
   * the earliest wake-up; now + 50 ms while fetches are in flight; null when nothing is left.
   */
  nextWake(): number | null {
    const wake = this.#nextWake();
    // While the crawl is paused by an outage, nothing starts before the pause ends (then one probe).
    const until = this.#outage.pausedUntil;
    return until === 0 || wake === null ? wake : Math.max(wake, until);
  }

  #nextWake(): number | null {
    const now = this.#o.now();
    if (this.#ready.wake(now).size > 0) return now + 5;
    let earliest = this.#ready.nextWake();
    if (earliest === null && this.#inFlight === 0) {
      this.#changedAll(); // before concluding that nothing is left
      if (this.#ready.wake(now).size > 0) return now;
      earliest = this.#ready.nextWake();
    }
    if (earliest !== null) return Math.max(earliest, now + 5);
    return this.#inFlight > 0 ? now + 50 : null;
  }
}
