// **RobotsCache** fetches robots.txt once per origin, caches the verdicts, and answers "may I fetch this URL?".
import robotsParserModule from 'robots-parser';

/** The parts of robots-parser's `Robot` we use. */
interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

// robots-parser is CommonJS (`module.exports = fn`); its .d.ts declares an ESM default, which NodeNext misreads.
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => Robot;

/** What loading one robots.txt gave: its text, "allow everything" (4xx), or "unavailable" (5xx, network error). */
export type RobotsLoad =
  | { kind: 'text'; text: string }
  /** `brief`: remember only for `retryMs` (the robots.txt could not be asked for, e.g. its host is unknown). */
  | { kind: 'allow-all'; reason: string; brief?: boolean }
  /** `network`: no response at all (a connection-level failure), not a 5xx or 429. */
  | { kind: 'unavailable'; reason: string; network?: boolean };

/** The answer for one URL. `unavailable`: robots.txt could not be read; wait and retry later (RFC 9309 §2.3.1.4). */
export type RobotsVerdict =
  | { kind: 'allowed' }
  | { kind: 'denied' }
  /** `retryAt`: when the cache will load it again (epoch ms); `network`: the load got no response at all. */
  | { kind: 'unavailable'; reason: string; network: boolean; retryAt: number };

/** How a robots.txt status is treated (RFC 9309 §2.3.1): 2xx parse, 4xx allow all (429 excepted), else unavailable. */
export function classifyRobotsStatus(status: number): 'parse' | 'allow-all' | 'unavailable' {
  if (status >= 200 && status < 300) return 'parse';
  if (status >= 400 && status < 500 && status !== 429) return 'allow-all';
  return 'unavailable';
}

/** Options of a {@link RobotsCache}. */
export interface RobotsCacheOptions {
  /** Loads `robotsUrl` (redirects, limits and errors handled by the loader). Never rejects. */
  load: (robotsUrl: string) => Promise<RobotsLoad>;
  /** Product token matched against `User-agent:` lines (`rdfscout`). */
  agent: string;
  /** Lifetime of a loaded or missing robots.txt. */
  ttlMs: number;
  /** Lifetime of an "unavailable" state, after which the next request tries again. */
  retryMs: number;
  /**
   * Lifetime of an "unavailable" state whose load got no response at all (refused, reset, timeout, DNS, TLS): the
   * first, doubled after each such load in a row, up to `retryMs`. Short, so that a dead origin's URLs meet a fresh
   * attempt at each of their retries and end as failed within seconds, not minutes. Default: 1000 ms.
   */
  networkRetryMs?: number;
  /** Origins kept; the least recently inserted is dropped beyond this. */
  maxEntries: number;
  /** Upper bound on Crawl-delay. */
  maxCrawlDelayMs: number;
  /** Clock, injectable for tests. Default: `Date.now`. */
  now?: () => number;
}

interface Entry {
  expiresAt: number;
  /** null: allow everything. */
  robot: Robot | null;
  /** The robots.txt's Crawl-delay for our agent in ms (capped), null when none: read once, asked for every fetch. */
  crawlDelayMs: number | null;
  unavailable: string | null;
  /** The unavailability was a connection-level failure. */
  network: boolean;
}

/** The WHATWG origin of `url`, null when it is no URL. */
function originOf(url: string | URL): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** What a shared load answers when its caller's politeness gate failed before any request: the others try again. */
const GATE_REFUSED = Symbol('gate refused');

/** Caches robots.txt per origin (scheme, host, port); concurrent checks of one origin share one load. */
export class RobotsCache {
  #options: RobotsCacheOptions;
  #now: () => number;
  #entries = new Map<string, Entry>();
  #loading = new Map<string, Promise<Entry | typeof GATE_REFUSED>>();
  /** Per origin: loads in a row that got no response (their "unavailable" lifetime doubles with each). */
  #networkFailures = new Map<string, number>();

  constructor(options: RobotsCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Whether `url` may be fetched, loading the origin's robots.txt if it is not cached or has expired. */
  async check(url: URL): Promise<RobotsVerdict> {
    return (await this.checkGated(url)).verdict;
  }

  /**
   * `check`, for a caller that sends no request before a politeness gate: when this call has to send the origin's
   * robots.txt request itself, it first awaits `gate` (calls for the origin meanwhile wait for that load).
   * `sentLoad`: this call sent the robots.txt request, right after its gate, so the caller's next request to the
   * origin continues that politeness slot. A rejected `gate` rejects this call only; a waiting call then
   * loads it itself.
   */
  async checkGated(url: URL, gate?: () => Promise<void>): Promise<{ verdict: RobotsVerdict; sentLoad: boolean }> {
    const { entry, sentLoad } = await this.#entryFor(url, gate);
    return { verdict: this.#verdictOf(entry, url), sentLoad };
  }

  #verdictOf(entry: Entry, url: URL): RobotsVerdict {
    if (entry.unavailable !== null) return { kind: 'unavailable', reason: entry.unavailable, network: entry.network, retryAt: entry.expiresAt };
    if (entry.robot === null) return { kind: 'allowed' };
    // robots-parser answers undefined for a URL of another origin; the entry is per origin, so that is "allowed".
    return entry.robot.isAllowed(url.href, this.#options.agent) === false ? { kind: 'denied' } : { kind: 'allowed' };
  }

  /** Crawl-delay for the URL's origin in ms (capped), from the cached robots.txt; null if none or not loaded yet. */
  crawlDelayMs(url: string | URL): number | null {
    const origin = originOf(url);
    return origin === null ? null : (this.#entries.get(origin)?.crawlDelayMs ?? null);
  }

  #crawlDelayOf(robot: Robot): number | null {
    const delay = robot.getCrawlDelay(this.#options.agent);
    if (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0) return null;
    return Math.min(Math.round(delay * 1000), this.#options.maxCrawlDelayMs);
  }

  /** Sitemap URLs the origin's cached robots.txt names (`Sitemap:` lines); [] if none or not loaded yet. */
  sitemaps(url: string | URL): string[] {
    const origin = originOf(url);
    return origin === null ? [] : (this.#entries.get(origin)?.robot?.getSitemaps() ?? []);
  }

  /** Number of origins cached. */
  get size(): number {
    return this.#entries.size;
  }

  async #entryFor(url: URL, gate?: () => Promise<void>): Promise<{ entry: Entry; sentLoad: boolean }> {
    const origin = url.origin;
    for (;;) {
      const cached = this.#entries.get(origin);
      if (cached !== undefined && cached.expiresAt > this.#now()) return { entry: cached, sentLoad: false };
      const loading = this.#loading.get(origin);
      if (loading !== undefined) {
        const entry = await loading;
        if (entry !== GATE_REFUSED) return { entry, sentLoad: false };
        continue; // the loader's gate failed (its fetch was aborted): load it ourselves
      }
      // The load is shared from the moment it is decided, its gate wait included: no other call starts one
      // meanwhile, so every gate pass is followed by its request at once.
      let refusal: unknown;
      const load = (async () => {
        try {
          await gate?.();
        } catch (err) {
          refusal = err;
          return GATE_REFUSED;
        }
        return this.#load(origin);
      })().finally(() => this.#loading.delete(origin));
      this.#loading.set(origin, load);
      const entry = await load;
      if (entry === GATE_REFUSED) throw refusal;
      return { entry, sentLoad: true };
    }
  }

  async #load(origin: string): Promise<Entry> {
    const robotsUrl = `${origin}/robots.txt`;
    const result = await this.#options.load(robotsUrl);
    const now = this.#now();
    let entry: Entry;
    if (result.kind === 'text') {
      const robot = robotsParser(robotsUrl, result.text);
      entry = { expiresAt: now + this.#options.ttlMs, robot, crawlDelayMs: this.#crawlDelayOf(robot), unavailable: null, network: false };
    } else if (result.kind === 'allow-all') {
      entry = { expiresAt: now + (result.brief === true ? this.#options.retryMs : this.#options.ttlMs), robot: null, crawlDelayMs: null, unavailable: null, network: false };
    } else if (result.network === true) {
      const n = (this.#networkFailures.get(origin) ?? 0) + 1;
      this.#networkFailures.set(origin, n);
      if (this.#networkFailures.size > this.#options.maxEntries) this.#networkFailures.delete(this.#networkFailures.keys().next().value as string);
      const retryMs = Math.min(this.#options.retryMs, (this.#options.networkRetryMs ?? 1000) * 2 ** (n - 1));
      entry = { expiresAt: now + retryMs, robot: null, crawlDelayMs: null, unavailable: result.reason, network: true };
    } else entry = { expiresAt: now + this.#options.retryMs, robot: null, crawlDelayMs: null, unavailable: result.reason, network: false };
    if (result.kind !== 'unavailable' || result.network !== true) this.#networkFailures.delete(origin);
    this.#entries.delete(origin); // re-insert at the end: Map order is the eviction order
    this.#entries.set(origin, entry);
    if (this.#entries.size > this.#options.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return entry;
  }
}
