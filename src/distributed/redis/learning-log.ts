// **LearningLog**: the shared learning log in Redis — read by position, folded into a snapshot and trimmed once every live worker has read it.
import type { Redis } from 'ioredis';
import { type RunScript, redisScript } from './script.ts';

/**
 * Keys under the crawl's prefix P: `P log` LIST of entries (appended by the release script, queue-scripts.ts);
 * `P log:base` how many entries were folded away (the absolute position of the list's first entry);
 * `P log:snap` the snapshot of what those entries taught (JSON, written by the worker that folded);
 * `P log:pos` HASH worker → `position TAB time`: how far each worker has read, and when it last read (Redis's clock).
 */
const KEYS = (prefix: string) => [`${prefix}log`, `${prefix}log:base`, `${prefix}log:snap`, `${prefix}log:pos`];

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Read. ARGV: worker, from (absolute position), max, skip (a prefix, '' for none). Records the worker's position.
 * Returns {base, 'snap', snapshot} when `from` was folded away (the reader restores the snapshot and reads on from
 * base), else {base, 'log', n, e1, e2, …}: n entries from `from` on were read (at most max; the worker's position
 * moves past them), of which those starting with `skip` are left out of the answer — a worker's own entries, which
 * it learned from when it fetched (CPU per page; they are neither sent nor parsed again).
 */
const READ_LUA = `${NOW}
local worker, from, max, skip = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4] or ''
local base = tonumber(redis.call('GET', KEYS[2]) or '0')
if from < base then
  redis.call('HSET', KEYS[4], worker, base .. '\\t' .. now)
  return {base, 'snap', redis.call('GET', KEYS[3]) or ''}
end
local entries = redis.call('LRANGE', KEYS[1], from - base, from - base + max - 1)
redis.call('HSET', KEYS[4], worker, (from + #entries) .. '\\t' .. now)
local out = {base, 'log', #entries}
local n, k = 3, #skip
for i = 1, #entries do
  local e = entries[i]
  if k == 0 or string.sub(e, 1, k) ~= skip then n = n + 1; out[n] = e end
end
return out
`;

/**
 * Fold. ARGV: expected base, new base, snapshot, stale-after ms, the folding worker. Applies only if the base is still
 * the expected one (another worker did not fold meanwhile) and no worker that read within stale-after ms (or the
 * folding one) is behind the new base: stores the snapshot, drops the folded entries (LTRIM) and forgets workers
 * silent for longer. Returns 1 or 0.
 */
const FOLD_LUA = `${NOW}
local expected, new_base, stale, self = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4]), ARGV[5]
local base = tonumber(redis.call('GET', KEYS[2]) or '0')
if base ~= expected or new_base <= base then return 0 end
local all = redis.call('HGETALL', KEYS[4])
for i = 1, #all, 2 do
  local pos, at = string.match(all[i + 1], '^(%d+)\\t(%d+)$')
  if all[i] ~= self and tonumber(at) < now - stale then redis.call('HDEL', KEYS[4], all[i])
  elseif tonumber(pos) < new_base then return 0 end
end
redis.call('SET', KEYS[3], ARGV[3])
redis.call('LTRIM', KEYS[1], new_base - base, -1)
redis.call('SET', KEYS[2], new_base)
return 1
`;

/**
 * Foldable. ARGV: stale-after ms, the asking worker. Returns {base, list length, the smallest position of the workers
 * that read within stale-after ms and of the asking one (-1: none), snapshot}: a fold may cover [base, that position).
 */
const FOLDABLE_LUA = `${NOW}
local stale, self = tonumber(ARGV[1]), ARGV[2]
local base = tonumber(redis.call('GET', KEYS[2]) or '0')
local low = -1
local all = redis.call('HGETALL', KEYS[4])
for i = 1, #all, 2 do
  local pos, at = string.match(all[i + 1], '^(%d+)\\t(%d+)$')
  if (all[i] == self or tonumber(at) >= now - stale) and (low < 0 or tonumber(pos) < low) then low = tonumber(pos) end
end
return {base, redis.call('LLEN', KEYS[1]), low, redis.call('GET', KEYS[3]) or ''}
`;

/** What a read returns: entries from the position asked, or the snapshot that replaced them. */
export type LogRead =
  | { kind: 'entries'; base: number; /** Entries read (the position moved by this many). */ read: number; entries: string[] }
  | { kind: 'snapshot'; base: number; snapshot: string | null };

/** What may be folded now: entries [base, upTo) have been read by every live worker. */
export interface Foldable {
  base: number;
  /** Entries in the list (not folded yet). */
  length: number;
  /** The smallest position among live readers (base when none read yet). */
  upTo: number;
  snapshot: string | null;
}

/**
 * The shared learning log of one crawl: entries are appended by the release script; each worker reads from its own
 * position (recorded in Redis with the time); any worker may fold the entries every live worker has read into a
 * snapshot and trim them, so the log's size is bounded by the slowest live reader's lag, not by the fetches.
 */
export class LearningLog {
  readonly #keys: string[];
  readonly #read: RunScript;
  readonly #fold: RunScript;
  readonly #foldable: RunScript;
  readonly #client: Redis;

  /** `prefix`: the crawl's key prefix (`CrawlKeys.prefix`). */
  constructor(client: Redis, prefix: string) {
    this.#client = client;
    this.#keys = KEYS(prefix);
    this.#read = redisScript(client, 'rdfscoutLogRead', READ_LUA);
    this.#fold = redisScript(client, 'rdfscoutLogFold', FOLD_LUA);
    this.#foldable = redisScript(client, 'rdfscoutLogFoldable', FOLDABLE_LUA);
  }

  /**
   * Reads up to `max` entries from absolute position `from` for `worker`, and records how far it has read. Entries
   * that start with `skip` (non-empty) are read but left out of `entries`.
   */
  async read(worker: string, from: number, max = 10_000, skip = ''): Promise<LogRead> {
    const r = (await this.#read(this.#keys, [worker, from, max, skip])) as Array<string | number>;
    const base = Number(r[0]);
    if (r[1] === 'snap') return { kind: 'snapshot', base, snapshot: r[2] === '' ? null : String(r[2]) };
    return { kind: 'entries', base, read: Number(r[2]), entries: r.slice(3).map(String) };
  }

  /** What `worker` may fold now (readers silent for `staleAfterMs` are not waited for; `worker` always counts). */
  async foldable(worker: string, staleAfterMs: number): Promise<Foldable> {
    const r = (await this.#foldable(this.#keys, [staleAfterMs, worker])) as Array<string | number>;
    const base = Number(r[0]);
    const low = Number(r[2]);
    return { base, length: Number(r[1]), upTo: low < 0 ? base : low, snapshot: r[3] === '' ? null : String(r[3]) };
  }

  /** Entries [from, to) by absolute position (for a fold; the caller read `base` from `foldable`). */
  async range(base: number, from: number, to: number): Promise<string[]> {
    if (to <= from) return [];
    return this.#client.lrange(this.#keys[0] as string, from - base, to - base - 1);
  }

  /** `worker` replaces entries [expectedBase, newBase) with `snapshot`; false when another fold came first or a reader is behind. */
  async fold(worker: string, expectedBase: number, newBase: number, snapshot: string, staleAfterMs: number): Promise<boolean> {
    return (await this.#fold(this.#keys, [expectedBase, newBase, snapshot, staleAfterMs, worker])) === 1;
  }

  /** Entries ever appended (folded ones included). */
  async total(): Promise<number> {
    const [base, length] = await Promise.all([this.#client.get(this.#keys[1] as string), this.#client.llen(this.#keys[0] as string)]);
    return Number(base ?? 0) + length;
  }

  /** Bytes Redis uses for the log, its snapshot and the readers' positions (MEMORY USAGE), for the README's figures. */
  async bytes(): Promise<number> {
    let sum = 0;
    for (const key of this.#keys) sum += Number((await this.#client.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
    return sum;
  }
}
