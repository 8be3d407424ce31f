// Workers of a shared crawl end when it is over, with the reason one process gives: a per-PLD budget spent with links
// left, the total budget, nothing left within --max-depth; a late joiner and `status --redis` see the end; a larger
// budget continues it. Real CLI processes, one real redis-server, a simulated web larger than the budgets.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { shardRecords, startWorker, type WorkerProcess } from '../helpers/workers.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';

let redis: RedisTestServer;
let web: SimWeb;
let tmp: string;
let db = 0;
const nextRedis = () => `${redis.url}/${++db}`;
const seeds = () => web.sites.map((s) => s.startUrl);
const common = () => ['--proxy', web.proxyUrl, '--allow-private', '--delay-ms', '0', '--json', '--quiet', '--strategy', 'bfs'];

const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  redis = await startRedisServer({ appendOnly: false });
  // Two PLDs of a few hundred pages each: far more than the per-PLD budgets below.
  web = await startSimweb({ profiles: 'dbtune-like,museum-like', seed: 3, scale: 0.02, crawlDelay: 0 });
  tmp = folder.dir;
}, 60_000);

afterAll(async () => {
  await web?.close();
  await redis?.stop();
});

/** The exit code of a worker, or a failure naming it and what it printed when it has not ended within `ms`. */
function ended(w: WorkerProcess, what: string, ms = 60_000): Promise<number | null> {
  return w.ended(`${what} to end (it may wait forever)`, ms);
}

/** Waits until the crawl exists in Redis (its first worker created it). */
async function created(url: string, ms = 30_000): Promise<void> {
  await until(`the crawl in Redis at ${url} to be created`, async () => (await runCli(['status', '--redis', url, '--json'])).code === 0, ms);
}

async function status(url: string): Promise<{ text: string; json: Record<string, unknown> }> {
  const text = await runCli(['status', '--redis', url]);
  const json = await runCli(['status', '--redis', url, '--json']);
  return { text: text.stdout, json: JSON.parse(json.stdout) };
}

describe('a shared crawl ends as one process ends', () => {
  it('--max-docs-per-pld: two workers end with max-docs-per-pld, exit 0, the budget spent exactly; a late joiner ends at once; a larger budget continues', async () => {
    const one = await runCli(['crawl', ...seeds(), '--out', join(tmp, 'single'), ...common(), '--max-docs-per-pld', '12']);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ stoppedBy: 'max-docs-per-pld', fetched: 24 });

    const url = nextRedis();
    const dirs = ['a', 'b'].map((n) => join(tmp, `pld-${n}`));
    const first = startWorker([...seeds(), '--redis', url, '--out', dirs[0] as string, ...common(), '--max-docs-per-pld', '12']);
    await created(url);
    const second = startWorker(['--redis', url, '--out', dirs[1] as string, '--json', '--quiet']);
    expect(await ended(first, 'the first worker')).toBe(0);
    expect(await ended(second, 'the joining worker')).toBe(0);
    const summaries = [first, second].map((w) => JSON.parse(w.stdout()));
    for (const s of summaries) expect(s.stoppedBy).toBe('max-docs-per-pld');
    expect(summaries[0].fetched + summaries[1].fetched).toBe(24);
    const perPld = new Map<string, number>();
    for (const { record } of await shardRecords(dirs)) if (record.outcome !== 'denied') perPld.set(record.pld, (perPld.get(record.pld) ?? 0) + 1);
    expect([...perPld.values()]).toEqual([12, 12]);

    const st = await status(url);
    expect(st.json).toMatchObject({ fetched: 24, inFlight: 0, over: 'max-docs-per-pld' });
    expect(st.text).toContain('crawl over: max-docs-per-pld');

    // A worker joining the finished crawl says so and ends at once, fetching nothing.
    const late = startWorker(['--redis', url, '--out', join(tmp, 'pld-c'), '--json']);
    expect(await ended(late, 'a worker joining the finished crawl', 20_000)).toBe(0);
    expect(JSON.parse(late.stdout())).toMatchObject({ fetched: 0, stoppedBy: 'max-docs-per-pld' });
    expect(late.stderr()).toMatch(/The crawl in Redis .* is over \(max-docs-per-pld\)/);

    // A larger budget continues it: 6 more a PLD, then over again.
    const more = startWorker(['--redis', url, '--out', join(tmp, 'pld-d'), '--json', '--quiet', '--max-docs-per-pld', '18']);
    expect(await ended(more, 'the worker resuming with a larger budget')).toBe(0);
    expect(JSON.parse(more.stdout())).toMatchObject({ fetched: 12, stoppedBy: 'max-docs-per-pld' });
    expect((await status(url)).json).toMatchObject({ fetched: 36, over: 'max-docs-per-pld' });
  }, 180_000);

  it('--max-depth: workers end with max-depth, as one process', async () => {
    const one = await runCli(['crawl', ...seeds(), '--out', join(tmp, 'depth-single'), ...common(), '--max-depth', '1']);
    expect(one.code).toBe(0);
    const single = JSON.parse(one.stdout);
    expect(single.stoppedBy).toBe('max-depth');
    const url = nextRedis();
    const first = startWorker([...seeds(), '--redis', url, '--out', join(tmp, 'depth-a'), ...common(), '--max-depth', '1']);
    await created(url);
    const second = startWorker(['--redis', url, '--out', join(tmp, 'depth-b'), '--json', '--quiet']);
    expect(await ended(first, 'the first worker')).toBe(0);
    expect(await ended(second, 'the joining worker')).toBe(0);
    expect(JSON.parse(first.stdout())).toMatchObject({ stoppedBy: 'max-depth' });
    expect(JSON.parse(second.stdout())).toMatchObject({ stoppedBy: 'max-depth' });
    expect((await status(url)).json).toMatchObject({ fetched: single.fetched, over: 'max-depth' });
  }, 120_000);
});
