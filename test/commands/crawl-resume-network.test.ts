// A resume reaches the network as the first run did: `rdfscout crawl --out DIR` reuses the stored proxy, private
// addresses and user agent, and says so; a proxy password is not stored, so a resume asks for --proxy again.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { absoluteTarget, startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { startRedisServer } from '../helpers/redis-server.ts';
import { runCli, startCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';

const LINKS = Array.from({ length: 12 }, (_, i) => `http://data.example.org/d${i}.ttl`);
const PASSWORD = 's3cret-word';

/**
 * A forward proxy on 127.0.0.1 serving a small web: data.example.org's home page links 12 Turtle documents. With
 * `auth`, every request without `Proxy-Authorization: Basic ann:PASSWORD` gets 407. `delayMs` slows every answer.
 */
async function startWebProxy(opts: { auth?: boolean; delayMs?: number } = {}): Promise<TestServer> {
  const expected = `Basic ${Buffer.from(`ann:${PASSWORD}`).toString('base64')}`;
  return startHttpServer(async (req, res) => {
    if (opts.auth && req.headers['proxy-authorization'] !== expected) return res.writeHead(407, { 'proxy-authenticate': 'Basic realm="web"' }).end();
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    const target = absoluteTarget(req);
    if (target?.href === 'http://data.example.org/') return res.writeHead(200, { 'content-type': 'text/html' }).end(LINKS.map((l) => `<a href="${l}">${l}</a>`).join(' '));
    if (target !== null && LINKS.includes(target.href)) return res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<${target.href}> <http://purl.org/dc/terms/title> "d" .\n`);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
}

/** Requests for documents (robots.txt aside) the proxy received. */
const documents = (proxy: TestServer) => proxy.requests.filter((r) => !r.url.endsWith('/robots.txt')).length;

describe('a resume with only --out DIR', () => {
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    dir = folder.dir;
  });

  it('goes on through the proxy after a budget stop, and names what it reused', async () => {
    const proxy = await startWebProxy();
    const out = join(dir, 'budget');
    try {
      const first = await runCli(['crawl', 'http://data.example.org/', '--out', out, '--proxy', proxy.origin, '--user-agent', 'probe/2 (+test)', '--delay-ms', '0', '--max-docs', '3', '--quiet', '--json']);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ fetched: 3, stoppedBy: 'max-docs' });
      const before = documents(proxy);
      const resumed = await runCli(['crawl', '--out', out, '--max-docs', '50', '--max-offline-ms', '5000', '--json']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ fetched: 13, rdfDocuments: 12, stoppedBy: 'frontier-empty', resumed: true });
      expect(documents(proxy) - before).toBe(10); // the 10 documents left, through the proxy
      expect(proxy.requests.every((r) => r.headers['user-agent'] === 'probe/2 (+test)')).toBe(true);
      expect(resumed.stderr).toContain(`Resuming with this crawl's stored --proxy ${proxy.origin} --user-agent probe/2 (+test)`);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('goes on through the proxy after the first run was killed', async () => {
    const proxy = await startWebProxy({ delayMs: 150 });
    const out = join(dir, 'killed');
    try {
      const child = startCli(['crawl', 'http://data.example.org/', '--out', out, '--proxy', proxy.origin, '--delay-ms', '0', '--concurrency', '1', '--quiet']);
      await until('the first run to fetch 4 documents through the proxy', () => documents(proxy) >= 4, 30_000, { everyMs: 20 });
      child.signal('SIGKILL');
      await child.ended('the killed crawl to exit');
      const before = documents(proxy);
      const resumed = await runCli(['crawl', '--out', out, '--max-offline-ms', '5000', '--json', '--quiet']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ rdfDocuments: 12, stoppedBy: 'frontier-empty' });
      expect(documents(proxy)).toBeGreaterThan(before);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('through a proxy with a password: stores no password, refuses naming --proxy, goes on when given it', async () => {
    const proxy = await startWebProxy({ auth: true });
    const out = join(dir, 'password');
    const withPassword = `http://ann:${PASSWORD}@127.0.0.1:${proxy.port}`;
    try {
      const first = await runCli(['crawl', 'http://data.example.org/', '--out', out, '--proxy', withPassword, '--delay-ms', '0', '--max-docs', '3', '--quiet', '--json']);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ fetched: 3, rdfDocuments: 2 }); // the proxy let it through
      // what the crawl's folder tells (stats --json shows the stored options) holds no password
      const stats = await runCli(['stats', out, '--json']);
      expect(stats.stdout).not.toContain(PASSWORD);
      expect(JSON.parse(stats.stdout).options.proxy).toBe(`http://ann@127.0.0.1:${proxy.port}/`);

      const requests = proxy.requests.length;
      const refused = await runCli(['crawl', '--out', out, '--max-docs', '50']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`ran with --proxy (http://ann@127.0.0.1:${proxy.port}/), whose password is not stored: give --proxy again`);
      expect(proxy.requests.length).toBe(requests); // the refusal sent nothing

      const resumed = await runCli(['crawl', '--out', out, '--proxy', withPassword, '--max-docs', '50', '--max-offline-ms', '5000', '--json', '--quiet']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ rdfDocuments: 12, stoppedBy: 'frontier-empty' });
      expect(resumed.stdout + resumed.stderr).not.toContain(PASSWORD);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("of a worker's shard of a Redis crawl is refused, naming --redis (its queue is in Redis, not in the folder)", async () => {
    const proxy = await startWebProxy();
    const redis = await startRedisServer({ password: 'redis-pass-1', appendOnly: false });
    const out = join(dir, 'shard');
    try {
      const worker = await runCli(['crawl', 'http://data.example.org/', '--redis', redis.url, '--out', out, '--proxy', proxy.origin, '--delay-ms', '0', '--max-docs', '3', '--quiet', '--json']);
      expect(worker.code, worker.stderr).toBe(0);
      expect(JSON.parse(worker.stdout)).toMatchObject({ fetched: 3 });
      const requests = proxy.requests.length;
      const alone = await runCli(['crawl', '--out', out, '--max-docs', '50']);
      expect(alone.code).toBe(2);
      expect(alone.stderr).toContain(`is one worker's shard of the crawl shared through Redis at redis://:***@127.0.0.1:${redis.port}`);
      expect(alone.stderr).toContain('Give --redis URL again');
      expect(alone.stderr).not.toContain('redis-pass-1');
      expect(proxy.requests.length).toBe(requests);
    } finally {
      await redis.stop();
      await proxy.close();
    }
  }, 60_000);
});
