
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectRedis } from '../../../src/distributed/redis/connect.ts';
import { startRedisServer } from '../../helpers/redis-server.ts';
import { describeCase, generateCase } from './generate.ts';
import { runCase } from './run-case.ts';
import { makeTempDir } from '../../helpers/temp-dir.ts';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '100' },
    from: { type: 'string', default: '1' },
    'no-kills': { type: 'boolean', default: false },
    'no-dead-hosts': { type: 'boolean', default: false },
    'no-redis-restarts': { type: 'boolean', default: false },
    'no-live-exhausted-kills': { type: 'boolean', default: false },
    'no-https': { type: 'boolean', default: false },
    'no-host-kinds': { type: 'boolean', default: false },
    // Copies a failing case's folders (each mode's output) and the shared crawl's Redis keys (redis.json) to
    // DIR-s<seed>-<ms>; with --keep-all, every case's.
    keep: { type: 'string' },
    'keep-all': { type: 'boolean', default: false },
  },
});
const count = Number(values.cases);
const from = Number(values.from);
const redis = await startRedisServer({ appendOnly: true });
const admin = await connectRedis(redis.url);
const { dir: tmp, remove } = await makeTempDir('distributed-differential');
const failed: string[] = [];
// A rejection nobody handled (in this process: the in-process crawls and Redis workers) fails the case it happened
// in, named by its seed, instead of ending the whole run at once without one (seeds 649 and 759 ended runs so: an
// ioredis 'Connection is closed' around a Redis restart).
const stray: string[] = [];
process.on('unhandledRejection', (err) => {
  stray.push(`unhandled rejection: ${String((err as Error)?.stack ?? err)}`);
});
const kinds = { kills: 0, deadHosts: 0, restarts: 0, liveExhausted: 0, https: 0, robots: 0, redirects: 0, slowHosts: 0, tinyPlds: 0 };
const t0 = Date.now();

/** Copies the case's folders and the shared crawl's keys in Redis (redis.json) to `to`-s`seed`-ms; returns where. */
async function keep(to: string, seed: number): Promise<string> {
  const dir = `${to}-s${seed}-${Date.now()}`;
  await cp(tmp, dir, { recursive: true });
  const dump: Record<string, unknown> = {};
  for (const k of await admin.keys('*')) {
    const t = await admin.type(k);
    dump[k] = t === 'hash' ? await admin.hgetall(k) : t === 'zset' ? await admin.zrange(k, '0', '-1', 'WITHSCORES') : t === 'string' ? await admin.get(k) : t === 'list' ? await admin.lrange(k, 0, -1) : t === 'set' ? await admin.smembers(k) : t;
  }
  await writeFile(join(dir, 'redis.json'), JSON.stringify(dump, null, 1));
  return dir;
}
try {
  for (let seed = from; seed < from + count; seed++) {
    const c = generateCase(seed, { kills: !values['no-kills'], deadHosts: !values['no-dead-hosts'], redisRestarts: !values['no-redis-restarts'], liveExhaustedKills: !values['no-live-exhausted-kills'], https: !values['no-https'], hostKinds: !values['no-host-kinds'] });
    if (c.kill !== 'none') kinds.kills++;
    if (c.web.deadHost) kinds.deadHosts++;
    if (c.redisRestart) kinds.restarts++;
    if (c.kill !== 'none' && c.killAt === 'live-exhausted') kinds.liveExhausted++;
    if (c.web.https === true) kinds.https++;
    if (c.web.robots !== undefined) kinds.robots++;
    if (c.web.redirects === true) kinds.redirects++;
    if (c.web.slowHost === true) kinds.slowHosts++;
    if (c.web.tinyPlds !== undefined) kinds.tinyPlds++;
    const t = Date.now();
    const { problems, times, notes } = await runCase(c, tmp, redis, admin);
    await new Promise((r) => setTimeout(r, 50)); // a rejection of the case's last moments is reported with it
    problems.push(...stray.splice(0).map((p) => `${describeCase(c)}\n  ${p}`));
    const laps = Object.entries(times).map(([mode, ms]) => `${mode} ${(ms / 1000).toFixed(1)}`).join(', ');
    process.stdout.write(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${((Date.now() - t) / 1000).toFixed(1)} s (${laps})  ${describeCase(c)}${notes.length > 0 ? ` [${notes.join('; ')}]` : ''}\n`);
    for (const p of problems) process.stdout.write(`     ${p.split('\n').slice(1).join('\n     ')}\n`);
    if (problems.length > 0) failed.push(describeCase(c));
    if (values.keep !== undefined && (problems.length > 0 || values['keep-all'])) process.stdout.write(`     kept in ${await keep(values.keep, seed)}\n`);
    await remove();
  }
} finally {
  admin.disconnect();
  await redis.stop();
  await remove();
}
process.stdout.write(`\n${count} cases (${kinds.kills} with a SIGKILL, ${kinds.deadHosts} with a dead host, ${kinds.restarts} with a Redis restart, ${kinds.liveExhausted} killed once the live sites were exhausted, ${kinds.https} over https, ${kinds.robots} with a robots.txt failing, ${kinds.redirects} with redirects, ${kinds.slowHosts} with a host that never answers, ${kinds.tinyPlds} with many one-document PLDs) in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${count - failed.length} passed, ${failed.length} failed\n`);
for (const f of failed) process.stdout.write(`  failed: ${f}\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
