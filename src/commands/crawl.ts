// **rdfscout crawl**: parses the crawl flags, opens (or resumes) the crawl and runs it.
import { readFile } from 'node:fs/promises';
import { CrawlControl } from '../crawl/control.ts';
import type { Redis } from 'ioredis';
import { Crawler } from '../crawl/crawler.ts';
import { joinSharedCrawl, type SharedCrawl } from '../crawl/shared-crawl.ts';
import { connectRedis } from '../redis/connect.ts';
import { parseRedisUrl } from '../redis/url.ts';
import { type SinkOutcome, SinkSender } from '../crawl/sink-sender.ts';
import type { Dashboard } from '../dashboard/index.ts';
import { crawlReferenceCurves, describeSimweb } from './simweb-reference.ts';
import type { OutageEvent } from '../fetch/outage.ts';
import type { ExplicitOptions } from '../crawl/crawl-meta.ts';
import { type SiteRow, stageSites } from '../beebot/index.ts';
import { formatSeedProblems, parseSeedList } from '../crawl/seed-list.ts';
import { ArgumentError } from '../errors.ts';
import type { Endpoint } from '../sparql/index.ts';
import { boolFlag, type FlagSpec, intFlag, parseFlags, strFlag } from './args.ts';
import { createProgress } from './progress.ts';
import { formatSinkOutcome, formatSummary } from './summary-text.ts';
import { GraphStoreSink } from '../sink/index.ts';

export const CRAWL_USAGE = `Usage: rdfscout crawl [SEED_URL|PLD …] [--seeds-file FILE] --out DIR [options]

Crawls from the seeds, predicting before each fetch whether a link leads to RDF, and stores every RDF
document as quads in DIR (LevelDB; graph = document URL). Run the same command again to resume.

  --out DIR                 where the crawl state is kept (required)
  --seeds-file FILE         seeds: URLs or PLDs, one or more per line (comma-separated), or BeeBot's site list
                            as CSV (number, full name, short name, start address); bad lines are reported by
                            number and skipped; fragments (#…) are dropped

Scope (stored with the crawl; by default it stays on the PLDs of its seeds):
  --scope seeds|open        seeds (default): only the seeds' PLDs (and --offsite-hops); open: any PLD
  --offsite-hops N          also follow up to N links in a row outside the seeds' PLDs (default 0; the thesis: 1)
  --include PATTERN         crawl only URLs matching PATTERN (repeatable): a glob over the whole URL where * is
                            any text (https://example.org/data/*), or /regex/ (JavaScript syntax)
  --exclude PATTERN         never crawl URLs matching PATTERN (repeatable; wins over --include)
  --max-depth N             do not queue links deeper than N (seeds are depth 0)

Crawl:
  --strategy NAME           bfs | fc-r+hr (default) | fc-r | fc-r2 | fc-r+hr2 | topical | topical+hr
  --bandit NAME             PLD scheduler: none | round-robin | r1 | r2 | r3 | thompson | ducb | swucb | auto
                            (default: round-robin; auto with --reward external-links)
  --reward KIND             bandit reward: rdf-docs (default) | triples | external-links
  --max-docs N              total fetch budget, in requests sent (default 1000; none when only
                            --max-docs-per-pld is given)
  --max-docs-per-pld N      fetch budget per PLD (default: none)
  --max-links-per-doc N     only the first N links of a document count (default 500)
  --concurrency N           fetches in flight (default 5)
  --host-concurrency N      fetches in flight per PLD, all its hosts together (default 1)
  --delay-ms N              minimum delay between requests to one PLD (default 1000); a host's robots.txt
                            Crawl-delay applies to its whole PLD
  --proxy URL               send every request through this HTTP forward proxy
  --allow-private           allow private, loopback and link-local addresses
  --follow-rdf-links        also follow the IRIs inside RDF documents (thesis framework 2)
  --no-remote-contexts      do not fetch JSON-LD contexts rdfscout does not ship: documents that need one fail
                            (by default each is fetched once per crawl, within the fetch limits, and kept)
  --queues one|two          two: the thesis's two-queue variant, an RDF queue and an HTML queue (default one)
  --rdf-share X             with two queues, the share of --concurrency serving the RDF queue (default 0.5)
  --fixed-labels            a queued link keeps the label it was extracted with (by default, links similar to a
                            newly learned RDF parent are judged again and may become HR)
  --probe-well-known        also fetch /sitemap.xml and /.well-known/void of every seed's origin
                            (sitemaps that robots.txt names are always used)
  --link-tables             keep BeeBot's internal/external link tables (on with --reward external-links)
  --stay-on-site            crawl only links within the page's PLD; record the others (on with --reward external-links)
  --normalize MODE          standard (default) | beebot (lower-case, no trailing slash)
  --max-retries N           retries of a retryable failure (default 2); connection failures back off the PLD
  --retry-failed            on a resume, queue again the URLs whose last fetch failed
  --max-offline-ms N        when every request fails at the connection level, the crawl pauses (and says so),
                            probing with back-off; after N ms offline it stops, a resume retries (default 600000)
  --seed N                  seed of random choices (default 1)
  --user-agent TEXT         the User-Agent header sent, and the agent matched in robots.txt
                            (default: rdfscout/0.1 (+https://github.com/rdfscout/rdfscout))
  --serve PORT              serve a live dashboard at http://127.0.0.1:PORT/ and a read-only SPARQL
                            endpoint at /sparql while crawling (0: a free port)
  --serve-token TOKEN       let dashboard controls (pause, stop, seeds, block) through only with this token
                            (default: controls answer on the loopback bind without one)
  --max-query-memory MB     memory limit of each query of that endpoint (default 512)
  --warc FILE|DIR           also write every response (request and response records, each redirect hop and
                            robots.txt too, raw bytes as received) as WARC 1.1, one gzip member per record:
                            to FILE (appended to), or to rotating files in DIR (an existing folder, or a path
                            ending with /); \`rdfscout reparse\` rebuilds a store from them
  --warc-file-mb N          in a DIR, begin a new file past N MB (default 1024)
  --warc-gzip-level N       deflate level of response records of 1 kB or more (request and metadata records are
                            stored), 0 (gzip framing only: least CPU, largest files) to 9 (default 1)
                            --warc is kept with the crawl: a resume goes on writing there without the flag
  --no-warc                 on a resume, stop writing the WARC an earlier run asked for
  --sink URL                also send every stored document to this SPARQL 1.1 Graph Store Protocol endpoint
                            (e.g. Virtuoso's http://HOST:8890/sparql-graph-crud; user:password@ for Basic auth),
                            one named graph per document (HTTP PUT), in the background, with retries; what the
                            sink did not acknowledge (unreachable, or refused with a 4xx) is reported and sent
                            again when the crawl is resumed with --sink
  --json                    print one JSON summary at the end
  --quiet                   no progress output

Distributed (one crawl over many processes and machines, issue 15; README "Distributed crawl (Redis)"):
  --redis URL               redis://[:password@]HOST:PORT[/DB]: create the crawl there (with seeds) or join it as
                            one more worker (no seeds, no options: the crawl's stored ones); this worker's records
                            and documents go to its own --out DIR (a shard). rdfscout status --redis URL shows progress
  --lease-ms N              with --redis, when creating the crawl: how long a worker's lease on a PLD lasts
                            unrenewed; a dead worker's fetches go back to the queue after it (default 30000)`;

/** Every flag of `crawl` (a test checks that CRAWL_USAGE names each one). */
export const CRAWL_FLAGS: FlagSpec = {
  out: { type: 'string' },
  'seeds-file': { type: 'string' },
  strategy: { type: 'string' },
  bandit: { type: 'string' },
  reward: { type: 'string' },
  'max-docs': { type: 'string' },
  'max-docs-per-pld': { type: 'string' },
  'max-links-per-doc': { type: 'string' },
  'max-depth': { type: 'string' },
  concurrency: { type: 'string' },
  'host-concurrency': { type: 'string' },
  'delay-ms': { type: 'string' },
  proxy: { type: 'string' },
  'allow-private': { type: 'boolean' },
  'follow-rdf-links': { type: 'boolean' },
  'no-remote-contexts': { type: 'boolean' },
  queues: { type: 'string' },
  'rdf-share': { type: 'string' },
  'probe-well-known': { type: 'boolean' },
  'fixed-labels': { type: 'boolean' },
  'link-tables': { type: 'boolean' },
  'stay-on-site': { type: 'boolean' },
  normalize: { type: 'string' },
  'max-retries': { type: 'string' },
  'retry-failed': { type: 'boolean' },
  'max-offline-ms': { type: 'string' },
  scope: { type: 'string' },
  'offsite-hops': { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  seed: { type: 'string' },
  'user-agent': { type: 'string' },
  serve: { type: 'string' },
  'serve-token': { type: 'string' },
  'max-query-memory': { type: 'string' },
  warc: { type: 'string' },
  'warc-file-mb': { type: 'string' },
  'warc-gzip-level': { type: 'string' },
  'no-warc': { type: 'boolean' },
  sink: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  redis: { type: 'string' },
  'lease-ms': { type: 'string' },
};

export async function crawlOptionsFromArgs(
  argv: string[],
): Promise<{
  explicit: ExplicitOptions;
  json: boolean;
  quiet: boolean;
  serve: number | undefined;
  queryMemoryMb: number | undefined;
  serveToken: string | undefined;
  sites: SiteRow[];
  redis: string | undefined;
  leaseMs: number | undefined;
  sink: string | undefined;
  warc: { target: string; maxFileBytes: number; gzipLevel?: number } | undefined;
  /** `--no-warc`: stop the archive an earlier run of the crawl asked for. */
  noWarc: boolean;
}> {
  const { values, positionals } = parseFlags(argv, CRAWL_FLAGS, CRAWL_USAGE);
  const out = strFlag(values, 'out');
  if (!out) throw new ArgumentError(`--out DIR is required`);
  const seeds = [...positionals].flatMap((p) => p.split(',')).map((p) => p.trim()).filter((p) => p !== '');
  let sites: SiteRow[] = [];
  const seedsFile = strFlag(values, 'seeds-file');
  if (seedsFile) {
    let text: string;
    try {
      text = await readFile(seedsFile, 'utf8');
    } catch (err) {
      throw new ArgumentError(`Cannot read --seeds-file ${seedsFile}: ${(err as Error).message}`);
    }
    // Plain URL lists or BeeBot's site list; each bad line is reported with its number, the rest is crawled.
    const list = parseSeedList(text);
    if (list.problems.length > 0) process.stderr.write(`${formatSeedProblems(seedsFile, list.problems)}\n`);
    sites = list.sites;
    seeds.push(...sites.map((site) => site.start));
  }
  const explicit: ExplicitOptions = {
    out,
    seeds,
    strategy: strFlag(values, 'strategy'),
    bandit: strFlag(values, 'bandit'),
    reward: strFlag(values, 'reward') as ExplicitOptions['reward'],
    maxDocs: intFlag(values, 'max-docs', 1),
    maxDocsPerPld: intFlag(values, 'max-docs-per-pld', 1),
    maxLinksPerDoc: intFlag(values, 'max-links-per-doc', 0),
    maxDepth: intFlag(values, 'max-depth', 0),
    concurrency: intFlag(values, 'concurrency', 1),
    hostConcurrency: intFlag(values, 'host-concurrency', 1),
    delayMs: intFlag(values, 'delay-ms', 0),
    proxy: strFlag(values, 'proxy'),
    allowPrivate: boolFlag(values, 'allow-private'),
    followRdfLinks: boolFlag(values, 'follow-rdf-links'),
    remoteContexts: values['no-remote-contexts'] === true ? false : undefined,
    queues: strFlag(values, 'queues') as ExplicitOptions['queues'],
    rdfShare: strFlag(values, 'rdf-share') === undefined ? undefined : Number(strFlag(values, 'rdf-share')),
    probeWellKnown: boolFlag(values, 'probe-well-known'),
    rejudgeQueued: values['fixed-labels'] === true ? false : undefined,
    linkTables: boolFlag(values, 'link-tables'),
    stayOnSite: boolFlag(values, 'stay-on-site'),
    normalize: strFlag(values, 'normalize') as ExplicitOptions['normalize'],
    maxRetries: intFlag(values, 'max-retries', 0),
    retryFailed: boolFlag(values, 'retry-failed'),
    maxOfflineMs: intFlag(values, 'max-offline-ms', 0),
    scope: strFlag(values, 'scope') as ExplicitOptions['scope'],
    offsiteHops: intFlag(values, 'offsite-hops', 0),
    include: listFlag(values, 'include'),
    exclude: listFlag(values, 'exclude'),
    seed: intFlag(values, 'seed', 0),
    userAgent: strFlag(values, 'user-agent'),
  };
  const serveToken = strFlag(values, 'serve-token');
  if (serveToken !== undefined && serveToken.length < 8) throw new ArgumentError('--serve-token must be at least 8 characters.');
  const warcTarget = strFlag(values, 'warc');
  const gzipLevel = intFlag(values, 'warc-gzip-level', 0);
  const noWarc = boolFlag(values, 'no-warc') === true;
  if (noWarc && warcTarget !== undefined) throw new ArgumentError('--warc and --no-warc ask for opposite things: give one.');
  const warc = warcTarget === undefined ? undefined : { target: warcTarget, maxFileBytes: (intFlag(values, 'warc-file-mb', 1) ?? 1024) * 1024 * 1024, ...(gzipLevel === undefined ? {} : { gzipLevel }) };
  const redis = strFlag(values, 'redis');
  const leaseMs = intFlag(values, 'lease-ms', 100);
  if (leaseMs !== undefined && redis === undefined) throw new ArgumentError('--lease-ms goes with --redis URL.');
  return {
    explicit,
    json: values.json === true,
    quiet: values.quiet === true,
    serve: intFlag(values, 'serve', 0),
    queryMemoryMb: intFlag(values, 'max-query-memory', 16),
    serveToken,
    sites,
    redis,
    leaseMs,
    sink: strFlag(values, 'sink'),
    warc,
    noWarc,
  };
}

/** A repeatable string flag; undefined when absent. */
function listFlag(values: Record<string, unknown>, name: string): string[] | undefined {
  const raw = values[name];
  return Array.isArray(raw) ? raw.map(String) : undefined;
}

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

export async function runCrawlCommand(argv: string[]): Promise<number> {
  const { explicit, json, quiet, serve, queryMemoryMb, serveToken, sites, redis, leaseMs, sink, warc, noWarc } = await crawlOptionsFromArgs(argv);
  // --sink (issue 15): a bad URL is refused before anything is opened.
  const sender = sink === undefined ? null : new SinkSender(graphStoreOf(sink, explicit.userAgent));
  const shared = redis === undefined ? null : await openShared(redis, explicit, leaseMs);
  let crawler: Crawler;
  try {
    const extra = { ...(sender ? { hooks: [sender] } : {}), ...(warc === undefined ? {} : { warc }), noWarc };
    crawler = shared === null ? await Crawler.open(explicit, extra) : await Crawler.open(shared.crawl.explicit, { ...extra, shared: shared.crawl });
  } catch (err) {
    shared?.client.disconnect();
    throw err;
  }
  sender?.start(crawler.state);
  if (shared !== null && !quiet) process.stderr.write(`Worker ${shared.crawl.queue.worker} ${shared.crawl.created ? 'created' : 'joined'} the crawl in Redis at ${parseRedisUrl(redis as string).display}; shard: ${explicit.out}\n`);
  // A resume that archives because the first run asked for it says so (a default never silently decides).
  const archive = crawler.archiveChoice;
  if (archive.from === 'stored') process.stderr.write(`Writing WARC to ${archive.warc.target}, as this crawl's first run asked (--no-warc stops it).\n`);
  if (archive.from === 'stopped') process.stderr.write('No longer writing WARC (--no-warc): responses fetched from now on are not archived.\n');
  for (const r of crawler.refusedSeeds) process.stderr.write(`Seed refused, not crawled: ${r.reason}\n`);
  if (sites.length > 0) await stageSites(crawler.state, null, sites);
  let endpoint: Endpoint | null = null;
  let dashboard: Dashboard | null = null;
  const control = new CrawlControl();
  if (serve !== undefined) {
    try {
      const { startEndpoint } = await import('../sparql/index.ts'); // Comunica loads only when asked for
      const { createDashboard } = await import('../dashboard/index.ts');
      // On a simulated web, the oracle and breadth-first curves are drawn beside the live one (issue 19).
      const web = await describeSimweb(crawler.options.proxy);
      const references = web === null ? [] : crawlReferenceCurves(web, crawler.options);
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
      dashboard = createDashboard({ state: crawler.state, control, host: '127.0.0.1', token: serveToken ?? null, references, ...cluster });
      endpoint = await startEndpoint(crawler.state, { port: serve, mount: dashboard.handle, ...(queryMemoryMb === undefined ? {} : { maxQueryMemoryMb: queryMemoryMb }) });
    } catch (err) {
      dashboard?.close();
      await crawler.close();
      throw err;
    }
    process.stderr.write(`Dashboard: ${endpoint.url.replace(/sparql$/, '')}  SPARQL endpoint over this crawl, live: ${endpoint.url}\n`);
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
    const onOutage = (e: OutageEvent) => {
      process.stderr.write(`\n${describeOutage(e)}\n`); // said even with --quiet
      progress?.outage(e);
    };
    const summary = await crawler.run({ signal: controller.signal, control, onRecord: (p) => progress?.update(p), onOutage });
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
    await crawler.close();
    await shared?.client.quit();
  }
}

/** Connects to Redis before anything is written (unreachable: exit code 1, no --out folder made), then joins or creates the crawl. */
async function openShared(url: string, explicit: ExplicitOptions, leaseMs: number | undefined): Promise<{ client: Redis; crawl: SharedCrawl }> {
  const client = await connectRedis(url);
  try {
    return { client, crawl: await joinSharedCrawl(client, parseRedisUrl(url).display, explicit, leaseMs) };
  } catch (err) {
    client.disconnect();
    throw err;
  }
}
