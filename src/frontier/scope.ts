// **isInScope** decides whether a discovered link may be crawled at all: the seeds' PLDs plus one hop out (thesis §11).
import { pldOf } from '../links/normalize-url.ts';

/**
 * Thesis §11: a link inside the seeds' PLDs is in scope; a link outside them is crawled only if the page it was
 * found on (its parent) is inside them — so the crawl leaves the seed PLDs by one hop and never further.
 * Seeds (`parentPld: null`) are in scope when their own PLD is a seed PLD.
 */
export function isInScope(link: { url: string; parentPld: string | null }, seedPlds: ReadonlySet<string>): boolean {
  if (seedPlds.has(pldOf(link.url))) return true;
  return link.parentPld !== null && seedPlds.has(link.parentPld);
}

/** The PLDs of the seed URLs, for `isInScope`. */
export function seedPldsOf(seedUrls: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const url of seedUrls) out.add(pldOf(url));
  return out;
}

/** Whether a link at `depth` (seeds are 0) may be queued under `maxDepth` (undefined or Infinity: no limit). */
export function isWithinDepth(depth: number, maxDepth: number | undefined): boolean {
  return maxDepth === undefined || depth <= maxDepth;
}
