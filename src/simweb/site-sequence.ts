// **siteSequence**: X(i, 1), X(i, 2), … of one simulated site — the reward of each fetch in breadth-first order (BeeBot §3).
import { truthForUrl } from './truth.ts';
import type { TruthRecord } from './types.ts';
import { linksOf, type WebModel } from './web.ts';

/** What `siteSequence` reads of a web: a served `SimWeb` or a bare `WebModel` (no server) both fit. */
export interface SequenceSource {
  truthFor(url: string): ReturnType<typeof truthForUrl>;
  links(url: string): string[];
}

/** A bare web model as a `SequenceSource` (no HTTP server needed for a replay). */
export function modelSource(model: WebModel): SequenceSource {
  return { truthFor: (url) => truthForUrl(model, url), links: (url) => linksOf(model, url) };
}

/** What one fetch earns, read from the fetched URL's truth. */
export type RewardOf = (truth: TruthRecord) => number;

/** BeeBot's reward: the external links on the page. */
export const externalLinksOf: RewardOf = (t) => t.externalLinks ?? 0;

/** The thesis's reward: 1 for an RDF document. */
export const rdfDocumentOf: RewardOf = (t) => (t.label === 'R' && t.status === 200 ? 1 : 0);

/**
 * The reward of each fetch of one site in breadth-first order, from the graph, with BeeBot's semantics: external
 * links are counted, never crawled; depth ≤ `maxDepth`; redirects followed; robots-disallowed pages skipped.
 */
export function siteSequence(web: SequenceSource, start: string, maxDepth: number, budget: number, rewardOf: RewardOf = externalLinksOf): number[] {
  const host = new URL(start).hostname;
  const seen = new Set<string>([start]);
  const queue: Array<{ url: string; depth: number }> = [{ url: start, depth: 0 }];
  const rewards: number[] = [];
  for (let i = 0; i < queue.length && rewards.length < budget; i++) {
    const { url, depth } = queue[i]!;
    let final = url;
    let truth = web.truthFor(final);
    for (let hop = 0; hop < 5 && truth?.redirectTo !== undefined; hop++) {
      final = truth.redirectToHtml ?? truth.redirectTo;
      seen.add(final);
      truth = web.truthFor(final);
    }
    if (truth?.disallowed) continue;
    rewards.push(truth ? rewardOf(truth) : 0);
    if (depth >= maxDepth) continue;
    for (const link of web.links(final)) {
      if (new URL(link).hostname !== host || seen.has(link)) continue;
      seen.add(link);
      queue.push({ url: link, depth: depth + 1 });
    }
  }
  return rewards;
}
