// Public face of `frontier/`: what is left to crawl, and which links may be crawled at all.
export type { Frontier, FrontierEntry, NewEntry, PldQueue } from './types.ts';
export { LevelFrontier, type LevelFrontierOptions, type SeenRecord } from './level-frontier.ts';
export { MemoryFrontier } from './memory-frontier.ts';
export { compilePattern, compileScope, hopsOf, judgeScope, type Scope, type ScopeOptions, type ScopeRefusal, type ScopeVerdict } from './scope.ts';
export { DualFrontier, type DualFrontierOptions } from './dual-frontier.ts';
