// **runCrawlee** does the benchmark's job with Crawlee's CheerioCrawler (bench/peers): fetch through the proxy, parse,
// enqueue links by the same scope rule as rdfscout (thesis §11), record each page; storage in memory, no autoscaling.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pldOf } from '../../src/links/index.ts';
import type { LoopResult } from './minimal-loop.ts';

const PEER = new URL('../peers/node_modules/@crawlee/cheerio/index.mjs', import.meta.url).href;

// The few Crawlee names we use, typed loosely: the peer package is not part of rdfscout's type check.
// biome-ignore lint/suspicious/noExplicitAny: dynamic import of the peer package
type Any = any;

/** Crawls `pages` URLs from `seeds` with `concurrency` parallel requests (min = max = desired). */
export async function runCrawlee(opts: { seeds: string[]; proxy: string; pages: number; concurrency: number; robots: boolean }): Promise<LoopResult> {
  const crawlee: Any = await import(PEER);
  const { CheerioCrawler, Configuration, ProxyConfiguration, log } = crawlee;
  log.setLevel(log.LEVELS.OFF);
  const dir = await mkdtemp(join(tmpdir(), 'rdfscout-crawlee-'));
  const seedPlds = new Set(opts.seeds.map(pldOf));
  const byStatus: Record<string, number> = {};
  const records: { url: string; status: number; links: number }[] = [];
  let bytes = 0;
  try {
    const config = new Configuration({
      persistStorage: false,
      purgeOnStart: true,
      storageClientOptions: { localDataDirectory: dir, persistStorage: false },
      systemInfoV2: true,
    });
    const crawler = new CheerioCrawler(
      {
        proxyConfiguration: new ProxyConfiguration({ proxyUrls: [opts.proxy] }),
        maxRequestsPerCrawl: opts.pages,
        minConcurrency: opts.concurrency,
        maxConcurrency: opts.concurrency,
        autoscaledPoolOptions: { desiredConcurrency: opts.concurrency, maxTasksPerMinute: Number.POSITIVE_INFINITY },
        maxRequestRetries: 2, // as rdfscout's maxRetries
        respectRobotsTxtFile: opts.robots,
        useSessionPool: false,
        persistCookiesPerSession: false,
        additionalMimeTypes: ['*/*'],
        ignoreHttpErrorStatusCodes: [502], // unknown hosts one hop out: a page, not a retry
        requestHandler: async (ctx: Any) => {
          const { request, $, response, body, enqueueLinks } = ctx;
          const status: number = response.statusCode;
          byStatus[status] = (byStatus[status] ?? 0) + 1;
          bytes += typeof body === 'string' ? body.length : (body?.length ?? 0);
          const base: string = request.loadedUrl ?? request.url;
          const parentPld = pldOf(request.url);
          const urls: string[] = [];
          $('a[href], link[href], area[href], iframe[src], frame[src]').each((_: number, el: Any) => {
            const raw: string | undefined = el.attribs.href ?? el.attribs.src;
            if (raw === undefined) return;
            const u = URL.parse(raw.trim(), base);
            if (u === null || (u.protocol !== 'http:' && u.protocol !== 'https:')) return;
            u.hash = '';
            if (!seedPlds.has(pldOf(u.href)) && !seedPlds.has(parentPld)) return; // thesis §11 scope, as rdfscout
            urls.push(u.href);
          });
          if (urls.length > 0) await enqueueLinks({ urls, strategy: 'all' });
          records.push({ url: request.url, status, links: urls.length });
        },
        failedRequestHandler: async () => {
          byStatus.failed = (byStatus.failed ?? 0) + 1;
        },
      },
      config,
    );
    await crawler.run(opts.seeds);
    const stats = crawler.stats.state;
    return { pages: stats.requestsFinished + stats.requestsFailed, byStatus, bytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
