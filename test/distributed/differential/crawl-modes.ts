// One crawl case run in each mode: one process, one process killed (SIGKILL) and resumed, workers on one Redis.
import type { CrawlRecord } from '../../../src/crawl-log/record.ts';
import { readRecords } from '../../../src/crawl-log/record-store.ts';
import type { CrawlSummary } from '../../../src/crawl-log/tally.ts';
import { CrawlControl } from '../../../src/crawl/control.ts';
import { Crawler } from '../../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../../src/crawl/options.ts';
import { closeRedis, connectRedis } from '../../../src/distributed/redis/connect.ts';
import { redisCoordination } from '../../../src/distributed/redis-coordination.ts';
import { joinSharedCrawl } from '../../../src/distributed/shared-crawl.ts';
import { openState } from '../../../src/state/open-state.ts';
import { mergeRecords, } from '../../helpers/workers.ts';

/** The crawl options a case varies (the rest: the defaults, breadth-first, RDF links followed, no politeness delay). */
export type CaseOptions = Partial<Pick<CrawlOptions, 'strategy' | 'concurrency' | 'maxDocs' | 'maxDocsPerPld' | 'maxDepth' | 'scope' | 'offsiteHops' | 'maxOfflineMs' | 'threads' | 'threadMinKb' | 'headersTimeoutMs' | 'maxRetries'>>;

/** What happens after `afterRecords` records: the operator's stop, an abort (signal), or `call` (e.g. the web goes down). */
export interface Interrupt {
  kind: 'stop' | 'signal' | 'call';
  afterRecords: number;
  call?: () => void;
}

/** What a mode produced: each process's summary, and the merged reading of its shards. */
export interface ModeResult {
  summaries: CrawlSummary[];
  /** One record per URL (the merged reading: the later of two records of a URL wins). */
  records: Map<string, CrawlRecord>;
  /** URLs with more than one record across the shards (refetches after a lost lease or a kill). */
  repeated: string[];
  /** Each stored document's N-Triples lines, by graph (blank nodes made uniform). */
  docs: Map<string, string>;
}

export function explicitOf(o: CaseOptions, proxy: string, seeds: readonly string[], out: string): Partial<CrawlOptions> & { out: string } {
  return { strategy: 'bfs', ...o, seeds: [...seeds], out, proxy, allowPrivate: true, delayMs: 0, followRdfLinks: true };
}

/** The CLI flags of the same options (for a child process). */
export function argsOf(o: CaseOptions, proxy: string): string[] {
  const flags: string[] = ['--proxy', proxy, '--allow-private', '--delay-ms', '0', '--follow-rdf-links', '--json', '--quiet', ...(o.strategy === undefined ? ['--strategy', 'bfs'] : [])];
  const kebab = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== Number.POSITIVE_INFINITY) flags.push(`--${kebab(k)}`, String(v));
  return flags;
}

/** Runs an opened crawl to its end (or to `interrupt`), closes it. */
async function runOpened(crawler: Crawler, interrupt?: Interrupt, deadline?: AbortSignal): Promise<CrawlSummary> {
  const control = new CrawlControl();
  const abort = new AbortController();
  deadline?.addEventListener('abort', () => abort.abort(), { once: true });
  let seen = 0;
  try {
    return await crawler.run({
      control,
      signal: abort.signal,
      onRecord: () => {
        if (interrupt === undefined || ++seen !== interrupt.afterRecords) return;
        if (interrupt.kind === 'stop') control.stop();
        else if (interrupt.kind === 'signal') abort.abort();
        else interrupt.call?.();
      },
    });
  } finally {
    await crawler.close();
  }
}

/** One process, in this process. */
export async function runSingle(explicit: Partial<CrawlOptions> & { out: string }, interrupt?: Interrupt, deadline?: AbortSignal): Promise<CrawlSummary> {
  return runOpened(await Crawler.open(explicit), interrupt, deadline);
}

/**
 * One worker of the shared crawl in Redis at `redisUrl`, in this process (seeds given: it may create the crawl).
 * `onJoined` is called once it has joined the crawl and opened (from then on a Redis outage is the crawl's to ride
 * out; before it, a worker that cannot reach Redis refuses to start).
 */
export async function runRedisWorker(redisUrl: string, explicit: Partial<CrawlOptions> & { out: string }, interrupt?: Interrupt, leaseMs?: number, deadline?: AbortSignal, onJoined?: () => void): Promise<CrawlSummary> {
  const client = await connectRedis(redisUrl);
  try {
    const crawl = await joinSharedCrawl(client, redisUrl, explicit, leaseMs);
    const crawler = await Crawler.open(crawl.explicit, { coordination: redisCoordination(crawl) });
    onJoined?.();
    return await runOpened(crawler, interrupt, deadline);
  } finally {
    await closeRedis(client);
  }
}

/** Reads the shards' records and stored documents, merged. */
export async function readShards(dirs: readonly string[], summaries: CrawlSummary[]): Promise<ModeResult> {
  const all: Array<{ dir: string; record: CrawlRecord }> = [];
  const docs = new Map<string, string>();
  for (const dir of dirs) {
    const state = await openState(dir, { index: false });
    try {
      for await (const record of readRecords(state)) all.push({ dir, record });
      const chunks = new Map<string, string[]>();
      for await (const [key, value] of state.docs.iterator()) {
        const graph = String(key).slice(0, String(key).lastIndexOf('\u0000'));
        chunks.set(graph, [...(chunks.get(graph) ?? []), String(value)]);
      }
      for (const [graph, parts] of chunks) {
        if (!docs.has(graph)) docs.set(graph, parts.join('').replace(/_:\S+/g, '_:b').split('\n').filter(Boolean).sort().join('\n'));
      }
    } finally {
      await state.close();
    }
  }
  const merged = mergeRecords(all, dirs);
  const records = new Map<string, CrawlRecord>();
  for (const [url, r] of merged.byUrl) records.set(url, r.record);
  return { summaries, records, repeated: merged.repeated, docs };
}
