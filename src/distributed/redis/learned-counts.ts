// **Learned counts**: add-only increments of what workers learn (C_HR counts, bandit arm sums), applied with a lease release.
import type { Redis } from 'ioredis';
import { RdfscoutError } from '../../errors.ts';
import type { CrawlKeys } from './keys.ts';

/**
 * One increment: `table` names a hash of counts (e.g. `hr` for the thesis's C_HR, `arms` for the bandit's sums),
 * `field` an entry in it. Counts are only ever added to, so increments from any worker commute.
 */
export interface CountIncrement {
  table: string;
  field: string;
  /** A finite number ≥ 0, added with HINCRBYFLOAT (whole sums stay exact up to 2^53 and beyond: Redis uses long double). */
  by: number;
}

const TABLE = /^[a-z0-9][a-z0-9-]{0,31}$/;

/**
 * Checks increments before they are sent: tables are short lower-case names and every `by` is finite and ≥ 0.
 * @throws RdfscoutError `RDFSCOUT_INVALID_ARGUMENT` naming the first bad increment (nothing is applied).
 */
function checkIncrements(increments: readonly CountIncrement[]): void {
  for (const inc of increments) {
    if (!TABLE.test(inc.table)) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `A count table is 1–32 of a-z, 0-9 and '-' (got ${JSON.stringify(inc.table)})`);
    }
    if (!Number.isFinite(inc.by) || inc.by < 0) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Learned counts are add-only: ${inc.table}/${inc.field} cannot change by ${inc.by}`);
    }
  }
}

/**
 * The script's part of a release: the count tables as extra KEYS (from index `firstKey`, 1-based) and one
 * (key index, field, increment) triple per increment as ARGV.
 */
export function encodeIncrements(keys: CrawlKeys, increments: readonly CountIncrement[], firstKey: number): { keys: string[]; args: string[] } {
  checkIncrements(increments);
  const tables: string[] = [];
  const args: string[] = [];
  for (const inc of increments) {
    let at = tables.indexOf(inc.table);
    if (at < 0) at = tables.push(inc.table) - 1;
    args.push(String(firstKey + at), inc.field, String(inc.by)); // shortest form that reads back as the same double
  }
  return { keys: tables.map((t) => keys.counts(t)), args };
}

/** Every count of one table, as numbers. */
export async function readCounts(client: Redis, keys: CrawlKeys, table: string): Promise<Map<string, number>> {
  const raw = await client.hgetall(keys.counts(table));
  return new Map(Object.entries(raw).map(([field, value]) => [field, Number(value)]));
}
