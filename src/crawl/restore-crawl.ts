// **restoreCrawl** rebuilds everything a crawl knows from its state folder: options, learned state, tally, seeds.

import { createPolicy } from '../bandit/index.ts';
import type { BanditPolicy } from '../bandit/types.ts';
import { DualFrontier, LevelFrontier } from '../frontier/index.ts';
import type { FrontierEntry, NewEntry } from '../frontier/types.ts';
import { pldOf } from '../links/index.ts';
import { createStrategy, withPatternYield } from '../relevance/index.ts';
import type { FetchedDocument, Strategy } from '../relevance/types.ts';
import type { CrawlState } from '../state/open-state.ts';
import { loadBanditSnapshot } from './bandit-state.ts';
import { type ExplicitOptions, loadCrawlOptions, saveCrawlOptions } from './crawl-meta.ts';
import type { ResolvedCrawlOptions } from './options.ts';
import { lastSeq, readRecords } from './records.ts';
import { forgetFailed } from './retry-failed.ts';
import { type RefusedSeed, screenSeeds } from './seed-list.ts';
import { SimilarQueued } from './similar-queued.ts';
import { CrawlTally } from './summary.ts';
import type { CrawlRecord } from './types.ts';

/** The frontier of a crawl: one queue per PLD, or the thesis's two-queue variant. */
export type CrawlFrontier = LevelFrontier | DualFrontier;

/** What a crawl is made of when it starts or resumes. */
export interface RestoredCrawl {
  options: ResolvedCrawlOptions;
  resumed: boolean;
  frontier: CrawlFrontier;
  strategy: Strategy;
  policy: BanditPolicy | null;
  tally: CrawlTally;
  /** Seq of the last record (0 for a new crawl). */
  seq: number;
  /** PLDs of all seeds ever given (thesis §11 scope). */
  seedPlds: Set<string>;
  /** Queued H links by r1/r2 keys (for re-judging when C_HR learns a parent), rebuilt from the queued entries. */
  similar: SimilarQueued;
  /** Seeds given now but refused before any request (private address, localhost): not queued (issue 16 item 6). */
  refusedSeeds: RefusedSeed[];
}

/** Whether the crawl judges queued H links again when C_HR learns a parent: only where that can change a verdict. */
export function shouldRejudge(options: { rejudgeQueued: boolean }, strategy: Strategy): boolean {
  return options.rejudgeQueued && strategy.rejudgesOnLearn === true;
}

/**
 * Opens the crawl in `state`: merges stored and given options (a resume may not change identity options), replays
 * the records into the strategy's learned state (thesis §5: C_HR(t) is a function of the fetched documents) and the
 * tally, restores the bandit, and queues the seeds given now (already seen ones are ignored by the frontier).
 * Strategies that also learn from page text (`observePage`) start from their last snapshot and replay what came
 * after it.
 */
export async function restoreCrawl(state: CrawlState, explicit: ExplicitOptions): Promise<RestoredCrawl> {
  const { options, resumed } = await loadCrawlOptions(state, explicit);
  const strategy = withPatternYield(createStrategy(options.strategy)); // barren URL patterns wait (issue 16 item 5)
  const policy = options.bandit === 'none' ? null : createPolicy(options.bandit, { budget: Number.isFinite(options.maxDocs) ? options.maxDocs : 100_000, seed: options.seed });
  // --retry-failed: URLs whose last fetch failed become new again (before the frontier reads its seen sets).
  const retried = options.retryFailed ? await forgetFailed(state, strategy.seedPriority) : [];
  const frontier =
    options.queues === 'two' ? await DualFrontier.open(state, { concurrency: options.concurrency, rdfShare: options.rdfShare }) : await LevelFrontier.open(state);
  const tally = new CrawlTally();
  const saved = (await state.sub.learned.get('strategy')) as { seq: number; state: unknown } | undefined;
  const replayAfter = saved !== undefined && strategy.observePage ? saved.seq : 0;
  if (replayAfter > 0) strategy.restore(saved?.state);
  for await (const record of readRecords(state)) {
    tally.add(record);
    if (record.seq > replayAfter) strategy.learn(toFetchedDocument(record));
  }
  const savedPolicy = await loadBanditSnapshot(state);
  if (policy && savedPolicy !== undefined) policy.restore(savedPolicy);
  const seedPlds = new Set<string>(((await state.sub.meta.get('seedPlds')) as string[] | undefined) ?? []);
  const { accepted, refused: refusedSeeds } = screenSeeds(options.seeds, options.allowPrivate);
  const newSeeds: NewEntry[] = accepted.map((url) => {
    seedPlds.add(pldOf(url));
    return { url, parent: null, depth: 0, priority: strategy.seedPriority, label: null, rules: [], link: null };
  });
  await saveCrawlOptions(state, { ...options, retryFailed: false }); // a one-off request, not part of the crawl
  await state.sub.meta.put('seedPlds', [...seedPlds]);
  await frontier.add([...newSeeds, ...retried]);
  const similar = shouldRejudge(options, strategy) ? await indexQueuedLinks(state) : new SimilarQueued();
  return { options, resumed, frontier, strategy, policy, tally, seq: await lastSeq(state), seedPlds, similar, refusedSeeds };
}

/**
 * The queued H links, indexed for re-judging (one scan of the queue, up to the index's bound), so that a resumed
 * crawl re-judges what an uninterrupted one would have.
 */
async function indexQueuedLinks(state: CrawlState): Promise<SimilarQueued> {
  const similar = new SimilarQueued();
  for await (const value of state.sub.frontier.values({ gte: 'q!', lt: 'q"' })) { // H links live in the (HTML) frontier
    const e = value as FrontierEntry;
    if (e.label !== 'H' || e.link === null || e.parent === null) continue;
    const source = { url: e.parent, depth: e.depth - 1, type: e.link.tag === 'rdf' ? ('rdf' as const) : ('html' as const) };
    similar.add({ url: e.url, link: e.link, parent: e.parent, depth: e.depth, priority: e.priority, source });
    if (similar.full) break;
  }
  return similar;
}

/** The learning input a record carries (thesis §5): replaying records rebuilds the strategy's state. */
export function toFetchedDocument(r: CrawlRecord): FetchedDocument {
  return {
    url: r.url,
    finalUrl: r.finalUrl,
    parent: r.parent,
    status: r.status,
    type: r.error !== null && r.detectedType === 'rdf' ? 'other' : r.detectedType,
    contentType: r.contentType,
    label: r.label,
    rules: r.rules,
  };
}
