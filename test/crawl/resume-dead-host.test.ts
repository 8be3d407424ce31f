// A resumed crawl whose queue holds only URLs of a dead host: nothing has answered in this run yet, so a dead host
// and a network that is down look alike — the crawl asks an origin that answered in an earlier run (its robots.txt)
// and, as it answers, the failures are the dead host's own: the URLs end as failed records, the crawl ends, exit 0.
// Before, the resume took the dead host for the network: it paused, doubling, and stopped `offline` (exit 1) after
// --max-offline-ms (default 10 minutes).
// A worker of a crawl shared through Redis restores from its shard's records the same way: killed once the live site
// is exhausted and restarted with only the dead host's URLs left in Redis, it ends likewise. A new worker on a new
// shard has no records: it asks an origin that answered the other workers (read from the shared learning log).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { startRedisServer } from '../helpers/redis-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { freePort } from '../helpers/free-port.ts';
import { startRedisWorker } from '../helpers/workers.ts';

/** A site whose one page links to five URLs of `dead`, where nothing listens. */
async function siteLinkingTo(dead: string): Promise<TestServer> {
  return startHttpServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${[1, 2, 3, 4, 5].map((i) => `<a href="${dead}/d${i}.ttl">d${i}</a>`).join(' ')}</body></html>`);
    else res.writeHead(404).end();
  });
}

describe('a resume with only a dead host left', () => {
  it('ends by itself (frontier empty, exit 0), the dead origin named, no pause', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`; // nothing listens there
    const site = await siteLinkingTo(dead);
    try {
      const out = join(await tempDir(), 'crawl');
      // The first run fetches the page (the site answers) and stops at its budget with the five dead URLs queued.
      const first = await runCli(['crawl', `${site.origin}/`, '--out', out, '--allow-private', '--delay-ms', '0', '--max-docs', '1', '--json', '--quiet', '--scope', 'open']);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout).stoppedBy).toBe('max-docs');
      // The resume: 60 s offline would stop it with exit 1 on the old code (after pauses of 1, 2, 4 … s).
      const resumed = await runCli(['crawl', '--out', out, '--max-docs', '10', '--json', '--quiet', '--max-offline-ms', '60000']);
      expect(resumed.stderr).not.toMatch(/Network trouble/);
      expect(resumed.code, resumed.stderr).toBe(0);
      const summary = JSON.parse(resumed.stdout);
      expect(summary.stoppedBy).toBe('frontier-empty');
      expect((summary.deadOrigins ?? []).map((d: { origin: string }) => d.origin)).toEqual([dead]);
      expect(summary.errors).toBe(5);
    } finally {
      await site.close();
    }
  }, 120_000);

  // 'a new shard' failed before the shared log's answered origins were probe targets: the new worker paused 1, 2, 4,
  // 8, 16 s ('Network trouble') and did not end within 60 s (it would stop offline, exit 1, after --max-offline-ms).
  it.each(['its shard', 'a new shard'])('a Redis worker killed once the live site is exhausted, then one started on %s with only the dead URLs left: ends likewise', async (where) => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const site = await siteLinkingTo(dead);
    const redis = await startRedisServer({ appendOnly: false });
    try {
      const out = join(await tempDir(), 'shard');
      // Its second fetch is the first dead URL: killed before it, with the page stored and released (its links queued).
      const args = [`${site.origin}/`, '--allow-private', '--delay-ms', '0', '--json', '--scope', 'open', '--lease-ms', '1000'];
      const first = startRedisWorker(redis.url, out, args, { pauseAt: 'before-fetch:2' });
      const paused = await first.waitFor(/RDFSCOUT_TEST_PAUSED before-fetch (\S+)/);
      expect(paused[1]).toMatch(new RegExp(`^${dead}/d`));
      first.child.kill('SIGKILL');
      await first.ended('the killed worker to exit');
      // Restarted on its shard, or a new worker on a new one: the killed one's lease expires (1 s), and only the five
      // dead URLs are left.
      const started = Date.now();
      const again = startRedisWorker(redis.url, where === 'its shard' ? out : `${out}-new`, ['--json', '--max-offline-ms', '60000']);
      const code = await again.ended('the restarted worker to end', 60_000);
      expect(again.stderr()).not.toMatch(/Network trouble/);
      expect(code, again.stderr()).toBe(0);
      const summary = JSON.parse(again.stdout());
      expect(summary.stoppedBy).toBe('frontier-empty');
      expect((summary.deadOrigins ?? []).map((d: { origin: string }) => d.origin)).toEqual([dead]);
      expect(summary.errors).toBe(5);
      expect(Date.now() - started).toBeLessThan(30_000); // promptly: no outage pauses
    } finally {
      await site.close();
      await redis.stop();
    }
  }, 120_000);
});
