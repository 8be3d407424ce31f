// The public face of `relevance/`: link features, the relevance functions, filters and crawl strategies.
export * from './concepts.ts';
export * from './filters.ts';
export * from './hat10.ts';
export * from './link-features.ts';
export * from './pattern-yield.ts';
export * from './relevancy-hr.ts';
export * from './relevancy-r.ts';
export * from './strategies/index.ts';
export type * from './types.ts';
export * from './umb09.ts';
export * from './url-parts.ts';
