// Public face of the live dashboard: served beside the SPARQL endpoint during `crawl --serve`.
export { checkControlAccess, isLoopback } from './access.ts';
export { type ClusterSnapshot, type ClusterSource, type ClusterStatus, ClusterView, type ClusterWorker } from './cluster-view.ts';
export { createDashboard, type Dashboard, type DashboardOptions } from './dashboard.ts';
export { predictStop, type StopForecast } from './forecast.ts';
export { linkKind } from './link-kind.ts';
export { LiveState, type LiveStatus, type LogLine, type PldRow } from './live-state.ts';
