// **serveCrawl**: `crawl --serve PORT`, the live dashboard and a read-only SPARQL endpoint over the running crawl.
import type { CrawlControl } from '../crawl/control.ts';
import type { Crawler } from '../crawl/crawler.ts';
import type { ClusterSource, Dashboard } from '../dashboard/index.ts';
import type { Endpoint } from '../sparql/index.ts';
import { crawlReferenceCurves, describeSimweb } from './simweb-reference.ts';

export interface ServeSettings {
  port: number;
  token: string | undefined;
  queryMemoryMb: number | undefined;
  /** In a distributed crawl: the whole crawl, per worker and in total, as `status --redis` shows it. */
  cluster?: ClusterSource;
}

/** Starts the dashboard and the endpoint (Comunica loads only now); on failure nothing is left open but the crawler. */
export async function serveCrawl(crawler: Crawler, control: CrawlControl, s: ServeSettings): Promise<{ endpoint: Endpoint; dashboard: Dashboard }> {
  let dashboard: Dashboard | null = null;
  try {
    const { startEndpoint } = await import('../sparql/index.ts');
    const { createDashboard } = await import('../dashboard/index.ts');
    // On a simulated web, the oracle and breadth-first curves are drawn beside the live one.
    const web = await describeSimweb(crawler.options.proxy);
    const references = web === null ? [] : crawlReferenceCurves(web, crawler.options);
    const cluster = s.cluster === undefined ? {} : { cluster: s.cluster };
    dashboard = createDashboard({ state: crawler.state, control, host: '127.0.0.1', token: s.token ?? null, references, ...cluster });
    const endpoint = await startEndpoint(crawler.state, { port: s.port, mount: dashboard.handle, ...(s.queryMemoryMb === undefined ? {} : { maxQueryMemoryMb: s.queryMemoryMb }) });
    process.stderr.write(`Dashboard: ${endpoint.url.replace(/sparql$/, '')}  SPARQL endpoint over this crawl, live: ${endpoint.url}\n`);
    return { endpoint, dashboard };
  } catch (err) {
    dashboard?.close();
    throw err;
  }
}
