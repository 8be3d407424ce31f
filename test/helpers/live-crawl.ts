// A live crawl of the simulated web with a dashboard and SPARQL endpoint beside it, for the dashboard tests.
import { CrawlControl } from '../../src/crawl/control.ts';
import type { ExplicitOptions } from '../../src/crawl/crawl-meta.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlSummary } from '../../src/crawl-log/tally.ts';
import { createDashboard, type Dashboard } from '../../src/dashboard/index.ts';
import { oracleCurve, type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { type Endpoint, startEndpoint } from '../../src/sparql/index.ts';
import { makeTempDir } from './temp-dir.ts';

export interface LiveCrawl {
  web: SimWeb;
  crawler: Crawler;
  control: CrawlControl;
  dashboard: Dashboard;
  endpoint: Endpoint;
  /** `http://127.0.0.1:PORT/` (the dashboard). */
  base: string;
  dir: string;
  run: Promise<CrawlSummary>;
  /** Stops the crawl and every server, closes the state; the folder stays (for CLI checks) until `close()`. */
  shutdown(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a slow-enough crawl (a politeness delay per PLD) so that a test can watch and steer it. */
export async function startLiveCrawl(opts: { delayMs?: number; maxDocs?: number; token?: string; profile?: string; seedSites?: number; tickMs?: number; crawl?: Partial<ExplicitOptions>; oracle?: boolean } = {}): Promise<LiveCrawl> {
  const { dir, remove } = await makeTempDir('live-crawl');
  const web = await startSimweb({ profiles: opts.profile ?? 'thesis', seed: 3, scale: 0.1 });
  const crawler = await Crawler.open({
    out: dir,
    seeds: web.sites.slice(0, opts.seedSites ?? web.sites.length).map((s) => s.startUrl),
    strategy: 'fc-r+hr',
    proxy: web.proxyUrl,
    delayMs: opts.delayMs ?? 40,
    concurrency: 4,
    maxDocs: opts.maxDocs ?? 3000,
    allowPrivate: true,
    ...opts.crawl,
  });
  const control = new CrawlControl();
  const maxDocs = opts.maxDocs ?? 3000;
  const references = opts.oracle ? [{ name: 'oracle', curve: oracleCurve(web, maxDocs).slice(1) }] : [];
  const dashboard = createDashboard({ state: crawler.state, control, token: opts.token ?? null, tickMs: opts.tickMs ?? 250, references });
  const endpoint = await startEndpoint(crawler.state, { port: 0, mount: dashboard.handle });
  const run = crawler.run({ control });
  run.catch(() => {});
  let closed = false;
  const self: LiveCrawl = {
    web,
    crawler,
    control,
    dashboard,
    endpoint,
    base: endpoint.url.replace(/sparql$/, ''),
    dir,
    run,
    async shutdown() {
      if (closed) return;
      closed = true;
      control.stop();
      await run.catch(() => {});
      dashboard.close();
      await endpoint.close();
      await crawler.close();
      await web.close();
    },
    async close() {
      await self.shutdown();
      await remove();
    },
  };
  return self;
}
