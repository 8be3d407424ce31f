// The public face of `metrics/`: the thesis's metrics computed from crawl records (thesis §9).
export * from './compute-metrics.ts';
export * from './figures.ts';
export * from './format-metrics.ts';
export * from './true-labels.ts';
