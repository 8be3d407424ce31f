// **distributed** measures the Redis worker mode on a latency-bound simulated web: pages/s with 1, 2 and 4
// workers and the speed-up vs N (goal ≥ 0.8 × N), CPU per page of a Redis worker vs the LevelDB mode (goal ≤ 1.3×),
// and Redis operations per page (INFO commandstats). Every crawl is a CLI child process (`rdfscout crawl … --redis
// URL --out DIR`), against one real redis-server (no AOF) and one simulated web in its own process.
// Run: npm run bench:distributed [-- --workers 1,2,4 --pages 3000 --copies 130 --latency-ms 100 --concurrency 8
//      --delay-ms 200 --json FILE --no-boost --modes leveldb,redis --cpu-prof DIR]
// `--modes`: which of the LevelDB mode and the Redis workers to run (default both). `--paired N`: instead, N times,
// one LevelDB crawl and one Redis worker run at the same time (each with the budget, into its own folder): both
// see the same load from other work, so their CPU per page compare well on a shared machine (the ratio's goal); each
// pair also prints the Redis script calls a page (the worker's round trips) and the kB a page sent to and from Redis.
// `--paired N --against DIR`: instead of the LevelDB crawl, a Redis worker of the checkout in DIR (e.g. `git archive`
// of an older commit, its node_modules linked) on its own crawl in Redis db 1: this code's worker vs that one's, side
// by side (a change of a few % is lost in the noise of two pairs' ratios). `--cpu-prof DIR`: each crawl
// process writes a V8 CPU profile (node's --cpu-prof) to DIR/MODE-N/, to compare self-time by function (its samples
// are wall-clock: time the process waits off the CPU inside a call, e.g. a socket write that wakes redis-server, is
// counted; `perf record` with `--child-node-options --perf-basic-prof` counts CPU time only).
// Method: the web is the thesis profile at scale 0.01, served `--copies` times (130 → 520 PLDs), each response held
// `--latency-ms`. All runs crawl breadth-first with the same shared budget (`--max-docs`, counted once across
// workers). pages/s = pages fetched (sum of the workers' `fetched`) / the span from the first request the web saw
// to the last response it wrote (process start-up and shutdown are left out; they are in `wall`). CPU per page:
// user + system time of the crawl processes, start-up included, / pages.
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { CRAWL_USAGE } from '../src/commands/crawl.ts';
import { connectRedis } from '../src/distributed/redis/connect.ts';
import { startRedisServer } from '../test/helpers/redis-server.ts';
import { askChild, webCpuMs } from './lib/child-message.ts';
import { type CliCrawl, cliCrawl } from './lib/cli-crawl.ts';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,2,4' },
    pages: { type: 'string', default: '3000' },
    copies: { type: 'string', default: '130' },
    scale: { type: 'string', default: '0.01' },
    'latency-ms': { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '8' },
    'delay-ms': { type: 'string', default: '200' },
    json: { type: 'string' },
    'no-boost': { type: 'boolean', default: false },
    modes: { type: 'string', default: 'leveldb,redis' },
    'cpu-prof': { type: 'string' },
    'child-node-options': { type: 'string', default: '' },
    paired: { type: 'string', default: '0' },
    against: { type: 'string' },
  },
});
const WORKERS = values.workers.split(',').map(Number);
const MODES = values.modes.split(',');
const NODE_OPTIONS = process.env.NODE_OPTIONS ?? '';
const PAGES = Number(values.pages);

interface WebReport {
  report: { requests: number; fetches: number; plds: number; maxInFlight: number; minIdleGapMs?: number; minStartGapMs?: number };
  firstStart: number;
  lastEnd: number;
}

/** One measured configuration. */
interface Row {
  mode: string;
  workers: number;
  pages: number;
  requests: number;
  spanS: number;
  wallS: number;
  pagesPerSec: number;
  cpuMsPerPage: number;
  maxRssMb: number;
  maxInFlight: number;
  minIdleGapMs: number | null;
  /** CPU of the simulated web's process per page (it serves every worker: a bound on the pages/s of all). */
  webCpuMsPerPage: number;
  /** Load average (1 min) at the start and end of the run, averaged: other work on the machine. */
  load: number;
  redisOpsPerPage?: number;
  redisCpuMsPerPage?: number;
  redisOps?: Record<string, number>;
  /** What the pages were (a fair comparison fetches alike pages): RDF documents and triples obtained, summed. */
  rdfDocuments: number;
  triples: number;
}

/** Calls per command since the last CONFIG RESETSTAT, without the benchmark's own (INFO, CONFIG, FLUSHALL). */
async function commandCalls(redis: Redis): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const m of (await redis.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (!['info', 'config', 'flushall'].includes(m[1] as string)) out[m[1] as string] = Number(m[2]);
  }
  return out;
}

async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const n = (k: string) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (n('used_cpu_user') + n('used_cpu_sys')) * 1000;
}

/**
 * The web stands for the Internet and Redis for a server of its own: neither should be starved by other work on this
 * machine while the crawl processes are measured, so they run at a higher priority (nice -10) when the bench may
 * set it (root); the crawl processes keep the default.
 */
function boost(pid: number | undefined, what: string): string {
  if (pid === undefined || values['no-boost']) return `${what}: default priority`;
  try {
    setPriority(pid, -10);
    return `${what}: nice -10`;
  } catch (err) {
    return `${what}: default priority (${(err as Error).message})`;
  }
}

const dir = await mkdtemp(join(tmpdir(), 'rdfscout-distributed-'));
const web = fork(
  join(import.meta.dirname, 'lib/simweb-process.ts'),
  ['--profiles', 'thesis', '--scale', values.scale, '--copies', values.copies, '--latency-ms', values['latency-ms'], '--log-requests'],
  { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
);
const ready = await askChild<{ proxyUrl: string; seeds: string[]; documents: number }>(web, 'ready', false);
const boosted = [boost(web.pid, 'the simulated web')];
const seedsFile = join(dir, 'seeds.txt');
await writeFile(seedsFile, `${ready.seeds.join('\n')}\n`);
const common = [
  '--seeds-file', seedsFile, '--proxy', ready.proxyUrl, '--strategy', 'bfs', '--max-docs', String(PAGES),
  '--concurrency', values.concurrency, '--host-concurrency', '1', '--delay-ms', values['delay-ms'],
];
console.log(
  `web: ${ready.seeds.length} PLDs, ${ready.documents} documents, ${values['latency-ms']} ms per response; budget ${PAGES} pages, ` +
    `--concurrency ${values.concurrency} per process, --delay-ms ${values['delay-ms']}; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`,
);

/** Sets the NODE_OPTIONS of the crawl processes spawned next: `--child-node-options`, and `--cpu-prof` into DIR/`name`. */
function childNodeOptions(name: string): void {
  const prof = values['cpu-prof'] === undefined ? '' : `--cpu-prof --cpu-prof-dir=${join(values['cpu-prof'], name)}`;
  process.env.NODE_OPTIONS = `${NODE_OPTIONS} ${values['child-node-options']} ${prof}`.trim();
}

/** Runs `n` crawl processes at once (`extra(i)` = their own flags) and measures them against the web's log. */
async function measure(mode: string, n: number, extra: (i: number) => string[]): Promise<{ row: Row; runs: CliCrawl[] }> {
  await askChild(web, 'reset');
  const webCpu0 = await webCpuMs(web);
  const load0 = loadavg()[0] ?? 0;
  childNodeOptions(`${mode}-${n}`);
  const runs = await Promise.all(Array.from({ length: n }, (_, i) => cliCrawl([...common, ...extra(i)], join(dir, `${mode}-${n}-${i}.cpu.json`))));
  runs.forEach((r, i) => {
    if (r.code !== 0) throw new Error(`${mode} process ${i} of ${n} ended with ${r.code}:\n${r.stderr.slice(-2000)}`);
  });
  const w = await askChild<WebReport>(web, 'politeness');
  const webCpu = (await webCpuMs(web)) - webCpu0;
  const pages = runs.reduce((s, r) => s + Number(r.summary?.fetched ?? 0), 0);
  const spanS = (w.lastEnd - w.firstStart) / 1000;
  const row: Row = {
    mode,
    workers: n,
    pages,
    requests: w.report.requests,
    spanS: round(spanS, 2),
    wallS: round(Math.max(...runs.map((r) => r.wallMs)) / 1000, 2),
    pagesPerSec: round(pages / spanS, 1),
    cpuMsPerPage: round(runs.reduce((s, r) => s + r.cpuMs, 0) / pages, 2),
    maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)),
    maxInFlight: w.report.maxInFlight,
    minIdleGapMs: w.report.minIdleGapMs === undefined ? null : round(w.report.minIdleGapMs, 1),
    webCpuMsPerPage: round(webCpu / pages, 2),
    load: round((load0 + (loadavg()[0] ?? 0)) / 2, 1),
    rdfDocuments: runs.reduce((s, r) => s + Number(r.summary?.rdfDocuments ?? 0), 0),
    triples: runs.reduce((s, r) => s + Number(r.summary?.triples ?? 0), 0),
  };
  return { row, runs };
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
/** `--paired N`: N runs of a LevelDB crawl and one Redis worker side by side; prints each pair's CPU per page. */
async function paired(times: number): Promise<void> {
  const server = await startRedisServer({ appendOnly: false });
  boosted.push(boost(server.pid(), 'redis-server'));
  const redis = await connectRedis(server.url);
  const ratios: number[] = [];
  const against = values.against;
  const base = against === undefined ? 'LevelDB' : `Redis worker of ${against}`;
  const goal = against === undefined ? ' (goal ≤ 1.3)' : '';
  try {
    for (let i = 0; i < times; i++) {
      await redis.flushall();
      await redis.config('RESETSTAT');
      await askChild(web, 'reset');
      const load0 = loadavg()[0] ?? 0;
      // Alternate which one starts first (a few ms apart): neither always gets the first turn.
      const level = () => {
        childNodeOptions('paired-leveldb');
        if (against !== undefined) {
          return cliCrawl([...common, '--redis', `${server.url}/1`, '--out', join(dir, `paired-${i}-against`)], join(dir, `paired-${i}-against.cpu.json`), against);
        }
        return cliCrawl([...common, '--out', join(dir, `paired-${i}-leveldb`)], join(dir, `paired-${i}-leveldb.cpu.json`));
      };
      const worker = () => {
        childNodeOptions('paired-redis');
        return cliCrawl([...common, '--redis', server.url, '--out', join(dir, `paired-${i}-redis`)], join(dir, `paired-${i}-redis.cpu.json`));
      };
      const [l, r] = (i % 2 === 0 ? await Promise.all([level(), worker()]) : (await Promise.all([worker(), level()])).reverse()) as [CliCrawl, CliCrawl];
      for (const [name, run] of [['leveldb', l], ['redis', r]] as const) {
        if (run.code !== 0) throw new Error(`paired ${name} crawl ended with ${run.code}:\n${run.stderr.slice(-2000)}`);
      }
      const perPage = (run: CliCrawl) => run.cpuMs / Number(run.summary?.fetched ?? Number.NaN);
      const ratio = perPage(r) / perPage(l);
      ratios.push(ratio);
      const load = round((load0 + (loadavg()[0] ?? 0)) / 2, 1);
      const what = (run: CliCrawl) => `${run.summary?.fetched} pages, ${run.summary?.ok} ok, ${run.summary?.rdfDocuments} RDF`;
      // Script calls (EVALSHA, EVAL) a page: the worker's round trips but for a few plain commands. With --against the
      // server serves both workers, so it is their sum over both crawls' pages.
      const calls = await commandCalls(redis);
      const scripts = (calls.evalsha ?? 0) + (calls.eval ?? 0);
      const net = await redis.info('stats');
      const bytes = (k: string) => Number(new RegExp(`${k}:(\\d+)`).exec(net)?.[1] ?? 0);
      const pages = Number(r.summary?.fetched ?? 0) + (against === undefined ? 0 : Number(l.summary?.fetched ?? 0));
      console.log(
        `pair ${i + 1} (${i % 2 === 0 ? base : 'this Redis worker'} started first): ${base} ${round(perPage(l), 3)} CPU ms/page (${what(l)}), ` +
          `1 Redis worker ${round(perPage(r), 3)} (${what(r)}) = ${round(ratio, 3)}×${goal}; load ${load}; ` +
          `scripts/page ${round(scripts / pages, 2)}${against === undefined ? '' : ' (both workers)'}, Redis commands/page (those the scripts ran included) ${round(Object.values(calls).reduce((a, b) => a + b, 0) / pages, 1)}, ` +
          `kB/page to Redis ${round(bytes('total_net_input_bytes') / pages / 1024, 2)}, from Redis ${round(bytes('total_net_output_bytes') / pages / 1024, 2)}`,
      );
    }
  } finally {
    redis.disconnect();
    await server.stop();
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`\nCPU per page, 1 Redis worker / ${base}, run side by side: median ${round(sorted[Math.floor((sorted.length - 1) / 2)] as number, 3)}× of ${ratios.map((x) => round(x, 3)).join(', ')}${goal}`);
}

const rows: Row[] = [];
try {
  const pairs = Number(values.paired);
  if (pairs > 0) await paired(pairs);
  if (pairs === 0 && MODES.includes('leveldb')) rows.push((await measure('leveldb', 1, () => ['--out', join(dir, 'leveldb')])).row);
  if (pairs > 0 || !MODES.includes('redis')) {
    // measured side by side, or only the LevelDB mode asked for
  } else if (!CRAWL_USAGE.includes('--redis')) {
    console.log('This checkout\'s crawl has no --redis (the worker mode of issue 15): only the LevelDB mode was measured.');
  } else {
    const server = await startRedisServer({ appendOnly: false });
    boosted.push(boost(server.pid(), 'redis-server'));
    const redis = await connectRedis(server.url);
    try {
      for (const n of WORKERS) {
        await redis.flushall();
        await redis.config('RESETSTAT');
        const cpu0 = await redisCpuMs(redis);
        const { row } = await measure('redis', n, (i) => ['--redis', server.url, '--out', join(dir, `redis-${n}-${i}`)]);
        const calls = await commandCalls(redis);
        const total = Object.values(calls).reduce((a, b) => a + b, 0);
        row.redisOpsPerPage = round(total / row.pages, 1);
        row.redisCpuMsPerPage = round(((await redisCpuMs(redis)) - cpu0) / row.pages, 3);
        row.redisOps = calls;
        rows.push(row);
      }
    } finally {
      redis.disconnect();
      await server.stop();
    }
  }
} finally {
  web.send({ type: 'close' });
  await rm(dir, { recursive: true, force: true });
}

if (rows.length > 0) console.log('\nmode    | workers | pages | pages/s | speed-up | CPU ms/page | peak RSS MB | Redis ops/page | Redis CPU ms/page | web CPU ms/page | max in flight/PLD | min idle gap ms | span s | wall s | load | RDF docs | triples');
const base = rows.find((r) => r.mode === 'redis' && r.workers === 1);
for (const r of rows) {
  const speedUp = base && r.mode === 'redis' ? `${round(r.pagesPerSec / base.pagesPerSec, 2)}× (goal ≥ ${round(0.8 * r.workers, 1)})` : '';
  console.log(
    [r.mode.padEnd(7), r.workers, r.pages, r.pagesPerSec, speedUp, r.cpuMsPerPage, r.maxRssMb, r.redisOpsPerPage ?? '', r.redisCpuMsPerPage ?? '', r.webCpuMsPerPage, r.maxInFlight, r.minIdleGapMs ?? '', r.spanS, r.wallS, r.load, r.rdfDocuments, r.triples].join(' | '),
  );
}
const level = rows.find((r) => r.mode === 'leveldb');
console.log(`priorities: ${boosted.join(', ')}`);
if (base && level) console.log(`\nCPU per page, 1 Redis worker / LevelDB mode: ${round(base.cpuMsPerPage / level.cpuMsPerPage, 2)}× (goal ≤ 1.3)`);
if (base?.redisOps) console.log(`Redis commands of 1 worker: ${JSON.stringify(base.redisOps)}`);
if (values.json) await writeFile(values.json, `${JSON.stringify({ options: values, rows }, null, 2)}\n`);
