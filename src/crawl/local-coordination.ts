// **localCoordination**: how a crawl run by one process is coordinated — its own frontier, its own records, no one to agree with.
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { CrawlSummary, CrawlTally, StopReason } from '../crawl-log/tally.ts';
import { type FrontierBackend, openFrontier } from '../frontier/index.ts';
import type { FrontierEntry } from '../frontier/types.ts';
import { type Coordination, type Coordinator, LOCAL_CLAIMS, type SendGate } from './coordinator.ts';
import { failedEntries } from './retry-failed.ts';

/** The Coordinator of a crawl run by one process: its tally counts every fetch, its scheduler spaces requests. */
class LocalCoordinator implements Coordinator {
  readonly claims = LOCAL_CLAIMS;
  readonly #tally: CrawlTally;

  constructor(tally: CrawlTally) {
    this.#tally = tally;
  }

  async gate(entry: FrontierEntry, _crawlDelayMs: number | null, own: SendGate): Promise<{ waitMs: number; at: number }> {
    return own.gate(entry);
  }

  async confirm(): Promise<boolean> {
    return true;
  }

  note(): void {}

  staged(_entry: FrontierEntry, record: CrawlRecord): void {
    this.#tally.add(record); // before the commit: budgets never count a fetch twice (it left the in-flight count)
  }

  async committed(): Promise<boolean> {
    return true;
  }

  async giveBack(): Promise<void> {}

  claimAhead(): void {}

  answeredElsewhere(): string[] {
    return [];
  }

  over(): StopReason | null {
    return null; // the loop's own end (nothing due, nothing to wake for) is the crawl's
  }

  idleWaitMs(): number | null {
    return null;
  }

  offlineDueAt(pausedUntil: number): number {
    return pausedUntil; // no one else fetches it meanwhile
  }

  stopReason(local: StopReason): StopReason {
    return local;
  }

  summarise(summary: CrawlSummary): CrawlSummary {
    return summary;
  }

  async settled(): Promise<void> {}

  async close(): Promise<void> {}
}

/**
 * The Coordination of a crawl run by one process (the default of `restoreCrawl` and `Crawler.open`): its frontier is
 * in its folder (`backend`: 'level', persistent, by default; 'memory' for re-parsing and tests), it needs seeds of
 * its own, and it rebuilds what it learned from its own records. `--retry-failed` queues again the URLs whose last
 * fetch failed (the frontier forgets them before it restores).
 */
export function localCoordination(o: { backend?: FrontierBackend } = {}): Coordination {
  return {
    requiresSeeds: true,
    replaysLearning: true,
    async openFrontier(state, options, { rejudge, seedPriority }) {
      const requeue = options.retryFailed ? await failedEntries(state, seedPriority) : [];
      const frontier = await openFrontier(state, {
        ...(o.backend === undefined ? {} : { backend: o.backend }),
        ...{ queues: options.queues, concurrency: options.concurrency, rdfShare: options.rdfShare, rejudge },
        forget: requeue.map((e) => e.url),
      });
      return { frontier, requeue };
    },
    async join(crawl) {
      return new LocalCoordinator(crawl.tally);
    },
    async close() {},
  };
}
