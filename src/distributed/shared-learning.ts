// **SharedLearning**: what every worker of a shared crawl learned, replayed from the shared log into this worker's strategy and bandit.
import type { BanditPolicy } from '../bandit/types.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { CrawlRegistry } from './redis/crawl-registry.ts';
import type { LearningLog } from './redis/learning-log.ts';
import type { FetchedDocument, Strategy } from '../relevance/types.ts';
import { toFetchedDocument } from '../crawl/restore-crawl.ts';
import { ANSWERED_ORIGINS, RecentOrigins } from '../crawl/recent-origins.ts';

/** One entry of the log: the learning input of a fetch (thesis §5) and its bandit reward (BeeBot §3). */
interface LearnedEntry {
  w: string;
  pld: string;
  reward: number;
  doc: FetchedDocument;
}

/**
 * What a fold stores: the state of a fresh strategy and bandit that learned every folded entry, in log order, and the
 * last origins that answered among them (`answered`, most recent last; absent in snapshots of older versions).
 */
interface LogSnapshot {
  strategy: unknown;
  policy: unknown;
  answered?: string[];
}

/** A strategy and a bandit as a new crawl makes them (what the log's entries are replayed into). */
export interface Learners {
  strategy: Strategy;
  policy: BanditPolicy | null;
}

/** Options of {@link SharedLearning}. */
export interface SharedLearningOptions extends Learners {
  registry: CrawlRegistry;
  worker: string;
  /** The crawl's seed PLDs (its scope), kept up to date with those of every worker. */
  seedPlds: Set<string>;
  /** Fresh learners of this crawl's options, for folding the log. */
  fresh: () => Learners;
  /** Time between two reads of the others' entries (ms). Default: 500. */
  refreshMs?: number;
  /** Entries read by every live worker that make a fold worth it. Default: 1000. */
  foldEvery?: number;
  /** A worker that has not read the log for this long is not waited for by a fold (ms). Default: 90 000 (3 × --lease-ms). */
  staleAfterMs?: number;
}

/**
 * The relevance model (C_HR(t) and the other learned counts) is a function of the fetched documents, and the
 * bandit's arm statistics of the rewards: each applied fetch appends its learning input to the shared log, in the
 * script that releases its lease (so a refused release teaches nothing, and none teaches twice). Each worker learns
 * from its own fetches at once and from the others' when it reads the log: at start (all of it), then every
 * `refreshMs` (default 500 ms) — the freshness of its view of what the others learned. The seed PLDs that other
 * workers added (the scope) are read with it.
 *
 * The log stays small: once every live worker has read `foldEvery` entries past the last fold, a worker
 * replays them into fresh learners started from the last snapshot, stores their state as the new snapshot and trims
 * the entries (LearningLog). A worker that joins later — or one that was silent longer than `staleAfterMs` and
 * finds its position folded away — restores the snapshot and reads the rest: the same view as replaying the whole
 * log. (A worker that resyncs that way loses the local learning of its fetches whose release was still on its way.)
 */
export class SharedLearning {
  readonly #o: Required<Omit<SharedLearningOptions, 'seedPlds'>>;
  readonly #log: LearningLog;
  #cursor = 0;
  #lastRead = 0;
  #reading: Promise<void> | null = null;
  /** The first failure of a background read (refresh): kept for `settled()` and the coordinator, never unhandled. */
  #failure: unknown = null;
  readonly #seedPlds: Set<string>;
  /** How this worker's entries start (`entry` writes `w` first). */
  readonly #own: string;
  /** The last origins that answered the others' fetches (read from the log and its snapshot). */
  readonly #answered = new RecentOrigins(ANSWERED_ORIGINS);

  constructor(o: SharedLearningOptions) {
    const { seedPlds, refreshMs = 500, foldEvery = 1000, staleAfterMs = 90_000, ...rest } = o;
    this.#o = { ...rest, refreshMs, foldEvery, staleAfterMs };
    this.#seedPlds = seedPlds;
    this.#log = o.registry.log;
    this.#own = `{"w":${JSON.stringify(o.worker)},`;
  }

  /** The log entry of a fetch by this worker (sent with its release). */
  entry(record: CrawlRecord, reward: number): string {
    // `w` first: the entry starts with `#own`, which the log's reader leaves out for this worker.
    const e: LearnedEntry = { w: this.#o.worker, pld: record.pld, reward, doc: toFetchedDocument(record) };
    return JSON.stringify(e);
  }

  /**
   * Reads and applies the log entries appended since the last read (other workers' fetches; this worker's are applied
   * already), restoring the snapshot first when the entries it has not read were folded away; then folds the log if
   * enough was read by everyone. Returns the entries applied.
   */
  async catchUp(): Promise<number> {
    let applied = 0;
    let restored = false;
    for (const pld of await this.#o.registry.seedPlds()) this.#seedPlds.add(pld);
    for (;;) {
      // Its own entries were learned when it fetched: Redis leaves them out (unless a snapshot replaced that learning).
      const r = await this.#log.read(this.#o.worker, this.#cursor, undefined, restored ? '' : this.#own);
      if (r.kind === 'snapshot') {
        this.#answered.addOrigins(restoreLearners(this.#o, r.snapshot));
        this.#cursor = r.base;
        restored = true; // its own entries after the snapshot are in the log only now
        continue;
      }
      if (r.read === 0) break;
      this.#cursor += r.read;
      for (const raw of r.entries) {
        const e = JSON.parse(raw) as LearnedEntry;
        if (e.w === this.#o.worker && !restored) continue; // an entry written in another form (the prefix did not match)
        learnEntry(this.#o, e);
        if (e.doc.status !== null) this.#answered.add(e.doc.finalUrl);
        applied++;
      }
    }
    this.#lastRead = Date.now();
    // A fold only keeps the log small: one that fails (e.g. a snapshot written by another version) leaves the log
    // as it is — correct, only longer — and the crawl goes on.
    await this.#fold().catch(() => false);
    return applied;
  }

  /** Folds the entries every live worker has read into the snapshot, when there are `foldEvery` of them. */
  async #fold(): Promise<boolean> {
    const f = await this.#log.foldable(this.#o.worker, this.#o.staleAfterMs);
    if (f.upTo - f.base < this.#o.foldEvery) return false;
    const learners = this.#o.fresh();
    const answered = new RecentOrigins(ANSWERED_ORIGINS);
    answered.addOrigins(restoreLearners(learners, f.snapshot));
    for (const raw of await this.#log.range(f.base, f.base, f.upTo)) {
      const e = JSON.parse(raw) as LearnedEntry;
      learnEntry(learners, e);
      if (e.doc.status !== null) answered.add(e.doc.finalUrl);
    }
    const snapshot: LogSnapshot = { strategy: learners.strategy.snapshot(), policy: learners.policy?.snapshot() ?? null, answered: answered.list() };
    // Refused when another worker folded first or a reader fell behind meanwhile: the next read tries again.
    return this.#log.fold(this.#o.worker, f.base, f.upTo, JSON.stringify(snapshot), this.#o.staleAfterMs);
  }

  /** Starts a read in the background when the last one is older than `refreshMs` (one at a time). */
  refresh(): void {
    if (this.#reading !== null || Date.now() - this.#lastRead < this.#o.refreshMs) return;
    // Nobody awaits this read: a failure is kept (an unhandled rejection would end the worker's process at once).
    this.#reading = this.catchUp()
      .then(
        () => undefined,
        (err: unknown) => {
          this.#failure ??= err;
        },
      )
      .finally(() => {
        this.#reading = null;
      });
  }

  /**
   * The last origins (at most 16, most recent last) that gave an HTTP response to the other workers' fetches, as
   * read so far: probe targets for a worker that saw nothing answer yet (OriginHealth.answeredEarlier) — a new worker
   * whose first URLs are a dead host's would else take it for its network going down.
   */
  answeredOrigins(): string[] {
    return this.#answered.list();
  }

  /** The first failure of a background read so far (null: none). */
  get failure(): unknown {
    return this.#failure;
  }

  /** Waits for a read under way; throws the first failure of a background read. */
  async settled(): Promise<void> {
    await this.#reading;
    if (this.#failure !== null) throw this.#failure;
  }
}

function learnEntry(l: Learners, e: LearnedEntry): void {
  l.strategy.learn(e.doc);
  l.policy?.update(e.pld, e.reward);
}

/**
 * Replaces what `l` learned with a fold's snapshot (null: nothing folded yet, `l` is left as it is); returns the
 * origins that answered, as the snapshot keeps them.
 */
function restoreLearners(l: Learners, json: string | null): string[] {
  if (json === null) return [];
  const s = JSON.parse(json) as LogSnapshot;
  l.strategy.restore(s.strategy);
  if (s.policy !== null) l.policy?.restore(s.policy);
  return s.answered ?? [];
}
