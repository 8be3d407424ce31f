// **restoreCrawl** rebuilds everything a crawl knows from its state folder: options, learned state, tally, seeds.

import { createPolicy } from '../bandit/index.ts';
import type { BanditPolicy } from '../bandit/types.ts';
import type { Frontier } from '../frontier/index.ts';
import type { NewEntry } from '../frontier/types.ts';
import { pldOf } from '../links/index.ts';
import { withPatternYield } from '../relevance/pattern-yield.ts';
import { createStrategy } from '../strategies/index.ts';
import type { FetchedDocument, Strategy } from '../relevance/types.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { Coordination } from './coordinator.ts';
import { localCoordination } from './local-coordination.ts';
import { loadBanditSnapshot, loadStrategySnapshot } from './learned-store.ts';
import { type ExplicitOptions, loadCrawlOptions, loadDepthDropped, loadSeedPlds, saveCrawlOptions, saveSeedPlds } from './crawl-meta.ts';
import type { ResolvedCrawlOptions } from './options.ts';
import { lastSeq, readRecords } from '../crawl-log/record-store.ts';
import { CrawlTally } from '../crawl-log/tally.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import { noUsableSeed, type RefusedSeed, screenSeeds } from './seed-list.ts';
import { ANSWERED_ORIGINS, RecentOrigins } from './recent-origins.ts';

/** What a crawl is made of when it starts or resumes. */
export interface RestoredCrawl {
  options: ResolvedCrawlOptions;
  resumed: boolean;
  frontier: Frontier;
  strategy: Strategy;
  policy: BanditPolicy | null;
  tally: CrawlTally;
  /** Seq of the last record (0 for a new crawl). */
  seq: number;
  /** Links dropped by --max-depth in earlier runs (stored with each fetch that dropped some). */
  depthDropped: number;
  /** PLDs of all seeds ever given (thesis §11 scope). */
  seedPlds: Set<string>;
  /** Seeds given now but refused before any request (private address, localhost): not queued. */
  refusedSeeds: RefusedSeed[];
  /** Origins that gave an HTTP response in earlier runs, the last 16 distinct, most recent last (probe targets). */
  answeredOrigins: string[];
}

/** How a crawl is restored besides its stored options. */
export interface RestoreHooks {
  /** Sees every record replayed (for hooks that rebuild their state, e.g. BeeBot's Not Available). */
  onRecord?: (record: CrawlRecord, options: ResolvedCrawlOptions) => void;
  /** How the crawl is coordinated: where its frontier is, where what it learned comes from. Default: a process alone. */
  coordination?: Coordination;
}

/** A new crawl's strategy and bandit for `options`: what its records, or a shared crawl's learning log, are replayed into. */
export function createLearners(options: ResolvedCrawlOptions): { strategy: Strategy; policy: BanditPolicy | null } {
  const strategy = withPatternYield(createStrategy(options.strategy)); // barren URL patterns wait
  const policy = options.bandit === 'none' ? null : createPolicy(options.bandit, { budget: Number.isFinite(options.maxDocs) ? options.maxDocs : 100_000, seed: options.seed });
  return { strategy, policy };
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
export async function restoreCrawl(state: CrawlState, explicit: ExplicitOptions, hooks: RestoreHooks = {}): Promise<RestoredCrawl> {
  const { onRecord, coordination = localCoordination() } = hooks;
  const { requiresSeeds, replaysLearning } = coordination;
  const { options, resumed } = await loadCrawlOptions(state, explicit, { requireSeeds: requiresSeeds });
  const { strategy, policy } = createLearners(options);
  // The frontier re-indexes its queued H links for re-judging (thesis §5) when it opens; `requeue`: --retry-failed.
  const { frontier, requeue } = await coordination.openFrontier(state, options, { rejudge: shouldRejudge(options, strategy), seedPriority: strategy.seedPriority });
  const tally = new CrawlTally();
  const saved = await loadStrategySnapshot(state);
  const replayAfter = saved !== undefined && strategy.observePage ? saved.seq : 0;
  if (replayAfter > 0) strategy.restore(saved?.state);
  const answered = new RecentOrigins(ANSWERED_ORIGINS);
  for await (const record of readRecords(state)) {
    tally.add(record);
    if (record.status !== null) answered.add(record.finalUrl);
    onRecord?.(record, options);
    if (replaysLearning && record.seq > replayAfter) strategy.learn(toFetchedDocument(record));
  }
  const savedPolicy = replaysLearning ? await loadBanditSnapshot(state) : undefined;
  if (policy && savedPolicy !== undefined) policy.restore(savedPolicy);
  const seedPlds = await loadSeedPlds(state);
  const { accepted, refused: refusedSeeds } = screenSeeds(options.seeds, options.allowPrivate);
  // A new crawl needs a seed it may fetch: with none, it would end at once and say nothing useful.
  if (!resumed && requiresSeeds && options.seeds.length > 0 && accepted.length === 0) throw noUsableSeed(refusedSeeds);
  const newSeeds: NewEntry[] = accepted.map((url) => {
    seedPlds.add(pldOf(url));
    return { url, parent: null, depth: 0, priority: strategy.seedPriority, label: null, rules: [], link: null };
  });
  await saveCrawlOptions(state, { ...options, retryFailed: false }); // a one-off request, not part of the crawl
  await saveSeedPlds(state, seedPlds);
  await frontier.add([...newSeeds, ...requeue]);
  return { options, resumed, frontier, strategy, policy, tally, seq: await lastSeq(state), depthDropped: await loadDepthDropped(state), seedPlds, refusedSeeds, answeredOrigins: answered.list() };
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
