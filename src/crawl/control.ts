// **CrawlControl** lets an operator steer a running crawl (pause, resume, stop cleanly, add seeds, block a PLD) and
// lets the crawler show what it holds in memory (queues, bandit arms, learned patterns) to a dashboard.
import type { ArmStats } from '../bandit/types.ts';
import { ArgumentError } from '../errors.ts';
import { pldOf } from '../links/index.ts';
import type { CrawlTally } from '../crawl-log/tally.ts';

/** What the crawler knows about one PLD right now (for the dashboard's per-PLD table). */
interface PldView {
  pld: string;
  /** URLs queued (not in flight). */
  queued: number;
  inFlight: number;
  /** Epoch ms at which politeness allows the next request (≤ now: now; null: at its concurrency limit). */
  nextAllowedAt: number | null;
  /** robots.txt Crawl-delay in ms, null when none. */
  robotsDelayMs: number | null;
  blocked: boolean;
}

/** Whether an outage pauses the crawl (fetch/connectivity.ts: origins that answered before fail too). */
export interface NetworkView {
  /** Paused by the network (waiting, or its probe in flight). */
  paused: boolean;
  /** How long the crawl has been offline (ms; 0 when it is not). */
  offlineMs: number;
  /** When the pause ends and one probe request goes out (epoch ms); null when not paused. */
  nextProbeAt: number | null;
}

/** The crawler's live figures, read by a dashboard through {@link CrawlControl.view}. Every call is cheap and synchronous. */
export interface CrawlView {
  tally(): CrawlTally;
  queued(): number;
  inFlight(): number;
  /** The fetch budget (total). */
  maxDocs(): number;
  plds(now: number): PldView[];
  /** The bandit's arms, or null when PLDs are not scheduled by a bandit. */
  arms(): ArmStats[] | null;
  /** Whether the network pauses the crawl now; absent: never (a view without it). */
  network?(): NetworkView;
  /** What the relevance model has learned (the strategy's snapshot: C_HR's RDF parents for fc-r+hr). */
  learned(): unknown;
}

/** What the operator asked for since the crawler last looked. */
export interface ControlRequests {
  seeds: string[];
  blocked: string[];
}

/**
 * Commands from an operator to one crawl run. The crawler consults it in its run loop: while paused it starts no
 * fetch (those in flight finish and are committed); `stop()` ends the run like an interrupt (nothing in flight is
 * lost: it stays queued); seeds and blocks are taken at the next loop turn. Listeners hear every change.
 */
export class CrawlControl {
  #paused = false;
  readonly #stop = new AbortController();
  #seeds: string[] = [];
  #newBlocks: string[] = [];
  readonly #blocked = new Set<string>();
  readonly #listeners = new Set<(event: string) => void>();
  /** Set by the crawler while it runs; null before. */
  view: CrawlView | null = null;

  get paused(): boolean {
    return this.#paused;
  }

  /** Aborts when `stop()` is called. */
  get stopSignal(): AbortSignal {
    return this.#stop.signal;
  }

  get blocked(): ReadonlySet<string> {
    return this.#blocked;
  }

  isBlocked(pld: string): boolean {
    return this.#blocked.has(pld);
  }

  pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    this.#notify('paused');
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#notify('resumed');
  }

  /** Ends the run cleanly: in-flight fetches are not committed and stay queued for a resume. */
  stop(): void {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort();
    this.#paused = false;
    this.#notify('stopped');
  }

  /** Queues seed URLs (absolute http(s) URLs; their PLDs join the crawl's scope). Bad input throws and adds nothing. */
  addSeeds(urls: readonly string[]): string[] {
    const clean: string[] = [];
    for (const raw of urls) {
      const text = raw.trim();
      if (text === '') continue;
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        throw new ArgumentError(`Not an absolute URL: "${text}". Give seeds as http(s) URLs.`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ArgumentError(`Only http(s) seeds can be crawled, not "${text}".`);
      clean.push(url.href);
    }
    if (clean.length === 0) throw new ArgumentError('No seed given.');
    this.#seeds.push(...clean);
    this.#notify('seeds');
    return clean;
  }

  /** Blocks a PLD (a URL or a host is reduced to its PLD): nothing more is fetched from it in this run. */
  blockPld(nameOrUrl: string): string {
    const text = nameOrUrl.trim();
    if (text === '') throw new ArgumentError('Give the PLD to block, e.g. example.org.');
    const pld = pldOf(text.includes('://') ? text : `http://${text}/`);
    if (!this.#blocked.has(pld)) {
      this.#blocked.add(pld);
      this.#newBlocks.push(pld);
    }
    this.#notify('blocked');
    return pld;
  }

  /** Whether seeds or blocks wait to be taken (a cheap check the crawler makes on every loop turn). */
  get hasRequests(): boolean {
    return this.#seeds.length > 0 || this.#newBlocks.length > 0;
  }

  /** The crawler takes what was asked since its last call. */
  take(): ControlRequests {
    const out = { seeds: this.#seeds, blocked: this.#newBlocks };
    this.#seeds = [];
    this.#newBlocks = [];
    return out;
  }

  /** Calls `listener(event)` on every change (the crawler's idle wait ends on one); returns the unsubscribe function. */
  onChange(listener: (event: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(event: string): void {
    for (const l of [...this.#listeners]) l(event);
  }
}
