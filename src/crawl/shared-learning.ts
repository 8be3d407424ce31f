// **SharedLearning**: what every worker of a shared crawl learned, replayed from the shared log into this worker's strategy and bandit (issue 15).
import type { BanditPolicy } from '../bandit/types.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { CrawlRegistry } from '../redis/crawl-registry.ts';
import type { FetchedDocument, Strategy } from '../relevance/types.ts';
import { toFetchedDocument } from './restore-crawl.ts';

/** One entry of the log: the learning input of a fetch (thesis §5) and its bandit reward (BeeBot §3). */
interface LearnedEntry {
  w: string;
  pld: string;
  reward: number;
  doc: FetchedDocument;
}

/**
 * The relevance model (C_HR(t) and the other learned counts) is a function of the fetched documents, and the
 * bandit's arm statistics of the rewards: each applied fetch appends its learning input to the shared log, in the
 * script that releases its lease (so a refused release teaches nothing, and none teaches twice). Each worker learns
 * from its own fetches at once and from the others' when it reads the log: at start (all of it), then every
 * `refreshMs` (default 500 ms) — the freshness of its view of what the others learned. The seed PLDs that other
 * workers added (the scope) are read with it.
 */
export class SharedLearning {
  readonly #registry: CrawlRegistry;
  readonly #worker: string;
  readonly #strategy: Strategy;
  readonly #policy: BanditPolicy | null;
  readonly #refreshMs: number;
  #cursor = 0;
  #lastRead = 0;
  #reading: Promise<void> | null = null;

  /** The crawl's seed PLDs (its scope), kept up to date with those of every worker. */
  readonly #seedPlds: Set<string>;

  constructor(o: { registry: CrawlRegistry; worker: string; strategy: Strategy; policy: BanditPolicy | null; seedPlds: Set<string>; refreshMs?: number }) {
    this.#seedPlds = o.seedPlds;
    this.#registry = o.registry;
    this.#worker = o.worker;
    this.#strategy = o.strategy;
    this.#policy = o.policy;
    this.#refreshMs = o.refreshMs ?? 500;
  }

  /** The log entry of a fetch by this worker (sent with its release). */
  entry(record: CrawlRecord, reward: number): string {
    const e: LearnedEntry = { w: this.#worker, pld: record.pld, reward, doc: toFetchedDocument(record) };
    return JSON.stringify(e);
  }

  /** Reads and applies the log entries appended since the last read (other workers' fetches; this worker's are applied already). */
  async catchUp(): Promise<number> {
    let applied = 0;
    for (const pld of await this.#registry.seedPlds()) this.#seedPlds.add(pld);
    for (;;) {
      const batch = await this.#registry.learnedSince(this.#cursor);
      if (batch.length === 0) break;
      this.#cursor += batch.length;
      for (const raw of batch) {
        const e = JSON.parse(raw) as LearnedEntry;
        if (e.w === this.#worker) continue;
        this.#strategy.learn(e.doc);
        this.#policy?.update(e.pld, e.reward);
        applied++;
      }
    }
    this.#lastRead = Date.now();
    return applied;
  }

  /** Starts a read in the background when the last one is older than `refreshMs` (one at a time). */
  refresh(): void {
    if (this.#reading !== null || Date.now() - this.#lastRead < this.#refreshMs) return;
    this.#reading = this.catchUp()
      .then(() => undefined)
      .finally(() => {
        this.#reading = null;
      });
  }

  /** Waits for a read under way (errors included). */
  async settled(): Promise<void> {
    await this.#reading;
  }
}
