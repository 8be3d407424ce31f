// Public face of `frontier/`: what is left to crawl, and which links may be crawled at all.
export type { Frontier } from './types.ts';
export { type FrontierBackend, openFrontier } from './open-frontier.ts';
export { compileScope, type Scope } from './scope.ts';
