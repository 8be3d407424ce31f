// **Politeness** is pure bookkeeping of when a PLD or host may be asked again: delay, crawl-delay, back-off, concurrency.

/** Options of {@link Politeness}. */
export interface PolitenessOptions {
  /** Minimum time between the starts of two requests to the same PLD (`--delay-ms`). Default: 1000 ms. */
  delayMs?: number;
  /** Maximum requests in flight per host (`--host-concurrency`). Default: 1. */
  hostConcurrency?: number;
}

/**
 * Decides when a request to (PLD, host) may start. No timers and no clock: every method takes
 * `now` (epoch ms) from the caller, so the orchestrator (and tests) drive time explicitly.
 *
 * Rules: two request starts to one PLD are `delayMs` apart; two starts to one host are at least its
 * robots.txt Crawl-delay apart (`setCrawlDelay`; the larger of the two delays wins); a PLD under a
 * 429/503 back-off (`backoff`) waits until it ends; a host never has more than `hostConcurrency`
 * requests in flight (`start` … `finish`).
 */
export class Politeness {
  readonly delayMs: number;
  readonly hostConcurrency: number;
  #pldLastStart = new Map<string, number>();
  #hostLastStart = new Map<string, number>();
  #crawlDelay = new Map<string, number>();
  /** Largest Crawl-delay among a PLD's hosts, and the hosts that set one. */
  #pldCrawlDelay = new Map<string, number>();
  #hostsOfPld = new Map<string, Set<string>>();
  #backoffUntil = new Map<string, number>();
  #inFlight = new Map<string, number>();
  /** Per PLD: when no request may be sent before (the send gate: last request sent, last fetch ended). */
  #sendAt = new Map<string, number>();

  constructor(options: PolitenessOptions = {}) {
    const { delayMs = 1000, hostConcurrency = 1, ...unknown } = options;
    const extra = Object.keys(unknown);
    if (extra.length > 0) throw new RangeError(`Unknown politeness option "${extra[0]}". Known options: delayMs, hostConcurrency.`);
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new RangeError(`delayMs must be a number ≥ 0, got ${delayMs}`);
    if (!Number.isSafeInteger(hostConcurrency) || hostConcurrency < 1) throw new RangeError(`hostConcurrency must be an integer ≥ 1, got ${hostConcurrency}`);
    this.delayMs = delayMs;
    this.hostConcurrency = hostConcurrency;
  }

  /**
   * Records a host's robots.txt Crawl-delay (ms; 0 or null clears it). robots.txt is per host (RFC 9309); given the
   * host's `pld`, the PLD's requests are also spaced by the largest Crawl-delay among its hosts (a crawl schedules
   * PLDs, so `readyAt(pld, pld)` is then as polite as the slowest host).
   */
  setCrawlDelay(host: string, ms: number | null, pld?: string): void {
    if (ms === null || ms <= 0) this.#crawlDelay.delete(host);
    else this.#crawlDelay.set(host, ms);
    if (pld === undefined || pld === host) return;
    const hosts = this.#hostsOfPld.get(pld) ?? new Set<string>();
    hosts.add(host);
    this.#hostsOfPld.set(pld, hosts);
    let max = 0;
    for (const h of hosts) max = Math.max(max, this.#crawlDelay.get(h) ?? 0);
    if (max > 0) this.#pldCrawlDelay.set(pld, max);
    else this.#pldCrawlDelay.delete(pld);
  }

  /** A host's robots.txt Crawl-delay (ms), or null when it has none. */
  crawlDelayOf(host: string): number | null {
    return this.#crawlDelay.get(host) ?? null;
  }

  /** Backs a PLD off until `untilMs` (e.g. now + Retry-After of a 429/503); an earlier back-off never shortens a later one. */
  backoff(pld: string, untilMs: number): void {
    this.#backoffUntil.set(pld, Math.max(untilMs, this.#backoffUntil.get(pld) ?? Number.NEGATIVE_INFINITY));
  }

  /**
   * The earliest epoch ms at which a request to (pld, host) may start, given what has started so far;
   * `Infinity` while the host is at its concurrency limit (it becomes known again after `finish`).
   * A value ≤ now means "now".
   */
  readyAt(pld: string, host: string, now: number): number {
    if ((this.#inFlight.get(host) ?? 0) >= this.hostConcurrency) return Number.POSITIVE_INFINITY;
    const pldStart = this.#pldLastStart.get(pld);
    const hostStart = this.#hostLastStart.get(host);
    const crawlDelay = Math.max(this.#crawlDelay.get(host) ?? 0, this.#pldCrawlDelay.get(pld) ?? 0);
    let ready = now;
    if (pldStart !== undefined) ready = Math.max(ready, pldStart + this.delayMs);
    if (hostStart !== undefined) ready = Math.max(ready, hostStart + Math.max(this.delayMs, crawlDelay));
    const backoff = this.#backoffUntil.get(pld);
    if (backoff !== undefined) ready = Math.max(ready, backoff);
    return ready;
  }

  /** Whether a request to (pld, host) may start at `now`. */
  canStart(pld: string, host: string, now: number): boolean {
    return this.readyAt(pld, host, now) <= now;
  }

  /**
   * The send gate: the earliest epoch ms at which a request to `pld` may actually be sent —
   * `delayMs` (or the larger Crawl-delay) after the last request sent to the PLD (`sent`) and after the PLD's last
   * fetch ended (`finish`), and not during a back-off. `readyAt` decides when a fetch is handed out; this one when
   * its request leaves, so that two fetches handed out close together (host concurrency > 1) still send their
   * requests `delayMs` apart. A value ≤ now means "now".
   */
  sendAt(pld: string, now: number): number {
    return Math.max(now, this.#sendAt.get(pld) ?? now, this.#backoffUntil.get(pld) ?? now);
  }

  /** Records that a request to (pld, host) was sent at `now` (it passed `sendAt`): the next waits the PLD's delay. */
  sent(pld: string, host: string, now: number): void {
    this.#pushSendAt(pld, now + this.#delayOf(pld, host));
  }

  #delayOf(pld: string, host: string): number {
    return Math.max(this.delayMs, this.#crawlDelay.get(host) ?? 0, this.#pldCrawlDelay.get(pld) ?? 0);
  }

  #pushSendAt(pld: string, at: number): void {
    this.#sendAt.set(pld, Math.max(at, this.#sendAt.get(pld) ?? at));
  }

  /**
   * Records the start of a request (call when it is sent, after `canStart`). Returns what it replaced, for
   * `finishUnsent`.
   */
  start(pld: string, host: string, now: number): { pld: number | undefined; host: number | undefined } {
    const before = { pld: this.#pldLastStart.get(pld), host: this.#hostLastStart.get(host) };
    this.#pldLastStart.set(pld, now);
    this.#hostLastStart.set(host, now);
    this.#inFlight.set(host, (this.#inFlight.get(host) ?? 0) + 1);
    return before;
  }

  /**
   * Records the end of a fetch started at `startedAt` that sent no request after all (robots.txt refusal or
   * unavailability known from the cache, a URL refused before any connection): it takes no politeness slot, so the
   * PLD's next fetch may start as if it had not (unless another started since). `before`: what `start` returned.
   */
  finishUnsent(pld: string, host: string, startedAt: number, before: { pld: number | undefined; host: number | undefined }): void {
    if (this.#pldLastStart.get(pld) === startedAt) this.#restore(this.#pldLastStart, pld, before.pld);
    if (this.#hostLastStart.get(host) === startedAt) this.#restore(this.#hostLastStart, host, before.host);
    const n = (this.#inFlight.get(host) ?? 0) - 1;
    if (n > 0) this.#inFlight.set(host, n);
    else this.#inFlight.delete(host);
  }

  #restore(map: Map<string, number>, key: string, value: number | undefined): void {
    if (value === undefined) map.delete(key);
    else map.set(key, value);
  }

  /**
   * Records the end of a request to (pld, host), whatever its outcome. The delay then counts from here too: one
   * fetch may have made several requests (robots.txt first, redirect hops), the last of them just now.
   */
  finish(pld: string, host: string, now: number): void {
    this.#pldLastStart.set(pld, Math.max(now, this.#pldLastStart.get(pld) ?? now));
    this.#pushSendAt(pld, now + this.#delayOf(pld, host));
    this.#hostLastStart.set(host, Math.max(now, this.#hostLastStart.get(host) ?? now));
    const n = (this.#inFlight.get(host) ?? 0) - 1;
    if (n > 0) this.#inFlight.set(host, n);
    else this.#inFlight.delete(host);
    const backoff = this.#backoffUntil.get(pld);
    if (backoff !== undefined && backoff <= now) this.#backoffUntil.delete(pld); // expired: forget it
  }

  /** Requests in flight to a host. */
  inFlight(host: string): number {
    return this.#inFlight.get(host) ?? 0;
  }
}
