// Issue 15: workers of one crawl shared through a real redis-server, as CLI child processes, on a simulated web.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlRecords } from '../helpers/crawl-records.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import type { ProbeSpec } from '../helpers/probes.ts';
import { runCli } from '../helpers/run-cli.ts';
import { mergedQuads, mergeRecords, shardRecords, startWorker, type WorkerProcess } from '../helpers/workers.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';

let redis: RedisTestServer;
let web: SimWeb;
let tmp: string;
let db = 0;
/** The one-process crawl of the whole web (LevelDB mode), breadth-first: what the workers together must equal. */
let single: { urls: string[]; quads: string[] };

/** A fresh Redis database per test: one crawl per database. */
const nextRedis = () => `${redis.url}/${++db}`;
const common = () => ['--proxy', web.proxyUrl, '--allow-private', '--delay-ms', '0', '--json', '--quiet'];
const seeds = () => web.sites.map((s) => s.startUrl);

const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  redis = await startRedisServer({ appendOnly: false });
  // Finite sites (no calendar trap): a budget of 5000 is larger than the web. 40 ms a response: every worker gets work.
  web = await startSimweb({ profiles: 'dbtune-like,ckan-like,museum-like,rossetti-like', seed: 7, scale: 0.02, crawlDelay: 0, latencyMs: 40 });
  tmp = folder.dir;
  const out = join(tmp, 'single');
  const records = await crawlRecords({ out, seeds: seeds(), proxy: web.proxyUrl, allowPrivate: true, delayMs: 0, maxDocs: 5000, strategy: 'bfs' });
  const merged = mergeRecords(records.map((record) => ({ dir: out, record })));
  single = { urls: [...merged.byUrl.keys()].sort(), quads: await mergedQuads(merged) };
}, 120_000);

afterAll(async () => {
  await web?.close();
  await redis?.stop();
});

/** Waits until the crawl exists in Redis (its first worker created it). */
async function created(url: string): Promise<void> {
  await until('the crawl to exist in Redis (status --redis answers)', async () => (await runCli(['status', '--redis', url, '--json'])).code === 0);
}

async function exitOf(w: WorkerProcess): Promise<number | null> {
  const code = await w.ended();
  if (code !== 0) process.stderr.write(`worker stderr: ${w.stderr()}\n`);
  return code;
}

/** Three workers: the first creates the crawl (with seeds and options), the others join it with none. */
async function threeWorkers(url: string, dirs: string[], extra: string[] = [], probes: ProbeSpec[] = [{}, {}, {}]): Promise<WorkerProcess[]> {
  const first = startWorker([...seeds(), '--redis', url, '--out', dirs[0] as string, ...common(), '--strategy', 'bfs', '--max-docs', '5000', ...extra], probes[0]);
  await created(url);
  return [first, ...dirs.slice(1).map((d, i) => startWorker(['--redis', url, '--out', d, '--json', '--quiet'], probes[i + 1]))];
}

describe('rdfscout crawl --redis (workers)', () => {
  it('three workers together crawl what one process crawls: every URL once, the same quads', async () => {
    const url = nextRedis();
    const dirs = ['a', 'b', 'c'].map((n) => join(tmp, `t1-${n}`));
    const first = startWorker([...seeds(), '--redis', url, '--out', dirs[0] as string, ...common(), '--strategy', 'bfs', '--max-docs', '5000', '--lease-ms', '2000']);
    // The others join with no seeds and no options: the crawl's stored ones.
    const status = async () => JSON.parse((await runCli(['status', '--redis', url, '--json'])).stdout);
    await created(url);
    const others = dirs.slice(1).map((d) => startWorker(['--redis', url, '--out', d, '--json', '--quiet']));
    const workers = [first, ...others];
    expect(await Promise.all(workers.map(exitOf))).toEqual([0, 0, 0]);
    const summaries = workers.map((w) => JSON.parse(w.stdout()));
    for (const s of summaries) expect(s).toMatchObject({ stoppedBy: 'frontier-empty', refetched: 0 });
    const all = await shardRecords(dirs);
    const urls = all.map((r) => r.record.url);
    expect(new Set(urls).size).toBe(urls.length); // every URL once, across the shards
    expect([...urls].sort()).toEqual(single.urls);
    expect(await mergedQuads(mergeRecords(all))).toEqual(single.quads);
    expect(summaries.reduce((n, s) => n + s.fetched, 0)).toBe(all.filter((r) => r.record.outcome !== 'denied').length);
    // Every worker took part, and the shared status counts what they did.
    for (const s of summaries) expect(s.fetched).toBeGreaterThan(0);
    const st = await status();
    expect(st).toMatchObject({ queued: 0, inFlight: 0, refetched: 0 });
    expect(st.workers).toHaveLength(3);
    expect(st.workers.reduce((n: number, w: { fetched: number }) => n + w.fetched, 0)).toBe(st.fetched);
  }, 180_000);

  it('a worker killed (SIGKILL) before a fetch, during one and after storing but before releasing loses nothing', async () => {
    const url = nextRedis();
    const dirs = ['a', 'b', 'c'].map((n) => join(tmp, `t2-${n}`));
    // The victim crawls alone while it is killed and restarted: with the others already running, they could empty the
    // frontier before a restarted victim reached its pause point (CI saw it exit 0 there under load). Each restart
    // reclaims what its killed predecessor held once the lease has expired.
    let victim = startWorker([...seeds(), '--redis', url, '--out', dirs[0] as string, ...common(), '--strategy', 'bfs', '--max-docs', '5000', '--lease-ms', '600'], { pauseAt: 'before-fetch:5' });
    const points: string[] = [];
    for (const next of ['during-fetch:2', 'before-release:2', '']) {
      points.push(((await victim.waitFor(/RDFSCOUT_TEST_PAUSED (\S+) (\S+)/)) as RegExpExecArray)[1] as string);
      victim.child.kill('SIGKILL');
      await victim.ended('the killed worker to exit');
      // Restarted on its shard (joining with the stored options), stopped again at the next point.
      victim = startWorker(['--redis', url, '--out', dirs[0] as string, '--json', '--quiet'], next === '' ? undefined : { pauseAt: next });
    }
    expect(points).toEqual(['before-fetch', 'during-fetch', 'before-release']);
    // The others join for the rest of the crawl, beside the last restart.
    const [b, c] = dirs.slice(1).map((d) => startWorker(['--redis', url, '--out', d, '--json', '--quiet'])) as [WorkerProcess, WorkerProcess];
    expect(await Promise.all([victim, b, c].map(exitOf))).toEqual([0, 0, 0]);
    const all = await shardRecords(dirs);
    const merged = mergeRecords(all);
    expect([...merged.byUrl.keys()].sort()).toEqual(single.urls); // nothing lost, each URL once in the merged reading
    expect(await mergedQuads(merged)).toEqual(single.quads);
    // The URL stored before its release was handed out again after the lease expired: one refetch at least.
    const st = JSON.parse((await runCli(['status', '--redis', url, '--json'])).stdout);
    expect(st.refetched).toBeGreaterThanOrEqual(1);
    // Each URL with more than one record was handed out again after a lost lease. `refetched` counts URLs (as the
    // merged reading's figure does), not records: a URL lost twice, each time after its record was stored (killed
    // before the release, then again), has three records and counts once — a full run under load had 6 extra records
    // for 5 refetched URLs.
    expect(merged.repeated.length).toBeLessThanOrEqual(st.refetched);
  }, 240_000);

  it('a worker stopped (SIGSTOP) past its lease has its late release refused: as if it never fetched', async () => {
    const url = nextRedis();
    const dirs = ['a', 'b', 'c'].map((n) => join(tmp, `t3-${n}`));
    const [a, b, c] = await threeWorkers(url, dirs, ['--lease-ms', '500'], [{ pauseAt: 'before-release:6' }, {}, {}]) as [WorkerProcess, WorkerProcess, WorkerProcess];
    const paused = await a.waitFor(/RDFSCOUT_TEST_PAUSED before-release (\S+)/);
    const stopped = paused[1] as string;
    // Its lease expires and another worker reclaims it; wait until the URL is fetched again elsewhere.
    const deadline = Date.now() + 60_000;
    let refetched = 0;
    while (refetched === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      refetched = JSON.parse((await runCli(['status', '--redis', url, '--json'])).stdout).refetched;
    }
    expect(refetched).toBeGreaterThanOrEqual(1);
    a.child.kill('SIGCONT');
    expect(await Promise.all([a, b, c].map(exitOf))).toEqual([0, 0, 0]);
    const all = await shardRecords(dirs);
    // The stopped worker's record of that URL was voided: only the refetch counts.
    expect(all.filter((r) => r.record.url === stopped).map((r) => r.dir)).not.toContain(dirs[0]);
    const urls = all.map((r) => r.record.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect([...urls].sort()).toEqual(single.urls);
    expect(await mergedQuads(mergeRecords(all))).toEqual(single.quads);
    // Counts as if it had never fetched: the shared budget spent equals the records the shards keep.
    const st = JSON.parse((await runCli(['status', '--redis', url, '--json'])).stdout);
    expect(st.fetched).toBe(all.filter((r) => r.record.outcome !== 'denied').length);
    const summaries = [a, b, c].map((w) => JSON.parse(w.stdout()));
    expect(summaries.reduce((n, s) => n + s.fetched, 0)).toBe(st.fetched);
  }, 240_000);

  it('a focused crawl (fc-r+hr) with three workers finds at least 0.8 × the RDF documents of one process at the same fetches', async () => {
    // Learning matters here: a web where RDF hides behind HTML pages, and a budget far below its size.
    // Measured on this web at 240 fetches (2026-11-29, load 6–15): one process 79–85 RDF documents from run to run,
    // three workers 76–90 (10 runs), bfs 36–40; in full-suite runs 76 vs 85 and 73 vs 83. The ratio of two single runs
    // carries both runs' noise (0.88–1.09 seen), so the bound is 0.8: what it guards is the focus surviving the
    // split across workers (a crawl that learned nothing, bfs, finds ~0.45 of one focused process).
    const focusedWeb = await startSimweb({ profiles: 'openlylocal-like,deri-like,rossetti-like,dbtune-like', seed: 1, scale: 0.1, crawlDelay: 0, latencyMs: 20 });
    try {
      const budget = 240;
      const opts = ['--proxy', focusedWeb.proxyUrl, '--allow-private', '--delay-ms', '0', '--json', '--quiet', '--strategy', 'fc-r+hr', '--max-docs', String(budget)];
      const starts = focusedWeb.sites.map((s) => s.startUrl);
      const one = await runCli(['crawl', ...starts, '--out', join(tmp, 't5-single'), ...opts]);
      expect(one.code).toBe(0);
      const url = nextRedis();
      const dirs = ['a', 'b', 'c'].map((n) => join(tmp, `t5-${n}`));
      const first = startWorker([...starts, '--redis', url, '--out', dirs[0] as string, ...opts]);
      await created(url);
      const workers = [first, ...dirs.slice(1).map((d) => startWorker(['--redis', url, '--out', d, '--json', '--quiet']))];
      expect(await Promise.all(workers.map(exitOf))).toEqual([0, 0, 0]);
      const summaries = workers.map((w) => JSON.parse(w.stdout()));
      for (const s of summaries) expect(s.stoppedBy).toBe('max-docs');
      const fetched = summaries.reduce((n, s) => n + s.fetched, 0);
      expect(fetched).toBe(budget); // the budget is shared: spent once across workers
      const rdf = summaries.reduce((n, s) => n + s.rdfDocuments, 0);
      const single = JSON.parse(one.stdout);
      expect(single.fetched).toBe(budget);
      expect(rdf).toBeGreaterThanOrEqual(0.8 * single.rdfDocuments);
      process.stderr.write(`focused: 3 workers ${rdf} RDF documents, one process ${single.rdfDocuments}, at ${budget} fetches\n`);
    } finally {
      await focusedWeb.close();
    }
  }, 240_000);

  it('refuses to start when Redis is unreachable (exit 1, nothing written) and a worker with conflicting options (exit 2)', async () => {
    const out = join(tmp, 't4-none');
    const down = await runCli(['crawl', ...seeds(), '--redis', 'redis://127.0.0.1:1', '--out', out, ...common()]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('Cannot use Redis at redis://127.0.0.1:1');
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
    const url = nextRedis();
    const noSeeds = await runCli(['crawl', '--redis', url, '--out', join(tmp, 't4-a'), '--quiet']);
    expect(noSeeds.code).toBe(2);
    expect(noSeeds.stderr).toContain('no crawl in Redis');
    const created = await runCli(['crawl', ...seeds(), '--redis', url, '--out', join(tmp, 't4-a'), ...common(), '--strategy', 'bfs', '--max-docs', '3']);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ fetched: 3, stoppedBy: 'max-docs' });
    const conflict = await runCli(['crawl', '--redis', url, '--out', join(tmp, 't4-b'), '--strategy', 'fc-r+hr', '--quiet']);
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toMatch(/runs with --strategy bfs; this worker asks for fc-r\+hr/);
    await expect(stat(join(tmp, 't4-b'))).rejects.toThrow(/ENOENT/);
    // A joiner of a spent crawl ends at once, with the shared reason.
    const late = await runCli(['crawl', '--redis', url, '--out', join(tmp, 't4-c'), '--json', '--quiet']);
    expect(late.code).toBe(0);
    expect(JSON.parse(late.stdout)).toMatchObject({ fetched: 0, stoppedBy: 'max-docs' });
  }, 120_000);
});
