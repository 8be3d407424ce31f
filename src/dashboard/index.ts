// Public face of the live dashboard: served beside the SPARQL endpoint during `crawl --serve`.
export { type ClusterSnapshot, type ClusterSource, type ClusterStatus, ClusterView } from './cluster-view.ts';
export { createDashboard, type Dashboard } from './dashboard.ts';
export { predictStop } from './forecast.ts';
export { linkKind } from './link-kind.ts';
export { LiveState, type LiveStatus } from './live-state.ts';
