// Faults of the Redis worker mode with real servers: Redis unreachable at start, Redis killed and
// restarted from its AOF mid-crawl, Redis lost while a document is being fetched.
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHARED_CRAWL_NAME } from '../../../src/distributed/redis/crawl-registry.ts';
import { connectRedis } from '../../../src/distributed/redis/connect.ts';
import { crawlKeys } from '../../../src/distributed/redis/keys.ts';
import { type SimWeb, startSimweb } from '../../../src/simweb/index.ts';
import { freePort } from '../../helpers/free-port.ts';
import { startHttpServer, type TestServer } from '../../helpers/http-server.ts';
import { type RedisTestServer, startRedisServer } from '../../helpers/redis-server.ts';
import { until } from '../../helpers/until.ts';
import { allExitZero, type MergedCrawl, mergedQuads, mergeShards, startRedisWorker } from '../../helpers/workers.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});

describe('Redis unreachable at start', () => {
  let site: TestServer;
  beforeEach(async () => {
    site = await startHttpServer((_req, res) => res.end('<a href="/x">x</a>'));
  });
  afterEach(async () => {
    await site.close();
  });

  it('a new crawl: a clear error naming the URL, exit code 1, no folder written, no request sent', async () => {
    const port = await freePort(); // nothing listens there
    const out = join(dir, 'never');
    const r = await runCli(['crawl', `${site.origin}/`, '--allow-private', '--redis', `redis://127.0.0.1:${port}/2`, '--out', out, '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`redis://127.0.0.1:${port}/2`);
    expect(r.stderr).toMatch(/Redis/);
    expect(existsSync(out)).toBe(false);
    expect(site.requests).toEqual([]);
  });

  it('joining: an empty --out folder stays empty; a password in the URL is never printed', async () => {
    const port = await freePort();
    const out = join(dir, 'empty');
    await mkdir(out);
    const r = await runCli(['crawl', '--redis', `redis://:hunter2@127.0.0.1:${port}`, '--out', out, '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`127.0.0.1:${port}`);
    expect(`${r.stdout}${r.stderr}`).not.toContain('hunter2');
    expect(await readdir(out)).toEqual([]);
  });
});

/** Three sites of the simulated web with no calendar trap: a bounded web that a budget larger than it crawls whole. */
const BOUNDED = { profiles: 'dbtune-like,openlylocal-like,rossetti-like', seed: 4, scale: 0.02, slowMs: 0 };

describe('Redis killed and restarted from its AOF mid-crawl', () => {
  let web: SimWeb;
  beforeEach(async () => {
    web = await startSimweb({ ...BOUNDED, latencyMs: 20, logRequests: true });
  });
  afterEach(async () => {
    await web.close();
  });

  const args = () => [...web.sites.map((s) => s.startUrl), '--proxy', web.proxyUrl, '--strategy', 'bfs', '--max-docs', '100000', '--delay-ms', '0', '--concurrency', '4'];

  async function crawlWithTwoWorkers(name: string, midCrawl?: (redis: RedisTestServer) => Promise<void>): Promise<MergedCrawl> {
    const redis = await startRedisServer();
    try {
      const outs = [join(dir, `${name}-a`), join(dir, `${name}-b`)];
      const workers = outs.map((out) => startRedisWorker(redis.url, out, args()));
      if (midCrawl) {
        await until('100 requests to the web', async () => web.requestLog().length >= 100, 60_000);
        await midCrawl(redis);
        expect(workers.every((w) => w.running())).toBe(true); // they paused; none gave up
      }
      await allExitZero(workers);
      return await mergeShards(outs);
    } finally {
      await redis.stop();
    }
  }

  it('workers pause while Redis is down, reconnect, and the crawl ends with the result of an uninterrupted one', async () => {
    const reference = await crawlWithTwoWorkers('calm');
    web.clearRequestLog();
    let pausedRequests = -1;
    const result = await crawlWithTwoWorkers('storm', async (redis) => {
      await redis.kill(); // SIGKILL: a crash; the AOF (appendfsync always) keeps every acknowledged write
      // Fetches in flight finish; then no lease can be taken: nothing starts until Redis is back.
      await sleep(1000);
      const before = web.requestLog().length;
      await sleep(1500);
      pausedRequests = web.requestLog().length - before;
      await redis.restart();
    });
    expect(pausedRequests).toBe(0);
    expect(reference.byUrl.size).toBeGreaterThan(300);
    expect([...result.byUrl.keys()].sort()).toEqual([...reference.byUrl.keys()].sort());
    expect(result.repeated).toEqual([]);
    const [quads, referenceQuads] = [await mergedQuads(result), await mergedQuads(reference)];
    expect(quads.length).toBe(referenceQuads.length);
    expect(quads).toEqual(referenceQuads);
  }, 300_000);
});

describe('Redis lost while a document is being fetched', () => {
  let site: TestServer;
  let arrived: () => void;
  let slowArrived: Promise<void>;
  let openGate: () => void;
  const TTL = '@prefix ex: <http://example.org/> .\nex:a ex:p ex:b .\nex:b ex:p ex:c .\nex:c ex:p "slow" .\n';
  beforeEach(async () => {
    slowArrived = new Promise((r) => {
      arrived = r;
    });
    const gate = new Promise<void>((r) => {
      openGate = r;
    });
    site = await startHttpServer(async (req, res) => {
      const path = req.url ?? '/';
      if (path === '/') {
        const links = ['/slow.ttl', ...Array.from({ length: 8 }, (_, i) => `/p${i}.html`)];
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html><body>${links.map((l) => `<a href="${l}">RDF ${l}</a>`).join(' ')}</body></html>`);
      } else if (path === '/slow.ttl') {
        arrived();
        await gate;
        res.writeHead(200, { 'content-type': 'text/turtle' });
        res.end(TTL);
      } else if (/^\/p\d\.html$/.test(path)) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body><a href="/">home</a></body></html>');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
  });
  afterEach(async () => {
    openGate?.();
    await site.close();
  });

  it('the document fetched meanwhile is kept in the shard, and its URL is not fetched again after reconnecting', async () => {
    const redis = await startRedisServer();
    let joined = 0;
    try {
      const outs = [join(dir, 'a'), join(dir, 'b')];
      const args = [`${site.origin}/`, '--allow-private', '--strategy', 'bfs', '--delay-ms', '0', '--concurrency', '2', '--max-docs', '1000'];
      const workers = outs.map((out) => startRedisWorker(redis.url, out, args));
      await slowArrived;
      // Both workers must have joined before Redis goes (one still connecting would rightly fail: "unreachable at
      // start"). A worker's first claim heartbeats it into the workers' set.
      const probe = await connectRedis(redis.url);
      try {
        const workersKey = crawlKeys(SHARED_CRAWL_NAME).workers;
        await until('both workers to join (a claim each)', async () => (joined = await probe.zcard(workersKey)) >= 2, 120_000);
      } finally {
        probe.disconnect();
      }
      await redis.kill();
      await sleep(500);
      openGate(); // the response arrives while Redis is down: the worker stores it, its release waits
      await sleep(1500);
      expect(workers.every((w) => w.running())).toBe(true);
      await redis.restart();
      await allExitZero(workers);
      const slowRequests = site.requests.filter((r) => r.url === '/slow.ttl');
      expect(slowRequests).toHaveLength(1);
      const merged = await mergeShards(outs);
      expect(merged.repeated).toEqual([]);
      const slow = merged.byUrl.get(`${site.origin}/slow.ttl`);
      expect(slow?.record.status).toBe(200);
      expect(slow?.record.triples).toBe(3);
      expect((await mergedQuads(merged)).filter((q) => q.endsWith(`<${site.origin}/slow.ttl> .`))).toHaveLength(3);
      expect(merged.byUrl.size).toBe(1 + 1 + 8); // home, slow.ttl, p0..p7
    } finally {
      await redis.stop();
    }
  }, 180_000);
});

describe('Redis lost for good mid-crawl', () => {
  let site: TestServer;
  beforeEach(async () => {
    // An endless site, slow enough that the crawl is still running when Redis goes.
    site = await startHttpServer((req, res) => {
      const n = Number(/\/p(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="/p${n + 1}">next</a> <a href="/p${n + 2}">skip</a>`), 50);
    });
  });
  afterEach(async () => {
    await site.close();
  });

  it('a worker waits for it up to --max-offline-ms, then stops with exit 1 and says why (it never waits forever)', async () => {
    const redis = await startRedisServer({ appendOnly: false });
    try {
      const worker = startRedisWorker(redis.url, join(dir, 'lost'), [`${site.origin}/p0`, '--allow-private', '--delay-ms', '0', '--concurrency', '2', '--max-offline-ms', '2000']);
      await until('the worker to fetch 5 pages', () => site.requests.length >= 5, 60_000, { seen: () => worker.stderr().slice(-500) });
      await redis.kill();
      const lostAt = Date.now();
      const code = await worker.ended('the worker to give up the lost Redis', 60_000);
      expect(code, worker.stderr()).toBe(1);
      expect(Date.now() - lostAt).toBeGreaterThanOrEqual(2000); // it waited as long as asked
      expect(worker.stderr()).toMatch(/Lost Redis at redis:\/\/127\.0\.0\.1:\d+ for \d+ s \(.*\), longer than --max-offline-ms: this worker stopped/);
    } finally {
      await redis.stop();
    }
  }, 120_000);
});
