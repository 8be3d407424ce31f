// **failedEntries** lists the URLs whose last fetch failed as entries to queue again, for `--retry-failed`.
import { readRecords } from '../crawl-log/record-store.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { NewEntry } from '../frontier/types.ts';
import type { CrawlState } from '../state/open-state.ts';

/** The records whose URL's last fetch failed (a later fetch of the same URL that did not fail clears it). */
async function lastFailures(state: CrawlState): Promise<CrawlRecord[]> {
  const last = new Map<string, CrawlRecord>();
  for await (const r of readRecords(state)) last.set(r.url, r);
  return [...last.values()].filter((r) => r.outcome === 'failed');
}

/**
 * The URLs whose last fetch failed, as entries to queue again (same parent, depth and label; priority `priority`).
 * The frontier must forget them first (`openFrontier`'s `forget`), or it would refuse them as seen. Their old
 * records stay (one record per fetch).
 */
export async function failedEntries(state: CrawlState, priority: number): Promise<NewEntry[]> {
  const failed = await lastFailures(state);
  return failed.map((r) => ({ url: r.url, parent: r.parent, depth: r.depth, priority, label: r.label, rules: r.rules, link: null }));
}
