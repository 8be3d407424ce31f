// **forgetFailed** makes the URLs whose last fetch failed new again, so that `--retry-failed` queues them (issue 16 item 3).
import type { NewEntry } from '../frontier/types.ts';
import type { CrawlState } from '../state/open-state.ts';
import { readRecords } from './records.ts';
import type { CrawlRecord } from './types.ts';

/** The seen sets of the frontiers (one queue, or the two-queue variant's RDF side). */
const SEEN_SUBLEVELS = ['seen', 'seen-rdf'] as const;

/** The records whose URL's last fetch failed (a later fetch of the same URL that did not fail clears it). */
export async function lastFailures(state: CrawlState): Promise<CrawlRecord[]> {
  const last = new Map<string, CrawlRecord>();
  for await (const r of readRecords(state)) last.set(r.url, r);
  return [...last.values()].filter((r) => r.outcome === 'failed');
}

/**
 * Forgets, in the frontier's seen sets, the URLs whose last fetch failed, and returns them as entries to queue
 * again (same parent, depth and label; priority `priority`). Must run before the frontier is opened: the frontier
 * rebuilds its seen table from these sublevels. Their old records stay (one record per fetch).
 */
export async function forgetFailed(state: CrawlState, priority: number): Promise<NewEntry[]> {
  const failed = await lastFailures(state);
  if (failed.length === 0) return [];
  const urls = failed.map((r) => r.url);
  for (const name of SEEN_SUBLEVELS) {
    const sub = state.sub[name];
    const known = await sub.getMany(urls);
    const dels = urls.filter((_, i) => known[i] !== undefined).map((key) => ({ type: 'del' as const, key }));
    if (dels.length > 0) await sub.batch(dels);
  }
  return failed.map((r) => ({ url: r.url, parent: r.parent, depth: r.depth, priority, label: r.label, rules: r.rules, link: null }));
}
