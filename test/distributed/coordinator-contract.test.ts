// The Coordinator contract: every stop condition ends a crawl the same way with the local coordinator (one process)
// and with the Redis one (workers on a real redis-server), with the same budgets spent exactly.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlSummary, StopReason } from '../../src/crawl-log/tally.ts';
import { connectRedis } from '../../src/distributed/redis/connect.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { absoluteTarget, startHttpServer } from '../helpers/http-server.ts';
import { type CaseWeb, startCaseWeb } from './differential/case-web.ts';
import { type CaseOptions, explicitOf, type Interrupt, readShards, runRedisWorker, runSingle } from './differential/crawl-modes.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';

let redis: RedisTestServer;
let admin: Redis;
let web: CaseWeb;
let calendarWeb: CaseWeb;
let waitingWeb: CaseWeb;
let tmp: string;
let n = 0;

const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  redis = await startRedisServer({ appendOnly: false });
  admin = await connectRedis(redis.url);
  web = await startCaseWeb({ seed: 1, sites: [12, 12], calendar: false, deadHost: false });
  calendarWeb = await startCaseWeb({ seed: 2, sites: [6, 6], calendar: true, deadHost: false });
  waitingWeb = await startWaitingWeb();
  tmp = folder.dir;
}, 60_000);

afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
  await web?.close();
  await calendarWeb?.close();
  await waitingWeb?.close();
});

/** Retry-After of `waitingWeb`'s one URL that answers 503 (s): far beyond the crawl's end. */
const RETRY_AFTER_S = 40;

/** A site of 8 documents in a chain (d0 → d1 → …) and a URL that answers 503 with a long Retry-After. */
async function startWaitingWeb(): Promise<CaseWeb> {
  const server = await startHttpServer((req, res) => {
    const target = absoluteTarget(req);
    if (target?.origin === 'http://busy.example') return res.writeHead(503, { 'retry-after': String(RETRY_AFTER_S), 'content-type': 'text/plain' }).end('busy');
    const doc = target === null ? null : /^\/d(\d)\.ttl$/.exec(target.pathname);
    if (target?.origin !== 'http://site.example' || doc === null) return res.writeHead(404).end();
    const next = Number(doc[1]) + 1;
    const link = next < 8 ? `<${target.href}> <http://www.w3.org/2000/01/rdf-schema#seeAlso> <http://site.example/d${next}.ttl> .\n` : '';
    res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<${target.href}> <http://purl.org/dc/terms/title> "d" .\n${link}`);
  });
  const seeds = ['http://site.example/d0.ttl', 'http://busy.example/later.ttl'];
  const onLiveExhausted = () => {
    throw new Error('not used by the contract');
  };
  return { proxy: server.origin, seeds, finite: [], deadOrigins: [], requests: () => server.requests.length, onLiveExhausted, childEnv: {}, close: () => server.close() };
}

interface Contract {
  name: string;
  web: () => CaseWeb;
  options: CaseOptions;
  interrupt?: Interrupt;
  /** The web (its own) goes down after 2 records: every later request fails at the connection level. */
  offline?: boolean;
  stoppedBy: StopReason;
  check?: (fetched: number, perPld: Map<string, number>) => void;
  /** Every process ends within this long (ms). */
  endsWithinMs?: number;
}

const CONTRACTS: Contract[] = [
  { name: 'max-docs', web: () => web, options: { maxDocs: 7 }, stoppedBy: 'max-docs', check: (f) => expect(f).toBe(7) },
  { name: 'max-docs-per-pld', web: () => web, options: { maxDocsPerPld: 5 }, stoppedBy: 'max-docs-per-pld', check: (f, p) => expect([f, ...p.values()]).toEqual([10, 5, 5]) },
  { name: 'max-depth', web: () => web, options: { maxDepth: 2 }, stoppedBy: 'max-depth', check: (f) => expect(f).toBeLessThan(24) },
  { name: 'frontier-empty', web: () => web, options: {}, stoppedBy: 'frontier-empty', check: (f) => expect(f).toBe(24) },
  {
    name: 'PLDs blocked by their budget with links left (an endless calendar)',
    web: () => calendarWeb,
    options: { maxDocsPerPld: 9, scope: 'open' },
    stoppedBy: 'max-docs-per-pld',
    check: (f, p) => expect([f, p.get('calendar.example')]).toEqual([6 + 6 + 9, 9]),
  },
  { name: 'dashboard stop', web: () => web, options: { concurrency: 1 }, interrupt: { kind: 'stop', afterRecords: 3 }, stoppedBy: 'stopped' },
  { name: 'signal', web: () => web, options: { concurrency: 1 }, interrupt: { kind: 'signal', afterRecords: 3 }, stoppedBy: 'signal' },
  { name: 'offline', web: () => web, options: { maxOfflineMs: 1500, concurrency: 1 }, offline: true, stoppedBy: 'offline', check: (f) => expect(f).toBe(2) },
  // The budget is spent while a URL waits 40 s for its Retry-After: nothing is left to do, so every process ends
  // then, not when the wait ends (a worker with budget left of its own looks at the shared end on its idle turns).
  {
    name: 'max-docs spent while a URL waits for a long Retry-After',
    web: () => waitingWeb,
    options: { maxDocs: 6, concurrency: 1 },
    stoppedBy: 'max-docs',
    check: (f) => expect(f).toBe(6),
    endsWithinMs: 20_000,
  },
];

function perPldOf(records: Iterable<{ pld: string; outcome: string }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of records) if (r.outcome !== 'denied') out.set(r.pld, (out.get(r.pld) ?? 0) + 1);
  return out;
}

/** Runs a contract with one implementation; returns the summaries and the merged reading. */
async function run(c: Contract, impl: 'local' | 'redis'): Promise<{ summaries: CrawlSummary[]; fetched: number; perPld: Map<string, number> }> {
  const w = c.offline === true ? await startCaseWeb({ seed: 3, sites: [12, 12], calendar: false, deadHost: false }) : c.web();
  const proxy = w.proxy;
  const interrupt: Interrupt | undefined = c.offline === true ? { kind: 'call', afterRecords: 2, call: () => void w.close() } : c.interrupt;
  const dirs = impl === 'local' ? [join(tmp, `c${++n}`)] : [join(tmp, `c${++n}a`), join(tmp, `c${n}b`)];
  let summaries: CrawlSummary[];
  if (impl === 'local') {
    summaries = [await runSingle(explicitOf(c.options, proxy, w.seeds, dirs[0] as string), interrupt)];
  } else {
    await admin.flushall();
    const url = redis.url;
    const first = await runRedisWorkerStarted(url, explicitOf(c.options, proxy, w.seeds, dirs[0] as string), interrupt);
    // A second worker joins (with no seeds nor options) unless the contract interrupts one: then one worker.
    const second = interrupt === undefined ? runRedisWorker(url, { out: dirs[1] as string }) : null;
    summaries = await Promise.all([first, ...(second ? [second] : [])]);
  }
  const read = await readShards(impl === 'local' || interrupt !== undefined ? dirs.slice(0, 1) : dirs, summaries);
  if (c.offline === true) await w.close();
  return { summaries, fetched: summaries.reduce((s, x) => s + x.fetched, 0), perPld: perPldOf(read.records.values()) };
}

/** Starts the first worker and resolves once it has created the crawl (so that the second may join it). */
async function runRedisWorkerStarted(url: string, explicit: Parameters<typeof runRedisWorker>[1], interrupt?: Interrupt): Promise<Promise<CrawlSummary>> {
  const running = runRedisWorker(url, explicit, interrupt);
  await until('the first worker to create the crawl in Redis', async () => (await admin.exists('rdfscout:{crawl}:meta')) === 1, 20_000, { everyMs: 20 });
  return running;
}

describe.each(['local', 'redis'] as const)('Coordinator contract: %s', (impl) => {
  it.each(CONTRACTS.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const t0 = performance.now();
    const { summaries, fetched, perPld } = await run(c, impl);
    if (c.endsWithinMs !== undefined) expect(performance.now() - t0).toBeLessThan(c.endsWithinMs);
    for (const s of summaries) expect(s.stoppedBy).toBe(c.stoppedBy);
    c.check?.(fetched, perPld);
  }, 60_000);
});
