// **rdfscout crawl**: parses the crawl flags, opens (or resumes) the crawl and runs it.
import { CrawlControl } from '../crawl/control.ts';
import type { Redis } from 'ioredis';
import { Crawler } from '../crawl/crawler.ts';
import { type CrawlProbes, NO_PROBES } from '../crawl/probes.ts';
import { joinSharedCrawl, type SharedCrawl } from '../distributed/shared-crawl.ts';
import { redisCoordination } from '../distributed/redis-coordination.ts';
import { closeRedis, connectRedis, redisGaveUp } from '../distributed/redis/connect.ts';
import { parseRedisUrl } from '../distributed/redis/url.ts';
import { type SinkOutcome, SinkSender } from '../crawl/sink-sender.ts';
import type { Dashboard } from '../dashboard/index.ts';
import type { OutageEvent } from '../fetch/outage.ts';
import { type ExplicitOptions, keptNetworkOptions, saveShardMark } from '../crawl/crawl-meta.ts';
import { DEFAULT_CRAWL_OPTIONS } from '../crawl/options.ts';
import { stageSites } from '../beebot/index.ts';
import { ArgumentError } from '../errors.ts';
import type { Endpoint } from '../sparql/index.ts';
import { crawlOptionsFromArgs } from './crawl-args.ts';
import { checkBeforeOpening } from './crawl-preflight.ts';
import { serveCrawl } from './crawl-serve.ts';
import { createProgress } from './progress.ts';
import { formatSinkOutcome, formatSummary } from './summary-text.ts';
import { GraphStoreSink } from '../sink/index.ts';

export { CRAWL_FLAGS, CRAWL_USAGE, crawlOptionsFromArgs } from './crawl-args.ts';

/** One line on stderr when the crawl pauses because every request fails at the connection level, and when it resumes. */
function describeOutage(e: OutageEvent): string {
  if (e.kind === 'resumed') return `Network back after ${Math.round(e.offlineMs / 1000)} s offline: crawling again.`;
  return `Network trouble: ${e.failures} connection failures in a row on ${e.hosts} host(s); pausing ${Math.round(e.pauseMs / 100) / 10} s (no budget spent; failed URLs stay queued).`;
}

/** The `--sink` client; a URL that is not http(s) is an argument error (exit 2), before anything is opened. */
function graphStoreOf(url: string, userAgent: string | null | undefined): GraphStoreSink {
  try {
    return new GraphStoreSink(url, typeof userAgent === 'string' ? { userAgent } : {});
  } catch (err) {
    throw new ArgumentError((err as Error).message);
  }
}

/** `rdfscout crawl ...argv`; `probes`: points a test stops or watches the crawl at (none when a user runs it). */
export async function runCrawlCommand(argv: string[], { probes = NO_PROBES }: { probes?: CrawlProbes } = {}): Promise<number> {
  const args = await crawlOptionsFromArgs(argv);
  const { explicit, json, quiet, serve, queryMemoryMb, serveToken, sites, redis, leaseMs, sink, warc, noWarc } = args;
  // Every argument is checked before anything is opened: a refused command leaves no --out folder behind.
  const { resume } = await checkBeforeOpening(args);
  const sender = sink === undefined ? null : new SinkSender(graphStoreOf(sink, explicit.userAgent));
  const shared = redis === undefined ? null : await openShared(redis, explicit, leaseMs);
  let crawler: Crawler;
  try {
    const extra = { ...(sender ? { hooks: [sender] } : {}), ...(warc === undefined ? {} : { warc }), noWarc, probes };
    crawler = shared === null ? await Crawler.open(explicit, extra) : await Crawler.open(shared.crawl.explicit, { ...extra, coordination: redisCoordination(shared.crawl) });
  } catch (err) {
    shared?.client.disconnect();
    throw err;
  }
  // A shard's queue is in Redis: a later run without --redis would find nothing to do, so it is refused then.
  if (shared !== null) await saveShardMark(crawler.state, parseRedisUrl(redis as string).display);
  sender?.start(crawler.state);
  if (shared !== null && !quiet) process.stderr.write(`Worker ${shared.crawl.queue.worker} ${shared.crawl.created ? 'created' : 'joined'} the crawl in Redis at ${parseRedisUrl(redis as string).display}; shard: ${explicit.out}\n`);
  const over = shared === null ? null : await shared.crawl.queue.end(crawler.options);
  if (over !== null) {
    // Said even with --quiet: a worker that ends at once tells why (a default never silently decides).
    process.stderr.write(`The crawl in Redis at ${parseRedisUrl(redis as string).display} is over (${over}): this worker has nothing to fetch. A larger --max-docs or --max-docs-per-pld continues it.\n`);
  }
  // A resume that archives because the first run asked for it says so (a default never silently decides).
  const archive = crawler.archiveChoice;
  if (archive.from === 'stored') process.stderr.write(`Writing WARC to ${archive.warc.target}, as this crawl's first run asked (--no-warc stops it).\n`);
  if (archive.from === 'stopped') process.stderr.write('No longer writing WARC (--no-warc): responses fetched from now on are not archived.\n');
  for (const r of crawler.refusedSeeds) process.stderr.write(`Seed refused, not crawled: ${r.reason}\n`);
  // What a resume reuses to reach the network is said, not assumed (a stored proxy may have moved).
  const kept = resume && shared === null ? keptNetworkOptions(explicit, crawler.options) : [];
  if (kept.length > 0 && !quiet) process.stderr.write(`Resuming with this crawl's stored ${kept.join(' ')} (give a flag again to change it).\n`);
  if (sites.length > 0) await stageSites(crawler.state, null, sites);
  let endpoint: Endpoint | null = null;
  let dashboard: Dashboard | null = null;
  const control = new CrawlControl();
  if (serve !== undefined) {
    // In a distributed crawl the page also shows the whole crawl, per worker and in total, as `status --redis` does.
    const sharedCrawl = shared?.crawl;
    const cluster =
      sharedCrawl === undefined
        ? {}
        : {
            cluster: async () => {
              const status = await sharedCrawl.registry.status(3 * sharedCrawl.settings.leaseMs);
              if (status === undefined) throw new Error('the crawl is no longer in Redis');
              return status;
            },
          };
    try {
      ({ endpoint, dashboard } = await serveCrawl(crawler, control, { port: serve, token: serveToken, queryMemoryMb, ...cluster }));
    } catch (err) {
      await crawler.close();
      if (shared !== null) await closeRedis(shared.client);
      throw err;
    }
  }
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    process.stderr.write('\nStopping: finishing the state cleanly (Ctrl-C again to quit at once; a resume re-fetches what was in flight).\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const progress = quiet ? null : createProgress(process.stderr, crawler.options.maxDocs);
  try {
    // said even with --quiet; a proxy taken from the store may have moved since the first run: the user is told
    const storedProxy = kept.find((flag) => flag.startsWith('--proxy '));
    const proxyHint = storedProxy === undefined ? '' : ` This run goes through the crawl's stored ${storedProxy}: if that proxy moved, stop and give --proxy again.`;
    const onOutage = (e: OutageEvent) => {
      process.stderr.write(`\n${describeOutage(e)}${e.kind === 'resumed' ? '' : proxyHint}\n`);
      progress?.outage(e);
    };
    const summary = await crawler.run({ signal: controller.signal, control, onRecord: (p) => progress?.update(p), onOutage }).catch((err: unknown) => {
      throw (shared === null ? null : redisGaveUp(shared.client)) ?? err; // what a failed call to a lost Redis means
    });
    const sent: SinkOutcome | null = sender ? await sender.finish() : null;
    dashboard?.finish();
    progress?.done();
    if (json) process.stdout.write(`${JSON.stringify(sent ? { ...summary, sink: sent } : summary)}\n`);
    else {
      process.stdout.write(`${formatSummary(summary, crawler.options)} State: ${crawler.options.out}\n`);
      if (sent) process.stdout.write(`${formatSinkOutcome(sent)}\n`);
    }
    if (summary.stoppedBy === 'offline') return 1;
    return summary.stoppedBy === 'signal' ? 130 : 0;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    dashboard?.close();
    await endpoint?.close();
    await sender?.finish(); // after an error too: no send outlives the store (what is unsent stays marked)
    const lost = shared === null ? null : redisGaveUp(shared.client);
    // With Redis given up, closing cannot give claims back (their leases expire): the error above says why it stopped.
    await crawler.close().catch((err: unknown) => {
      if (lost === null) throw err;
    });
    if (shared !== null) await closeRedis(shared.client); // a lost or given-up connection is dropped, not waited for
  }
}

/** Connects to Redis before anything is written (unreachable: exit code 1, no --out folder made), then joins or creates the crawl. */
async function openShared(url: string, explicit: ExplicitOptions, leaseMs: number | undefined): Promise<{ client: Redis; crawl: SharedCrawl }> {
  // A worker waits for a lost Redis as a crawl waits for a lost network: up to --max-offline-ms.
  const client = await connectRedis(url, { maxOfflineMs: explicit.maxOfflineMs ?? DEFAULT_CRAWL_OPTIONS.maxOfflineMs });
  try {
    return { client, crawl: await joinSharedCrawl(client, parseRedisUrl(url).display, explicit, leaseMs) };
  } catch (err) {
    client.disconnect();
    throw err;
  }
}
