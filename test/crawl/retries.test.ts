// Failures are retried: a server that goes away and comes back pauses the crawl instead of burning
// its budget; a crawl that stays offline stops, and its resume fetches what failed; --retry-failed re-queues final
// failures; a robots.txt that could not be fetched is asked for again.
import { createServer, } from 'node:http';
import type { AddressInfo, } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../src/crawl/options.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { Fetcher } from '../../src/fetch/fetcher.ts';
import type { OutageEvent } from '../../src/fetch/outage.ts';
import { FlakySite } from '../helpers/flaky-site.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const PAGES = 12;

let dir: string;
let n = 0;
const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  dir = folder.dir;
});

function options(site: FlakySite, more: Partial<CrawlOptions> = {}): Partial<CrawlOptions> & { out: string } {
  return { out: join(dir, `c${n++}`), seeds: [`${site.origin}/`], strategy: 'bfs', allowPrivate: true, delayMs: 0, concurrency: 2, hostConcurrency: 2, maxDocs: 100, connectTimeoutMs: 1000, ...more };
}

async function recordsOf(crawler: Crawler): Promise<CrawlRecord[]> {
  const out: CrawlRecord[] = [];
  for await (const r of readRecords(crawler.state)) out.push(r);
  return out;
}

describe('a server that goes away and comes back', () => {
  it('pauses the crawl (and says so) instead of spending the budget on connection failures, then finishes', async () => {
    const site = new FlakySite(PAGES);
    await site.up();
    const crawler = await Crawler.open(options(site, { maxDocs: 100 }));
    const events: OutageEvent[] = [];
    let wentDown = false;
    try {
      const summary = await crawler.run({
        onRecord: ({ tally }) => {
          if (!wentDown && tally.fetched >= 3) {
            wentDown = true;
            void site.down().then(() => setTimeout(() => void site.up(), 2500));
          }
        },
        onOutage: (e) => events.push(e),
      });
      const records = await recordsOf(crawler);
      expect(wentDown).toBe(true);
      expect(events[0]?.kind).toBe('paused');
      expect(events.at(-1)?.kind).toBe('resumed');
      // Every document was fetched once the server came back, and no fetch was spent on the outage.
      expect(records.filter((r) => r.outcome === 'ok')).toHaveLength(PAGES + 1);
      expect(records.filter((r) => r.outcome === 'failed')).toEqual([]);
      expect(summary.fetched).toBe(PAGES + 1);
      expect(summary.stoppedBy).toBe('frontier-empty');
    } finally {
      await crawler.close();
      await site.down();
    }
  }, 60_000);

  it('two sites that answered, both gone at once, pause the crawl (the other origin asked fails too); both back, it finishes', async () => {
    const a = new FlakySite(PAGES);
    const b = new FlakySite(PAGES);
    await a.up();
    await b.up();
    const crawler = await Crawler.open({ ...options(a), seeds: [`${a.origin}/`, `http://localhost:${b.port}/`] });
    const events: OutageEvent[] = [];
    let wentDown = false;
    try {
      const summary = await crawler.run({
        onRecord: ({ tally }) => {
          if (!wentDown && tally.fetched >= 4) {
            wentDown = true;
            void Promise.all([a.down(), b.down()]).then(() => setTimeout(() => void Promise.all([a.up(), b.up()]), 2500));
          }
        },
        onOutage: (e) => events.push(e),
      });
      const records = await recordsOf(crawler);
      expect(wentDown).toBe(true);
      expect(events[0]?.kind).toBe('paused');
      expect(events.at(-1)?.kind).toBe('resumed');
      expect(records.filter((r) => r.outcome === 'failed')).toEqual([]);
      expect(records.filter((r) => r.outcome === 'ok')).toHaveLength(2 * (PAGES + 1));
      expect(summary.deadOrigins).toBeUndefined();
    } finally {
      await crawler.close();
      await a.down();
      await b.down();
    }
  }, 60_000);

  it('stops after --max-offline-ms with what failed still queued; the resume fetches it', async () => {
    const site = new FlakySite(PAGES);
    await site.up();
    const opts = options(site, { maxOfflineMs: 1500 });
    const first = await Crawler.open(opts);
    let summary: Awaited<ReturnType<Crawler['run']>>;
    try {
      summary = await first.run({
        onRecord: ({ tally }) => {
          if (tally.fetched === 1) void site.down(); // after the home page: every document link fails
        },
      });
      expect(summary.stoppedBy).toBe('offline');
      expect((await recordsOf(first)).filter((r) => r.outcome === 'failed')).toEqual([]);
    } finally {
      await first.close();
    }
    await site.up();
    const resumed = await Crawler.open({ out: opts.out });
    try {
      const again = await resumed.run();
      expect(again.stoppedBy).toBe('frontier-empty');
      const records = await recordsOf(resumed);
      expect(records.filter((r) => r.outcome === 'ok')).toHaveLength(PAGES + 1);
    } finally {
      await resumed.close();
      await site.down();
    }
  }, 60_000);
});

describe('--retry-failed', () => {
  it('queues again, on a resume, the URLs whose last fetch failed after its retries', async () => {
    const site = new FlakySite(PAGES);
    await site.up();
    site.resetOnce.add('/d3.ttl');
    const opts = options(site, { maxRetries: 0 });
    const first = await Crawler.open(opts);
    try {
      await first.run();
      const failed = (await recordsOf(first)).filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => [new URL(r.url).pathname, r.error])).toEqual([['/d3.ttl', 'RDFSCOUT_CONNECTION_FAILED']]);
    } finally {
      await first.close();
    }
    const plain = await Crawler.open({ out: opts.out });
    try {
      expect((await plain.run()).fetched).toBe(PAGES + 1); // a resume alone does not refetch a final failure
    } finally {
      await plain.close();
    }
    const retry = await Crawler.open({ out: opts.out, retryFailed: true });
    try {
      await retry.run();
      const records = await recordsOf(retry);
      const d3 = records.filter((r) => r.url.endsWith('/d3.ttl'));
      expect(d3.map((r) => r.outcome)).toEqual(['failed', 'ok']);
      expect(records).toHaveLength(PAGES + 2);
    } finally {
      await retry.close();
    }
    // The request is not stored: the next resume does not re-queue anything.
    const after = await Crawler.open({ out: opts.out });
    try {
      expect(after.options.retryFailed).toBe(false);
    } finally {
      await after.close();
      await site.down();
    }
  }, 60_000);
});

describe('robots.txt that could not be fetched', () => {
  it('is asked for again after the retry interval, and a failure says when', async () => {
    let robotsAnswers = 0;
    const server = createServer((req, res) => {
      if (req.url === '/robots.txt') {
        robotsAnswers += 1;
        return robotsAnswers === 1 ? res.writeHead(503).end() : res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
      }
      res.writeHead(200, { 'content-type': 'text/turtle' }).end('<http://x.example/a> <http://x.example/p> "1" .\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetcher = new Fetcher({ allowPrivate: true, robotsRetryMs: 200 });
    try {
      const first = await fetcher.fetch(`${origin}/a.ttl`);
      expect(first).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_ROBOTS_UNAVAILABLE', retryable: true, connection: false });
      expect(first.kind === 'failed' && first.retryAfterMs).toBeGreaterThan(0);
      expect(first.kind === 'failed' && (first.retryAfterMs ?? 0) <= 200).toBe(true);
      await new Promise((r) => setTimeout(r, 250));
      const second = await fetcher.fetch(`${origin}/a.ttl`);
      expect(second.kind).toBe('ok');
      expect(robotsAnswers).toBe(2);
    } finally {
      await fetcher.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('a robots.txt on a host that refuses connections is a connection-level failure', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const fetcher = new Fetcher({ allowPrivate: true });
    try {
      const r = await fetcher.fetch(`http://127.0.0.1:${port}/x`);
      expect(r).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_ROBOTS_UNAVAILABLE', connection: true });
    } finally {
      await fetcher.close();
    }
  });
});
