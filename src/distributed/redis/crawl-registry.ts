// **CrawlRegistry**: a shared crawl's identity, learning log and progress in Redis: what workers join and `status` reads.
import type { Redis } from 'ioredis';
import { RdfscoutError } from '../../errors.ts';
import { type CrawlKeys, crawlKeys } from './keys.ts';
import type { StopReason } from '../../crawl-log/tally.ts';
import { LearningLog } from './learning-log.ts';
import { type EndLimits, readSharedEnd } from './shared-end.ts';

/** The name every shared crawl uses in its Redis database (one crawl per database: `redis://host:port/DB`). */
export const SHARED_CRAWL_NAME = 'crawl';

/** What the first worker stores and every later one reads: the crawl's options and its Redis settings. */
export interface SharedSettings {
  /** The crawl options (as `optionsToJson` writes them, without seeds or output folder). */
  options: Record<string, unknown>;
  /** Seen-set bucket bits. */
  bucketBits: number;
  /** Lease length, ms (`--lease-ms`). */
  leaseMs: number;
  /** Entries each PLD's queue holds in Redis; the rest wait in its overflow (absent in older crawls: the default). */
  queueCap?: number;
  /** When the crawl was created (ISO time). */
  created: string;
}

/** One worker's progress, as `status` prints it. */
interface WorkerStatus {
  worker: string;
  /** Heartbeat within the last heartbeat timeout (a dead worker is forgotten by the next reclaim). */
  alive: boolean;
  /** Epoch ms of its last heartbeat (Redis's clock), null once it was reclaimed. */
  lastSeen: number | null;
  fetched: number;
  rdfDocuments: number;
  refetched: number;
}

/** The shared progress of a crawl. */
export interface SharedStatus {
  created: string;
  queued: number;
  inFlight: number;
  /** Fetches applied that spent budget. */
  fetched: number;
  /** URLs finished (fetched, refused by robots, or done as another URL's alias). */
  done: number;
  refetched: number;
  /** Entries ever appended to the shared learning log (folded ones included). */
  learned: number;
  /** Why the crawl is over for every worker (what each worker's `stoppedBy` says), or null while it is not. */
  over: StopReason | null;
  workers: WorkerStatus[];
}

/** A shared crawl's registry in one Redis database. */
export class CrawlRegistry {
  readonly keys: CrawlKeys;
  /** The shared learning log (read by position, folded into a snapshot once every live worker has read it). */
  readonly log: LearningLog;
  readonly #client: Redis;

  constructor(client: Redis, name = SHARED_CRAWL_NAME) {
    this.#client = client;
    this.keys = crawlKeys(name);
    this.log = new LearningLog(client, this.keys.prefix);
  }

  /** The stored settings, or undefined when no crawl was created in this database. */
  async settings(): Promise<SharedSettings | undefined> {
    const raw = await this.#client.hget(`${this.keys.prefix}meta`, 'settings');
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as SharedSettings;
    } catch (cause) {
      throw new RdfscoutError('RDFSCOUT_REDIS_FAILED', `The shared crawl's settings in Redis are not JSON (${this.keys.prefix}meta): ${raw.slice(0, 80)}`, { cause });
    }
  }

  /** Stores `settings` unless a crawl exists already (atomic: of two first workers, one creates). Returns what is stored now. */
  async create(settings: SharedSettings): Promise<{ created: boolean; settings: SharedSettings }> {
    const created = (await this.#client.hsetnx(`${this.keys.prefix}meta`, 'settings', JSON.stringify(settings))) === 1;
    return { created, settings: created ? settings : ((await this.settings()) as SharedSettings) };
  }

  /** Replaces the stored settings (a shared budget changed once the crawl was over). */
  async replaceSettings(settings: SharedSettings): Promise<SharedSettings> {
    await this.#client.hset(`${this.keys.prefix}meta`, 'settings', JSON.stringify(settings));
    return settings;
  }

  /** Adds the PLDs of seeds (the crawl's scope, thesis §11: every worker judges links against all seeds' PLDs). */
  async addSeedPlds(plds: Iterable<string>): Promise<void> {
    const list = [...plds];
    if (list.length > 0) await this.#client.sadd(`${this.keys.prefix}seedplds`, ...list);
  }

  /** The PLDs of every seed given to any worker. */
  async seedPlds(): Promise<string[]> {
    return this.#client.smembers(`${this.keys.prefix}seedplds`);
  }

  /**
   * The shared progress, per worker and in total, read in one MULTI (so the totals and the per-worker counts are
   * of one instant: a fetch's release adds to both in one script). `heartbeatTimeoutMs`: how old a heartbeat may be
   * for a live worker.
   */
  async status(heartbeatTimeoutMs: number): Promise<SharedStatus | undefined> {
    const settings = await this.settings();
    if (settings === undefined) return undefined;
    const p = this.keys.prefix;
    for (let attempt = 0; ; attempt++) {
      // The worker list comes first; a worker that joins between this read and the MULTI makes it read again.
      const names = (await this.#client.smembers(`${p}wall`)).sort();
      const multi = this.#client.multi().hgetall(`${p}stat`).smembers(`${p}wall`).zrange(this.keys.workers, '0', '-1', 'WITHSCORES').get(`${p}log:base`).llen(`${p}log`).time();
      for (const worker of names) multi.hgetall(`${p}w:${worker}`);
      const replies = (await multi.exec()) ?? [];
      const values = replies.map(([err, value]) => {
        if (err) throw new RdfscoutError('RDFSCOUT_REDIS_FAILED', `Redis refused a status read: ${err.message}`, { cause: err });
        return value;
      });
      const [stat, wall, beats, base, length, time] = values as [Record<string, string>, string[], string[], string | null, number, [string, string]];
      const learned = Number(base ?? 0) + length; // entries ever appended, folded ones included (LearningLog.total)
      if (wall.length !== names.length && attempt < 5) continue; // workers are only ever added to `wall`
      const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
      const seen = new Map<string, number>();
      for (let i = 0; i + 1 < beats.length; i += 2) seen.set(String(beats[i]), Number(beats[i + 1]));
      const workers: WorkerStatus[] = names.map((worker, i) => {
        const w = values[6 + i] as Record<string, string>;
        const last = seen.get(worker) ?? null;
        return { worker, alive: last !== null && now - last < heartbeatTimeoutMs, lastSeen: last, fetched: Number(w.fetched ?? 0), rdfDocuments: Number(w.rdf ?? 0), refetched: Number(w.refetched ?? 0) };
      });
      const n = (k: string) => Number(stat[k] ?? 0);
      const over = await readSharedEnd(this.#client, p, budgetsOf(settings));
      return { created: settings.created, queued: n('queued'), inFlight: n('inflight'), fetched: n('spent'), done: n('done'), refetched: n('refetched'), learned, over, workers };
    }
  }
}

/** The shared budgets stored with the crawl (Infinity: none). */
function budgetsOf(settings: SharedSettings): EndLimits {
  const n = (v: unknown) => (v === undefined || v === 'Infinity' ? Number.POSITIVE_INFINITY : Number(v));
  return { maxDocs: n(settings.options.maxDocs), maxDocsPerPld: n(settings.options.maxDocsPerPld) };
}
