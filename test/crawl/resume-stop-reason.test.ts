// A crawl SIGKILLed after a fetch whose links --max-depth dropped, then resumed with nothing left: it stops for
// max-depth, as one process does, not frontier-empty. Found by the differential (seed 983: one process killed once the
// live sites were exhausted): the count of dropped links was stored only when a run ended, so a killed run lost it.
// A worker of a crawl shared through Redis, killed so and restarted on its shard (or a new worker on a new shard),
// ends for max-depth too: the count is the shared crawl's, in Redis.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHttpServer } from '../helpers/http-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startRedisServer } from '../helpers/redis-server.ts';
import { startRedisWorker, startWorker } from '../helpers/workers.ts';

/** / links /a.html (depth 1), which links /b.html (depth 2: dropped at --max-depth 1). */
function startChain() {
  return startHttpServer((req, res) => {
    const page = (href: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><a href="${href}">next</a></body></html>`);
    if (req.url === '/') page('/a.html');
    else if (req.url === '/a.html') page('/b.html');
    else res.writeHead(404).end();
  });
}

describe('the stop reason of a resume after a SIGKILL', () => {
  it('is max-depth when the killed run dropped links for --max-depth', async () => {
    const site = await startChain();
    try {
      const out = join(await tempDir(), 'crawl');
      const args = [`${site.origin}/`, '--out', out, '--allow-private', '--delay-ms', '0', '--max-depth', '1', '--json', '--quiet'];
      const one = await runCli(['crawl', ...args.map((a) => (a === out ? `${out}-one` : a))]);
      expect(one.code, one.stderr).toBe(0);
      expect(JSON.parse(one.stdout).stoppedBy).toBe('max-depth');
      // Killed right after /a.html's commit (its link to /b.html dropped): nothing is left to fetch.
      const killed = startWorker(args, { pauseAt: 'after-commit:2' });
      const paused = await killed.waitFor(/RDFSCOUT_TEST_PAUSED after-commit (\S+)/);
      expect(paused[1]).toBe(`${site.origin}/a.html`);
      killed.child.kill('SIGKILL');
      await killed.ended('the killed crawl to exit');
      const resumed = await runCli(['crawl', '--out', out, '--json', '--quiet']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ stoppedBy: 'max-depth', fetched: 2 }); // fetched: over the crawl's runs
    } finally {
      await site.close();
    }
  }, 120_000);

  it.each(['its shard', 'a new shard'])('is max-depth for a Redis worker killed so, then one started on %s', async (where) => {
    const site = await startChain();
    const redis = await startRedisServer({ appendOnly: true });
    try {
      const out = join(await tempDir(), 'shard');
      const args = [`${site.origin}/`, '--allow-private', '--delay-ms', '0', '--max-depth', '1', '--json', '--lease-ms', '1000'];
      const killed = startRedisWorker(redis.url, out, args, { pauseAt: 'after-commit:2' });
      const paused = await killed.waitFor(/RDFSCOUT_TEST_PAUSED after-commit (\S+)/);
      expect(paused[1]).toBe(`${site.origin}/a.html`);
      killed.child.kill('SIGKILL');
      await killed.ended('the killed worker to exit');
      // Nothing is left to fetch (its lease, if still held, expires after 1 s).
      const again = startRedisWorker(redis.url, where === 'its shard' ? out : `${out}-new`, ['--json']);
      const code = await again.ended('the restarted worker to end', 60_000);
      expect(code, again.stderr()).toBe(0);
      expect(JSON.parse(again.stdout())).toMatchObject({ stoppedBy: 'max-depth' });
    } finally {
      await site.close();
      await redis.stop();
    }
  }, 120_000);
});
