// The public face of `relevance/`: link features, the relevance functions, and filters (crawl strategies are in `strategies/`).
export * from './concepts.ts';
export * from './filters.ts';
export * from './hat10.ts';
export * from './link-features.ts';
export * from './pattern-yield.ts';
export * from './relevancy-hr.ts';
export * from './relevancy-r.ts';
export type * from './types.ts';
export * from './umb09.ts';
export * from './url-parts.ts';
