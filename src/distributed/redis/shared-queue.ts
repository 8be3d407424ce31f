// **SharedQueue**: the crawl's frontier in Redis — per-PLD queues, claims under PLD leases, fetches finished with their release.
import type { Redis } from 'ioredis';
import { RdfscoutError } from '../../errors.ts';
import { splitFingerprint, urlFingerprint } from './fingerprint.ts';
import { type CrawlKeys, crawlKeys } from './keys.ts';
import { LEASE_KEY_NAMES } from './lease-scripts.ts';
import { PldLeases } from './pld-leases.ts';
import { QUEUE_ADD_LUA, QUEUE_CHANGES_LUA, QUEUE_CLAIM_LUA, QUEUE_FINISH_LUA, QUEUE_REQUEUE_LUA } from './queue-scripts.ts';
import { type RunScript, redisScript } from './script.ts';
import { SeenSet } from './seen-set.ts';
import { DEPTH_FIELD, type EndLimits, readSharedEnd } from './shared-end.ts';
import type { StopReason } from '../../crawl-log/tally.ts';

/** Options of {@link SharedQueue}: crawl options every worker shares, and this worker's id. */
export interface SharedQueueOptions {
  crawl: string;
  worker: string;
  /** Leases per PLD across the cluster (`--host-concurrency`). */
  hostConcurrency: number;
  /** Politeness between two lease starts on a PLD (`--delay-ms`). */
  delayMs: number;
  /** A lease not renewed for this long is reclaimed (`--lease-ms`). */
  leaseMs: number;
  /** Seen-set bucket bits (`bucketBitsFor`). */
  bucketBits: number;
}

export type { QueueAdd, QueueEntry, QueueView, QueueStat, QueueAnswer, ClaimBatch, ClaimResult, FinishInfo, ClaimOutcome, FinishResult, ClaimLimits } from './queue-types.ts';
import type { QueueAdd, QueueEntry, QueueAnswer, Claim, Refusal, ClaimBatch, ClaimResult, FinishInfo, ClaimOutcome, FinishResult, ClaimLimits } from './queue-types.ts';

const BIG = 2 ** 53;

/**
 * The shared frontier's Redis side, one per worker. Every operation is one Lua script, atomic on the server: an
 * entry is claimed together with a lease on its PLD (so it is in flight under that lease), and finished together
 * with the lease's release, its links, its budget and its learning; if the lease was lost meanwhile nothing is
 * applied (`stale`). `requeueOrphans` puts back what reclaimed leases held.
 */
export class SharedQueue {
  readonly keys: CrawlKeys;
  readonly leases: PldLeases;
  /** The crawl's seen set (the scripts add to it; `has` reads it). */
  readonly seen: SeenSet;
  readonly #o: SharedQueueOptions;
  readonly #client: Redis;
  readonly #leaseKeys: string[];
  readonly #add: RunScript;
  readonly #claim: RunScript;
  readonly #finish: RunScript;
  readonly #requeue: RunScript;
  readonly #changes: RunScript;

  constructor(client: Redis, o: SharedQueueOptions) {
    this.#o = o;
    this.#client = client;
    this.keys = crawlKeys(o.crawl);
    this.leases = new PldLeases(client, { crawl: o.crawl, worker: o.worker, hostConcurrency: o.hostConcurrency, delayMs: o.delayMs, leaseMs: o.leaseMs });
    this.seen = new SeenSet(client, { crawl: o.crawl, bucketBits: o.bucketBits });
    this.#leaseKeys = LEASE_KEY_NAMES.map((name) => this.keys[name]);
    this.#add = redisScript(client, 'rdfscoutQueueAdd', QUEUE_ADD_LUA);
    this.#claim = redisScript(client, 'rdfscoutQueueClaim', QUEUE_CLAIM_LUA);
    this.#finish = redisScript(client, 'rdfscoutQueueFinish', QUEUE_FINISH_LUA);
    this.#requeue = redisScript(client, 'rdfscoutQueueRequeue', QUEUE_REQUEUE_LUA);
    this.#changes = redisScript(client, 'rdfscoutQueueChanges', QUEUE_CHANGES_LUA);
  }

  get worker(): string {
    return this.#o.worker;
  }

  /** Queues links not seen before (re-prioritises queued ones found more urgent); for each, whether it was new. */
  async add(entries: readonly QueueAdd[], now: number): Promise<{ fresh: boolean[] } & QueueAnswer> {
    const args: Array<string | number> = [this.keys.prefix, this.#o.hostConcurrency, now];
    for (const e of entries) args.push(this.#addArg(e));
    const r = (await this.#add(this.#leaseKeys, args)) as Reply;
    return { fresh: (r[1] as number[]).map((v) => v === 1), ...answer(r) };
  }

  /** Claims the most urgent due entry of the first ready candidate PLD (none: any ready PLD), with a lease on it. */
  async claim(candidates: readonly string[], now: number, limits: ClaimLimits): Promise<ClaimResult> {
    const { kind, claims, refused: _refused, ...rest } = await this.claimMany(candidates, 1, now, limits);
    const first = claims[0];
    return first === undefined ? { kind: kind === 'budget' ? 'budget' : 'none', ...rest } : { kind: 'ok', ...first, ...rest };
  }

  /**
   * Claims up to `want` entries in one script: on each ready candidate PLD in turn (none given: any ready PLD), its
   * most urgent due entry with a lease on the PLD. Refused candidates come back with how long they may wait.
   */
  async claimMany(candidates: readonly string[], want: number, now: number, limits: ClaimLimits): Promise<ClaimBatch> {
    const { worker, hostConcurrency, leaseMs, delayMs } = this.#o;
    const args = [this.keys.prefix, worker, hostConcurrency, leaseMs, delayMs, now, cap(limits.maxDocs), cap(limits.maxDocsPerPld), want, ...candidates];
    const r = (await this.#claim(this.#leaseKeys, args)) as Reply;
    return { ...claimOutcome([r[0], r[1], r[4]]), ...answer(r) };
  }

  /**
   * Ends a fetch with its lease (see QUEUE_FINISH_LUA), and claims what `f.claim` asks for in the same script;
   * `stale` when the lease was lost: nothing was applied nor claimed.
   */
  async finish(f: FinishInfo): Promise<FinishResult> {
    const aliases = f.aliases ?? [];
    const candidates = f.claim?.candidates ?? [];
    const limits = f.claim?.limits ?? { maxDocs: 0, maxDocsPerPld: 0 };
    const { leaseMs, delayMs } = this.#o;
    const args: Array<string | number> = [
      this.keys.prefix, this.#o.worker, this.#o.hostConcurrency, Math.ceil(f.waitMs), f.token, 3_600_000, f.token, hex(urlFingerprint(f.url)), f.mode,
      f.spent ? 1 : 0, f.rdf, f.notBefore ?? 0, f.now, f.log ?? '', aliases.length,
      f.requeueAs === undefined ? '' : String(f.requeueAs.priority), f.requeueAs?.attempts ?? '', f.requeueAs === undefined ? '' : `${f.url}\t${f.requeueAs.json}`,
      candidates.length, cap(limits.maxDocs), cap(limits.maxDocsPerPld), leaseMs, delayMs, ...candidates,
    ];
    for (const a of aliases) {
      const { fp, key, member } = this.#place(a.url);
      args.push(fp, a.pld, key, member);
    }
    for (const e of f.adds ?? []) args.push(this.#addArg(e));
    // Before the script on the same connection: once its release is seen, so are the links it dropped.
    if ((f.depthDropped ?? 0) > 0) void this.#client.hincrby(`${this.keys.prefix}stat`, DEPTH_FIELD, f.depthDropped as number).catch(() => {});
    const r = (await this.#finish(this.#leaseKeys, args)) as Reply;
    const kind = String(r[0]);
    if (kind === 'ok') return { kind, added: Number((r[1] as number[])[0]), claimed: claimOutcome((r[4] ?? ['none', [], []]) as unknown[]), ...answer(r) };
    if (kind === 'already') return { kind, claimed: r[4] === undefined ? null : claimOutcome(r[4] as unknown[]), ...answer(r) };
    return { kind: 'stale', claimed: null, ...answer(r) };
  }

  /** Whether the crawl is over for every worker, and why (null: not over; shared-end.ts). */
  async end(limits: EndLimits): Promise<StopReason | null> {
    return readSharedEnd(this.#client, this.keys.prefix, limits);
  }

  /** Ends expired leases and those of dead workers, and puts back what they held. Any worker may call it. */
  async reclaim(): Promise<{ requeued: number } & QueueAnswer> {
    await this.leases.reclaim();
    const r = (await this.#requeue(this.#leaseKeys, [this.keys.prefix, this.#o.hostConcurrency])) as Reply;
    return { requeued: Number((r[1] as number[])[0]), ...answer(r) };
  }

  /**
   * The counters and the PLDs changed since version `since` (-1: every PLD with work), with the version they are
   * of: a worker passes it back next time, and so re-reads only what changed (Redis operations per page).
   */
  async changes(since: number): Promise<{ ver: number } & QueueAnswer> {
    const r = (await this.#changes(this.#leaseKeys, [this.keys.prefix, since])) as Reply;
    return { ver: Number((r[1] as number[])[0]), ...answer(r) };
  }

  /**
   * Caps each PLD's queue held in Redis at `cap` entries (0: no cap); the rest waits in the PLD's overflow
   * (queue-overflow.ts). Kept unless a cap is set already (`force`: replace it). One value for the whole crawl.
   */
  async setQueueCap(cap: number, force = false): Promise<void> {
    if (!Number.isSafeInteger(cap) || cap < 0) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `A queue cap is a whole number ≥ 0, got ${cap}`);
    if (force) await this.#client.hset(`${this.keys.prefix}stat`, 'cap', cap);
    else await this.#client.hsetnx(`${this.keys.prefix}stat`, 'cap', cap);
  }

  /** Every queued entry of `pld` (due ones in queue order, then those waiting for a back-off, then its overflow). */
  async queuedOf(pld: string): Promise<Array<{ url: string; entry: QueueEntry }>> {
    const p = this.keys.prefix;
    const members = [...(await this.#client.zrange(`${p}q:${pld}`, '0', '-1')), ...(await this.#client.zrange(`${p}d:${pld}`, '0', '-1'))];
    const fps = members.map((m) => m.slice(15));
    const headers = fps.length === 0 ? [] : await this.#client.hmget(`${p}e`, ...fps);
    // The overflow's runs (queue-overflow.ts), each sorted: items are `FP TAB entry`.
    for (const id of await this.#client.zrange(`${p}o:${pld}`, '0', '-1')) {
      for (const item of await this.#client.lrange(`${p}r:${pld}:${id}`, '0', '-1')) headers.push(item.slice(item.indexOf('\t') + 1));
    }
    const out: Array<{ url: string; entry: QueueEntry }> = [];
    for (const h of headers) {
      if (h === null || h === undefined) continue;
      const entry = parseHeader(h);
      out.push({ url: entry.url, entry });
    }
    return out;
  }

  #place(url: string): { fp: string; key: string; member: string } {
    const fp = urlFingerprint(url);
    const { bucket, member } = splitFingerprint(fp, this.#o.bucketBits);
    return { fp: hex(fp), key: this.keys.seenBucket(bucket), member };
  }

  /** A link as the add and finish scripts take it: one argument (queue-scripts.ts `add_packed`; keys and PLDs hold no tab). */
  #addArg(e: QueueAdd): string {
    if (!Number.isFinite(e.priority)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Frontier priority must be a finite number, got ${e.priority} for ${e.url}`);
    if (e.json.includes('\t') || e.url.includes('\t')) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `A queued URL and its entry cannot hold a tab: ${e.url}`);
    const { fp, key, member } = this.#place(e.url);
    return `${fp}\t${e.pld}\t${key}\t${member}\t${e.priority}\t${e.url}\t${e.json}`;
  }
}

type Reply = [string, unknown, number[], Array<[string, number, number, string, number, string, number]>, unknown?];

function cap(n: number): number {
  return Number.isFinite(n) ? n : BIG;
}

/** A claim's kind, claims (`token, expiresAt, entry` triples) and refusals (`pld, wait` pairs) as the scripts answer them. */
function claimOutcome([kind, flat, list]: unknown[]): ClaimOutcome {
  const triples = (flat ?? []) as string[];
  const claims: Claim[] = [];
  for (let i = 0; i + 2 < triples.length; i += 3) {
    const entry = parseHeader(String(triples[i + 2]));
    claims.push({ token: String(triples[i]), expiresAt: Number(triples[i + 1]), url: entry.url, entry });
  }
  const pairs = (list ?? []) as string[];
  const refused: Refusal[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) refused.push({ pld: String(pairs[i]), waitMs: Number(pairs[i + 1]) < 0 ? null : Number(pairs[i + 1]) });
  const k = String(kind);
  return { kind: k === 'ok' || k === 'budget' ? k : 'none', claims, refused };
}

function answer(r: Reply): QueueAnswer {
  const s = r[2];
  return {
    stat: { queued: Number(s[0] ?? 0), inFlight: Number(s[1] ?? 0), done: Number(s[2] ?? 0), spent: Number(s[3] ?? 0), refetched: Number(s[4] ?? 0) },
    views: r[3].map((v) => ({
      pld: String(v[0]),
      queued: Number(v[1]),
      inFlight: Number(v[2]),
      headPriority: v[3] === 'inf' ? Number.POSITIVE_INFINITY : Number(v[3]),
      headSeq: Number(v[4]) < 0 ? Number.POSITIVE_INFINITY : Number(v[4]),
      backoffUntil: Number(v[5]) < 0 ? null : Number(v[5]),
      waiting: Number(v[6]),
    })),
  };
}

/** Parses an entry (`state TAB seq TAB priority TAB attempts TAB notBefore TAB lost TAB url TAB json`). */
function parseHeader(h: string): QueueEntry {
  const [state, seq, priority, attempts, notBefore, lost, url] = h.split('\t', 7);
  const json = h.split('\t').slice(7).join('\t');
  return { state: state as QueueEntry['state'], seq: Number(seq), priority: Number(priority), attempts: Number(attempts), notBefore: Number(notBefore), lost: lost === '1', url: url ?? '', json };
}

/** A URL's fingerprint as the queue names its entry: 16 hex digits. */
function hex(fp: bigint): string {
  return fp.toString(16).padStart(16, '0');
}
