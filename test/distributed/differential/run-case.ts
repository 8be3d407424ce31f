// **runCase**: one generated case in every mode — one process, one process stopped or SIGKILLed and resumed, Redis workers — and what differs.
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { CrawlRecord } from '../../../src/crawl-log/record.ts';
import type { CrawlSummary } from '../../../src/crawl-log/tally.ts';
import { pldOf } from '../../../src/links/normalize-url.ts';
import type { RedisTestServer } from '../../helpers/redis-server.ts';
import { startCli } from '../../helpers/run-cli.ts';
import { type CaseWeb, deadOriginsOf, seedsOf, startCaseWeb } from './case-web.ts';
import { argsOf, explicitOf, type ModeResult, readShards, runRedisWorker, runSingle } from './crawl-modes.ts';
import { type DiffCase, describeCase } from './generate.ts';
import { until } from '../../helpers/until.ts';

/** A mode's run must end by itself within this long (a deadline is a failure, reported with the case's seed). */
const MODE_DEADLINE_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** Resolves when `signal` aborts. */
const aborted = (signal: AbortSignal) => new Promise<void>((r) => (signal.aborted ? r() : signal.addEventListener('abort', () => r(), { once: true })));

/**
 * Runs `run` with an abort signal that fires at the deadline; a run that needed it is a failure naming `what`, with
 * what `state()` read just before the abort (what the crawl was waiting for).
 */
async function withDeadline<T>(what: string, run: (deadline: AbortSignal) => Promise<T>, state?: () => Promise<string>, ms = MODE_DEADLINE_MS): Promise<T> {
  const ctl = new AbortController();
  let hit: Promise<string> | null = null;
  const timer = setTimeout(() => {
    hit = (state?.() ?? Promise.resolve('')).catch((err: unknown) => `(state not read: ${String(err)})`).finally(() => ctl.abort());
  }, ms);
  try {
    const out = await run(ctl.signal);
    if (hit !== null) throw new Error(`${what} did not end by itself within ${ms} ms${await hit}`);
    return out;
  } finally {
    clearTimeout(timer);
  }
}

/** The shared crawl's state in Redis at a deadline: counters, queued and in flight per PLD, leases, worker heartbeats. */
async function sharedState(admin: Redis): Promise<string> {
  const p = 'rdfscout:{crawl}:';
  const [stat, pq, pf, leases, expiry, workers] = await Promise.all([
    admin.hgetall(`${p}stat`),
    admin.hgetall(`${p}pq`),
    admin.hgetall(`${p}pf`),
    admin.hgetall(`${p}lease`),
    admin.zrange(`${p}lease:expiry`, '0', '-1', 'WITHSCORES'),
    admin.zrange(`${p}workers`, '0', '-1', 'WITHSCORES'),
  ]);
  const now = Date.now();
  const waiting = await Promise.all(Object.keys(pq).map(async (pld) => `${pld}: ${(await admin.zrange(`${p}d:${pld}`, '0', '-1', 'WITHSCORES')).filter((_, i) => i % 2 === 1).map((t) => `${Number(t) - now} ms`).join(' ')}`));
  const expires = new Map<string, number>();
  for (let i = 0; i + 1 < expiry.length; i += 2) expires.set(expiry[i] as string, Number(expiry[i + 1]) - now);
  const lines = [
    `stat ${JSON.stringify(stat)}`,
    `queued ${JSON.stringify(pq)}; in flight ${JSON.stringify(pf)}; back-offs ending in: ${waiting.join('; ') || 'none'}`,
    `leases: ${Object.entries(leases).map(([token, v]) => `${token} ${v.replace('\t', ' by ')} expires in ${expires.get(token)} ms`).join('; ') || 'none'}`,
    `heartbeats: ${workers.filter((_, i) => i % 2 === 0).map((w, i) => `${w} ${now - Number(workers[2 * i + 1])} ms ago`).join('; ')}`,
  ];
  return `; at the deadline:\n    ${lines.join('\n    ')}`;
}

/** The outcome of a case: each mode's result, and every difference found (empty: the modes agree). */
export interface CaseOutcome {
  problems: string[];
  modes: Record<string, ModeResult>;
  /** How long each mode took (ms): a mode that ends late points at a wait nobody bounded. */
  times: Record<string, number>;
  /** What happened besides: e.g. whether a kill meant for after the live sites landed (`kill landed` / `ended first`). */
  notes: string[];
}

/** Runs case `c` in every mode under `tmp` (Redis: `redis`, flushed first) and compares them. */
export async function runCase(c: DiffCase, tmp: string, redis: RedisTestServer, admin: Redis): Promise<CaseOutcome> {
  const web = await startCaseWeb(c.web);
  const dir = (name: string) => join(tmp, `s${c.seed}-${name}`);
  const modes: Record<string, ModeResult> = {};
  const times: Record<string, number> = {};
  const problems: string[] = [];
  const notes: string[] = [];
  let t = performance.now();
  const lap = (mode: string) => {
    times[mode] = Math.round(performance.now() - t);
    t = performance.now();
  };
  try {
    const ex = (out: string) => explicitOf(c.options, web.proxy, web.seeds, out);
    // One process.
    modes.single = await readShards([dir('single')], [await withDeadline('the one-process crawl', (d) => runSingle(ex(dir('single')), undefined, d))]);
    lap('single');
    // One process stopped (signal) or SIGKILLed at a random point, then resumed (with no options: the stored ones).
    const resumedDir = dir('resumed');
    const first: CrawlSummary[] = [];
    if (c.kill === 'single' && c.killAt === 'live-exhausted') {
      const kill = liveExhausted(web, modes.single, c.killAfterMs);
      const child = crawlChild(web, [...web.seeds, '--out', resumedDir, ...argsOf(c.options, web.proxy)]);
      await withDeadline('the process to kill (or its end)', (d) => Promise.race([child.exited, kill, aborted(d)]));
      notes.push(`one process: ${child.running() ? 'killed once the live sites were exhausted' : 'ended before the live sites were exhausted'}`);
      child.signal('SIGKILL');
      await withDeadline('the killed process', () => child.exited.then(() => undefined));
    } else if (c.kill === 'single') {
      const before = web.requests();
      const child = crawlChild(web, [...web.seeds, '--out', resumedDir, ...argsOf(c.options, web.proxy)]);
      // The kill lands after a random number of the crawl's requests (`resumeAfter`, 1 to the web's size), a random
      // few ms into the next one: mid-crawl, at any point of a fetch, a parse or a commit. A kill before the first
      // request would be a crawl never made (its resume would need the seeds again); a timer alone landed after 1-2
      // records, before any resume had much to restore.
      await until('a request from the process to kill', () => web.requests() !== before || !child.running(), 30_000, { everyMs: 10 });
      if (web.requests() === before) throw new Error(`the process to kill ended before its first request (exit ${await child.exited}): ${child.stderr().slice(-1500)}`);
      await until(`${c.resumeAfter} requests from the process to kill`, () => web.requests() - before >= c.resumeAfter || !child.running(), 30_000, { everyMs: 2 });
      await Promise.race([child.exited, sleep(c.killAfterMs % 40)]);
      child.signal('SIGKILL');
      await withDeadline('the killed process', () => child.exited.then(() => undefined));
    } else {
      first.push(await withDeadline('the interrupted crawl', (d) => runSingle(ex(resumedDir), { kind: 'signal', afterRecords: c.resumeAfter }, d)));
    }
    const resumed = await withDeadline('the resumed crawl', (d) => runSingle({ out: resumedDir }, undefined, d));
    modes.resumed = await readShards([resumedDir], [resumed]);
    lap('resumed');
    // Redis workers: the first creates the crawl, the others join with no seeds nor options; one may be killed.
    await admin.flushall();
    const dirs = Array.from({ length: c.workers }, (_, i) => dir(`w${i}`));
    const leaseMs = c.kill === 'worker' ? 800 : undefined;
    const summaries = await withDeadline('the Redis workers', async (d) => {
      // Each run gets a handler at once: one failing while this waits (the first worker's creation, a restart) is
      // awaited below with the others, not an unhandled rejection (seeds 649 and 759: a QUIT lost to the restart).
      const runs: Array<Promise<CrawlSummary>> = [];
      // Each in-process worker's join (or its end, if it never joins).
      const joins: Array<Promise<unknown>> = [];
      const start = (run: (joined: () => void) => Promise<CrawlSummary>) => {
        let joined = () => {};
        const join = new Promise<void>((r) => (joined = r));
        const running = run(joined);
        running.catch(() => {});
        runs.push(running);
        joins.push(Promise.race([join, running.catch(() => {})]));
      };
      start((joined) => runRedisWorker(redis.url, ex(dirs[0] as string), undefined, leaseMs, d, joined));
      await until('the first worker to create the crawl in Redis', async () => (await admin.exists('rdfscout:{crawl}:meta')) === 1, 20_000, { everyMs: 10 });
      for (const w of dirs.slice(1)) start((joined) => runRedisWorker(redis.url, { out: w }, undefined, undefined, d, joined));
      if (c.kill === 'worker') {
        const kill = c.killAt === 'live-exhausted' ? liveExhausted(web, modes.single as ModeResult, c.killAfterMs) : sleep(c.killAfterMs);
        start(() => killedWorker(web, redis.url, dir('wk'), kill, d, (landed) => notes.push(`worker: ${landed ? 'killed' : 'ended first'}${c.killAt === 'live-exhausted' ? ' (live sites exhausted)' : ''}`)));
      }
      if (c.redisRestart) {
        // Not before every worker has joined: one still connecting or joining refuses to start while Redis is down
        // (by design), and the case would fail for the harness's timing, not the crawler's.
        await Promise.all([sleep(c.killAfterMs), ...joins]);
        await redis.kill();
        await sleep(200);
        await redis.restart();
      }
      return Promise.all(runs);
    }, () => sharedState(admin));
    if (c.kill === 'worker') dirs.push(dir('wk'));
    modes.redis = await readShards(dirs, summaries);
    lap('redis');
    problems.push(...compare(c, modes));
  } catch (err) {
    problems.push(String((err as Error).stack ?? err));
  } finally {
    await web.close();
  }
  return { problems: problems.map((p) => `${describeCase(c)}\n  ${p}`), modes, times, notes };
}

/** `rdfscout crawl ...args` as a child process (trusting the web's CA, with https). */
function crawlChild(web: CaseWeb, args: readonly string[]) {
  return startCli(['crawl', ...args], { env: web.childEnv });
}

/**
 * Resolves `afterMs % 40` ms after the first request to the dead host made once every live URL of one process's
 * crawl (`single`) was requested: the crawl is left with the dead host's URLs. Never, if that does not happen.
 */
function liveExhausted(web: CaseWeb, single: ModeResult, afterMs: number): Promise<void> {
  // URLs refused for an unavailable robots.txt are never requested: only those that answered count.
  const dead = new Set(web.deadOrigins);
  const live = [...single.records.values()].filter((r) => r.status !== null && !dead.has(new URL(r.url).origin)).map((r) => r.url);
  return new Promise((resolve) => web.onLiveExhausted(live, () => void sleep(afterMs % 40).then(resolve)));
}

/** A CLI worker killed (SIGKILL) when `kill` resolves, then restarted in this process on its shard until the crawl ends. */
async function killedWorker(web: CaseWeb, redisUrl: string, out: string, kill: Promise<void>, deadline: AbortSignal, landed: (killed: boolean) => void): Promise<CrawlSummary> {
  const child = crawlChild(web, ['--redis', redisUrl, '--out', out, '--json', '--quiet']);
  await Promise.race([child.exited, kill, aborted(deadline)]);
  landed(child.running());
  child.signal('SIGKILL');
  await child.ended('the killed worker to exit');
  return runRedisWorker(redisUrl, { out }, undefined, undefined, deadline);
}

function spent(records: Iterable<CrawlRecord>): { total: number; perPld: Map<string, number> } {
  const perPld = new Map<string, number>();
  let total = 0;
  for (const r of records) {
    if (r.outcome === 'denied') continue;
    total++;
    perPld.set(r.pld, (perPld.get(r.pld) ?? 0) + 1);
  }
  return { total, perPld };
}

/**
 * The URLs of `pld` that a mode found and did not record: the seeds, and the links of its stored documents on the
 * seeds' hosts — links every scope of the cases follows (to a seed's host; offsite ones too with --offsite-hops 1 or
 * --scope open), whatever path reached the document (links of offsite documents are left out: at --offsite-hops 1,
 * one of another offsite host is not followed).
 */
function unfetchedOf(c: DiffCase, m: ModeResult, pld: string): string[] {
  const seeds = seedsOf(c.web);
  const seedHosts = new Set(seeds.map((u) => new URL(u).host));
  const offsite = c.options.scope === 'open' || (c.options.offsiteHops ?? 0) > 0;
  const found = new Set(seeds);
  for (const [graph, lines] of m.docs) {
    if (!URL.canParse(graph) || !seedHosts.has(new URL(graph).host)) continue;
    for (const [, iri] of lines.matchAll(/<([^>]+)>/g)) if (URL.canParse(iri as string) && (offsite || seedHosts.has(new URL(iri as string).host))) found.add(iri as string);
  }
  return [...found].filter((u) => URL.canParse(u) && pldOf(u) === pld && !m.records.has(u)).sort();
}

const key = (r: CrawlRecord) => `${r.url} ${r.outcome} ${r.status} ${r.triples}`;

/** What must hold across modes (README "Differential tests"); each broken rule is one line. */
export function compare(c: DiffCase, modes: Record<string, ModeResult>): string[] {
  const out: string[] = [];
  const single = modes.single as ModeResult;
  const reason = single.summaries[0]?.stoppedBy;
  const { maxDocs, maxDocsPerPld, maxDepth, concurrency, strategy } = c.options;
  for (const [name, m] of Object.entries(modes)) {
    const reasons = [...new Set(m.summaries.map((s) => s.stoppedBy))];
    if (reasons.length !== 1 || reasons[0] !== reason) out.push(`${name}: stoppedBy ${reasons.join(',')}, one process: ${reason}`);
    const s = spent(m.records.values());
    if (maxDocs !== undefined && s.total > maxDocs) out.push(`${name}: ${s.total} fetched, over --max-docs ${maxDocs}`);
    if (reason === 'max-docs' && s.total !== maxDocs) out.push(`${name}: stopped by max-docs with ${s.total} fetched, not ${maxDocs}`);
    for (const [pld, n] of s.perPld) if (maxDocsPerPld !== undefined && n > maxDocsPerPld) out.push(`${name}: ${n} fetched on ${pld}, over --max-docs-per-pld ${maxDocsPerPld}`);
    // Every URL once in the merged reading; more than one record of a URL only after a kill (a refetch).
    if (m.repeated.length > 0 && c.kill === 'none' && !c.redisRestart) out.push(`${name}: URLs recorded more than once: ${m.repeated.slice(0, 3).join(' ')}`);
    if (name === 'single') continue;
    // Nothing lost: a crawl that ran out of work fetched what one process fetched.
    const sameSet = reason === 'frontier-empty' || (reason === 'max-depth' && (c.workers === 1 || name !== 'redis') && concurrency === 1);
    if (sameSet) {
      const a = [...single.records.keys()].sort();
      const b = [...m.records.keys()].sort();
      const missing = a.filter((u) => !m.records.has(u));
      const extra = b.filter((u) => !single.records.has(u));
      if (missing.length + extra.length > 0) out.push(`${name}: ${missing.length} URLs missing (${missing.slice(0, 3).join(' ')}), ${extra.length} extra (${extra.slice(0, 3).join(' ')})`);
    }
    // Each PLD spent what one process spent, or, where one of the two spent less, it fetched every URL of that PLD
    // it found: a PLD whose URLs are only reached through other PLDs' documents (the dead host) can be under its
    // budget, and which of those documents fit in the other PLDs' budgets depends on the order of the fetches — with
    // several workers or fetches in flight, timing's (seed 1363: a worker fetched site1's d1 and d2 before the other
    // worker's fetch of site0's d0 queued site1's d9, whose link to dead.example/gone9 one process followed). A
    // budget lost (charged for a fetch never recorded) leaves a found URL of the PLD unfetched: reported.
    if (reason === 'max-docs-per-pld' && maxDepth === undefined) {
      const a = spent(single.records.values()).perPld;
      for (const pld of new Set([...a.keys(), ...s.perPld.keys()])) {
        const n = a.get(pld) ?? 0;
        const k = s.perPld.get(pld) ?? 0;
        if (k === n) continue;
        const fewer = k < n ? m : single;
        const left = unfetchedOf(c, fewer, pld);
        if (left.length > 0) out.push(`${name}: ${k} fetched on ${pld}, one process ${n}; ${k < n ? name : 'one process'} left ${left.length} of its URLs found unfetched (${left.slice(0, 3).join(' ')})`);
      }
    }
    // A URL fetched in two modes gives the same record and the same quads (the web is deterministic), whatever the
    // strategy, the concurrency, the workers or the kills.
    const differ = [...m.records.values()].filter((r) => { const o = single.records.get(r.url); return o !== undefined && key(o) !== key(r); });
    if (differ.length > 0) out.push(`${name}: ${differ.length} URLs recorded otherwise than by one process: ${differ.slice(0, 3).map(key).join(' | ')}`);
    const quadsDiffer = [...m.docs].filter(([graph, q]) => single.docs.has(graph) && single.docs.get(graph) !== q).map(([graph]) => graph);
    if (quadsDiffer.length > 0) out.push(`${name}: stored quads of ${quadsDiffer.length} documents differ from one process's: ${quadsDiffer.slice(0, 3).join(' ')}`);
    // bfs at concurrency 1 in one process at a time (resumed after a signal or a SIGKILL; one Redis worker, none
    // killed): the same order, so the same URLs whatever stopped it — the same records and the same quads.
    // Except when a budget ended a crawl that met failures or an origin that never answers: a failing URL is retried
    // after a wall-clock back-off, so which URL ends first and takes the budget's last fetches depends on timing, in
    // one process too (seed 1047: with one fetch left after the live sites, one process recorded dead.example/gone1
    // in 4 runs of 5, gone4 in the fifth); and where the stopped run left a host that never answers waiting for its
    // retry, the resume asks it at another point (seed 1188 with a slow host: after the resume, the live sites' URLs
    // came in another order than in one process, the same in 3 resumes; without the slow host, the same order). The
    // counts are compared above.
    const budgetMetFailures = (reason === 'max-docs' || reason === 'max-docs-per-pld') && (deadOriginsOf(c.web).length > 0 || [single, m].some((x) => [...x.records.values()].some((r) => r.outcome === 'failed')));
    const oneAtATime = name === 'resumed' || (c.workers === 1 && c.kill !== 'worker' && !c.redisRestart);
    if (strategy === 'bfs' && concurrency === 1 && (oneAtATime || sameSet) && !budgetMetFailures) {
      const a = new Set([...single.records.values()].map(key));
      const b = new Set([...m.records.values()].map(key));
      const onlyA = [...a].filter((k) => !b.has(k)).sort();
      const onlyB = [...b].filter((k) => !a.has(k)).sort();
      if (onlyA.length + onlyB.length > 0) out.push(`${name}: records differ from one process's: ${onlyB.length} not in one process's (${onlyB.slice(0, 3).join(' | ')}), ${onlyA.length} only there (${onlyA.slice(0, 3).join(' | ')})`);
      const qa = [...single.docs.keys()].sort().join('\n');
      const qb = [...m.docs.keys()].sort().join('\n');
      if (qa !== qb) out.push(`${name}: stored documents differ from one process's`);
    }
  }
  return out;
}
