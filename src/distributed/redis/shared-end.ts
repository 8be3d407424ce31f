// **readSharedEnd**: the shared counters a crawl's end is decided from, read in one step (MULTI) from Redis.
import type { Redis } from 'ioredis';
import { type SharedReading, sharedStopReason, type StopReason } from '../../crawl-log/tally.ts';
import { RdfscoutError } from '../../errors.ts';

/** The budgets the end depends on (`--max-docs`, `--max-docs-per-pld`; Infinity: none). */
export interface EndLimits {
  maxDocs: number;
  maxDocsPerPld: number;
}

/** The field of `P stat` counting links dropped by `--max-depth` (any worker adds to it before its release). */
export const DEPTH_FIELD = 'depth';

/**
 * Reads the counters (queued, in flight, spent, depth-dropped) and each PLD's queued and spent counts in one MULTI,
 * so they are of one instant. O(PLDs with work): read when a worker is idle or `status` asks, not on every fetch.
 */
async function readShared(client: Redis, prefix: string, limits: EndLimits): Promise<SharedReading> {
  const replies = (await client.multi().hmget(`${prefix}stat`, 'queued', 'inflight', 'spent', DEPTH_FIELD).hgetall(`${prefix}pq`).hgetall(`${prefix}ps`).exec()) ?? [];
  const values = replies.map(([err, value]) => {
    if (err) throw new RdfscoutError('RDFSCOUT_REDIS_FAILED', `Redis refused to read the shared counters: ${err.message}`, { cause: err });
    return value;
  });
  const [stat, pq, ps] = values as [Array<string | null>, Record<string, string>, Record<string, string>];
  let blockedQueued = 0;
  for (const [pld, n] of Object.entries(pq)) {
    if (Number(ps[pld] ?? 0) >= limits.maxDocsPerPld) blockedQueued += Number(n);
  }
  const [queued, inFlight, spent, depthDropped] = stat.map((v) => Number(v ?? 0)) as [number, number, number, number];
  return { queued, inFlight, spent, depthDropped, blockedQueued };
}

/** Whether the shared crawl is over for every worker, and why (null: not over). */
export async function readSharedEnd(client: Redis, prefix: string, limits: EndLimits): Promise<StopReason | null> {
  return sharedStopReason(await readShared(client, prefix, limits), limits.maxDocs);
}
