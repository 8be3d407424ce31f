// Public face of `frontier/`: what is left to crawl, and which links may be crawled at all.
export type { Frontier, FrontierEntry, FrontierIndexOptions, NewEntry, PldQueue, QueuedLink, Rejudgement } from './types.ts';
export { FRONTIER_BACKENDS, type FrontierBackend, type OpenFrontierOptions, openFrontier } from './open-frontier.ts';
export { LevelFrontier, type LevelFrontierOptions, type SeenRecord } from './level-frontier.ts';
export { MemoryFrontier } from './memory-frontier.ts';
export { compilePattern, compileScope, hopsOf, judgeScope, type Scope, type ScopeOptions, type ScopeRefusal, type ScopeVerdict } from './scope.ts';
export { DualFrontier, type DualFrontierOptions } from './dual-frontier.ts';
export { SimilarQueued, similarityKeys } from './similar-queued.ts';
