// `npm run test:differential -- --cases 500 [--from 1] [--no-kills] [--no-dead-hosts] [--no-redis-restarts]`: many
// generated cases, each run in one process, stopped or killed and resumed, and with Redis workers (run-case.ts).
// Prints every case that failed with its seed and what differed, then the counts; exit 1 if any failed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectRedis } from '../../../src/distributed/redis/connect.ts';
import { startRedisServer } from '../../helpers/redis-server.ts';
import { describeCase, generateCase } from './generate.ts';
import { runCase } from './run-case.ts';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '100' },
    from: { type: 'string', default: '1' },
    'no-kills': { type: 'boolean', default: false },
    'no-dead-hosts': { type: 'boolean', default: false },
    'no-redis-restarts': { type: 'boolean', default: false },
  },
});
const count = Number(values.cases);
const from = Number(values.from);
const redis = await startRedisServer({ appendOnly: true });
const admin = await connectRedis(redis.url);
const tmp = await mkdtemp(join(tmpdir(), 'rdfscout-diff-cli-'));
const failed: string[] = [];
const kinds = { kills: 0, deadHosts: 0, restarts: 0 };
const t0 = Date.now();
try {
  for (let seed = from; seed < from + count; seed++) {
    const c = generateCase(seed, { kills: !values['no-kills'], deadHosts: !values['no-dead-hosts'], redisRestarts: !values['no-redis-restarts'] });
    if (c.kill !== 'none') kinds.kills++;
    if (c.web.deadHost) kinds.deadHosts++;
    if (c.redisRestart) kinds.restarts++;
    const t = Date.now();
    const { problems } = await runCase(c, tmp, redis, admin);
    process.stdout.write(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${((Date.now() - t) / 1000).toFixed(1)} s  ${describeCase(c)}\n`);
    for (const p of problems) process.stdout.write(`     ${p.split('\n').slice(1).join('\n     ')}\n`);
    if (problems.length > 0) failed.push(describeCase(c));
    await rm(tmp, { recursive: true, force: true });
  }
} finally {
  admin.disconnect();
  await redis.stop();
  await rm(tmp, { recursive: true, force: true });
}
process.stdout.write(`\n${count} cases (${kinds.kills} with a SIGKILL, ${kinds.deadHosts} with a dead host, ${kinds.restarts} with a Redis restart) in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${count - failed.length} passed, ${failed.length} failed\n`);
for (const f of failed) process.stdout.write(`  failed: ${f}\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
