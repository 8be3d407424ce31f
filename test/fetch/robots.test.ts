import { describe, expect, it } from 'vitest';
import { classifyRobotsStatus, RobotsCache, type RobotsLoad } from '../../src/fetch/robots-cache.ts';
import type { FetchResult } from '../../src/fetch/types.ts';
import type { Handler, TestServer } from '../helpers/http-server.ts';
import { useFetchHarness } from './harness.ts';

const { serve, fetcher } = useFetchHarness();

/** A site whose robots.txt is answered by `robots`, every other path with a small text page. */
function site(robots: Handler, pages?: Handler): Promise<TestServer> {
  return serve(pages ?? ((req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`page ${req.url}`)), robots);
}

const pathsAsked = (s: TestServer) => s.requests.map((r) => r.url);
const kindOf = (r: FetchResult) => `${r.kind}:${'error' in r ? r.error : r.status}`;

describe('robots.txt', () => {
  it('200 with Disallow: denies those paths without requesting them, allows the rest', async () => {
    const server = await site((_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n'));
    const f = fetcher();
    const denied = await f.fetch(`${server.origin}/private/data.ttl`);
    expect(denied).toMatchObject({ kind: 'denied', status: null, error: 'RDFSCOUT_ROBOTS_DENIED' });
    expect((await f.fetch(`${server.origin}/public.ttl`)).kind).toBe('ok');
    expect(pathsAsked(server)).toEqual(['/robots.txt', '/public.ttl']);
  });

  it('matches groups by our product token', async () => {
    const robots = 'User-agent: rdfscout\nDisallow: /\n\nUser-agent: *\nAllow: /\n';
    const server = await site((_q, res) => res.writeHead(200).end(robots));
    expect(kindOf(await fetcher().fetch(`${server.origin}/x`))).toBe('denied:RDFSCOUT_ROBOTS_DENIED');
    expect(kindOf(await fetcher({ userAgent: 'otherbot/2.0' }).fetch(`${server.origin}/x`))).toBe('ok:200');
  });

  it('404 means everything is allowed', async () => {
    const server = await site((_q, res) => res.writeHead(404).end('no robots here'));
    expect(kindOf(await fetcher().fetch(`${server.origin}/anything`))).toBe('ok:200');
  });

  it('500 means "unavailable, retry later": retryable failure, page not requested, state cached briefly', async () => {
    let robotsStatus = 500;
    const server = await site((_q, res) => res.writeHead(robotsStatus).end('User-agent: *\nDisallow:\n'));
    const f = fetcher({ robotsRetryMs: 300 });
    const first = await f.fetch(`${server.origin}/page`);
    expect(first).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_ROBOTS_UNAVAILABLE', retryable: true });
    expect((await f.fetch(`${server.origin}/page2`)).kind).toBe('failed');
    expect(pathsAsked(server)).toEqual(['/robots.txt']); // cached: not asked again at once, pages never asked
    robotsStatus = 200;
    await new Promise((r) => setTimeout(r, 350));
    expect(kindOf(await f.fetch(`${server.origin}/page`))).toBe('ok:200');
    expect(pathsAsked(server)).toEqual(['/robots.txt', '/robots.txt', '/page']);
  });

  it('exposes Crawl-delay in ms, capped at maxCrawlDelayMs', async () => {
    const server = await site((_q, res) => res.writeHead(200).end('User-agent: *\nCrawl-delay: 2.5\n'));
    const f = fetcher();
    expect(f.crawlDelayMs(`${server.origin}/`)).toBeNull(); // not loaded yet
    await f.fetch(`${server.origin}/`);
    expect(f.crawlDelayMs(`${server.origin}/other`)).toBe(2500);
    const capped = fetcher({ maxCrawlDelayMs: 1000 });
    await capped.fetch(`${server.origin}/`);
    expect(capped.crawlDelayMs(`${server.origin}/`)).toBe(1000);
  });

  it('reads at most robotsMaxBytes of a huge robots.txt; rules past the cap are ignored', async () => {
    let sent = 0;
    const server = await site((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.on('error', () => {});
      res.write('User-agent: *\nDisallow: /early\n');
      const filler = Buffer.from(`# ${'x'.repeat(1000)}\n`.repeat(64));
      const pump = () => {
        while (sent < 20 * 1024 * 1024) {
          sent += filler.length;
          if (!res.write(filler)) return void res.once('drain', pump);
        }
        res.end('Disallow: /late\n');
      };
      pump();
    });
    const f = fetcher();
    expect(kindOf(await f.fetch(`${server.origin}/early/x`))).toBe('denied:RDFSCOUT_ROBOTS_DENIED');
    expect(kindOf(await f.fetch(`${server.origin}/late/x`))).toBe('ok:200');
    expect(sent).toBeLessThan(20 * 1024 * 1024); // the 20 MB robots.txt was not read to the end
  });

  it('follows a robots.txt redirect, and re-checks robots on every redirect hop of a page', async () => {
    const server = await site(
      (_q, res) => res.writeHead(301, { location: '/real-robots.txt' }).end(),
      (req, res) => {
        if (req.url === '/real-robots.txt') return void res.writeHead(200).end('User-agent: *\nDisallow: /secret\n');
        if (req.url === '/go') return void res.writeHead(302, { location: '/secret/doc' }).end();
        res.writeHead(200).end('ok');
      },
    );
    const result = await fetcher().fetch(`${server.origin}/go`);
    expect(result).toMatchObject({ kind: 'denied', finalUrl: `${server.origin}/secret/doc` });
    expect(result.redirects).toEqual([{ from: `${server.origin}/go`, to: `${server.origin}/secret/doc`, status: 302 }]);
    expect(pathsAsked(server)).not.toContain('/secret/doc');
  });

  it('concurrent fetches of one origin share a single robots.txt request', async () => {
    const server = await site(async (_q, res) => {
      await new Promise((r) => setTimeout(r, 50));
      res.writeHead(200).end('User-agent: *\nDisallow:\n');
    });
    const f = fetcher();
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => f.fetch(`${server.origin}/p${i}`)));
    expect(results.map((r) => r.kind)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(pathsAsked(server).filter((p) => p === '/robots.txt')).toHaveLength(1);
  });
});

describe('RobotsCache', () => {
  it('classifies statuses as RFC 9309 says', () => {
    expect([200, 204, 401, 403, 404, 410, 429, 500, 503].map(classifyRobotsStatus)).toEqual([
      'parse',
      'parse',
      'allow-all',
      'allow-all',
      'allow-all',
      'allow-all',
      'unavailable',
      'unavailable',
      'unavailable',
    ]);
  });

  it('a load that got no response is asked again after 1 s, doubling up to retryMs; any answer resets it', async () => {
    let now = 0;
    let answer: RobotsLoad = { kind: 'unavailable', reason: 'ECONNREFUSED', network: true };
    const cache = new RobotsCache({ load: async () => answer, agent: 'rdfscout', ttlMs: 100_000, retryMs: 5000, maxEntries: 10, maxCrawlDelayMs: 60_000, now: () => now });
    const url = new URL('http://dead.example/a');
    const retryAts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const v = await cache.check(url);
      if (v.kind !== 'unavailable') throw new Error(`expected unavailable, got ${v.kind}`);
      retryAts.push(v.retryAt - now);
      now = v.retryAt;
    }
    expect(retryAts).toEqual([1000, 2000, 4000, 5000, 5000]);
    answer = { kind: 'unavailable', reason: 'HTTP 503' }; // an answer (5xx): retryMs, and the doubling starts over
    expect(await cache.check(url)).toMatchObject({ kind: 'unavailable', network: false, retryAt: now + 5000 });
    now += 5000;
    answer = { kind: 'unavailable', reason: 'ECONNREFUSED', network: true };
    expect(await cache.check(url)).toMatchObject({ kind: 'unavailable', network: true, retryAt: now + 1000 });
  });

  it('answers Crawl-delay and Sitemaps per origin, whatever the case of the host or the URL form asked with', async () => {
    const texts: Record<string, string> = {
      'http://slow.example/robots.txt': 'User-agent: *\nCrawl-delay: 3\nSitemap: http://slow.example/s.xml\nUser-agent: rdfscout\nCrawl-delay: 1.5\n',
      'http://plain.example/robots.txt': 'User-agent: *\nDisallow: /no\n',
    };
    const cache = new RobotsCache({ load: async (url) => ({ kind: 'text', text: texts[url] ?? '' }), agent: 'rdfscout', ttlMs: 100_000, retryMs: 10, maxEntries: 10, maxCrawlDelayMs: 2000 });
    expect(cache.crawlDelayMs('http://slow.example/a')).toBeNull(); // not loaded yet
    await cache.check(new URL('http://slow.example/a'));
    await cache.check(new URL('http://plain.example/a'));
    for (const url of ['http://slow.example/b?x#y', 'http://SLOW.Example/c', new URL('http://slow.example/d'), 'http://slow.example']) {
      expect(cache.crawlDelayMs(url)).toBe(1500); // the group of our agent
      expect(cache.sitemaps(url)).toEqual(['http://slow.example/s.xml']);
    }
    expect(cache.crawlDelayMs('http://plain.example/x')).toBeNull();
    expect(cache.crawlDelayMs('http://slow.example:8080/x')).toBeNull(); // another origin, not loaded
    expect(cache.crawlDelayMs('not a url')).toBeNull();
    expect(cache.sitemaps('not a url')).toEqual([]);
  });

  it('reloads after the TTL, keeps at most maxEntries origins', async () => {
    let now = 0;
    const loads: string[] = [];
    const cache = new RobotsCache({
      load: async (url): Promise<RobotsLoad> => {
        loads.push(url);
        return { kind: 'text', text: 'User-agent: *\nDisallow: /no\n' };
      },
      agent: 'rdfscout',
      ttlMs: 1000,
      retryMs: 10,
      maxEntries: 2,
      maxCrawlDelayMs: 60_000,
      now: () => now,
    });
    expect(await cache.check(new URL('http://a.example/no/x'))).toEqual({ kind: 'denied' });
    expect(await cache.check(new URL('http://a.example/yes'))).toEqual({ kind: 'allowed' });
    expect(loads).toEqual(['http://a.example/robots.txt']);
    now = 1001;
    await cache.check(new URL('http://a.example/yes'));
    expect(loads).toHaveLength(2);
    await cache.check(new URL('http://b.example/'));
    await cache.check(new URL('http://c.example:8080/'));
    expect(cache.size).toBe(2);
    expect(loads.at(-1)).toBe('http://c.example:8080/robots.txt');
  });
});

describe('the politeness gate of a fetch (issue 15)', () => {
  it('is passed once, just before the first request the fetch sends: its own robots.txt load, or its page after another fetch\'s load', async () => {
    let releaseRobots = () => {};
    const robotsHeld = new Promise<void>((r) => {
      releaseRobots = r;
    });
    const server = await site(async (_q, res) => {
      await robotsHeld; // robots.txt answers only when the test says so
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    });
    const f = fetcher();
    const passes: string[] = [];
    const gate = (name: string) => async (url: string) => {
      passes.push(`${name} ${new URL(url).pathname}`);
    };
    const a = f.fetch(`${server.origin}/a`, { gate: gate('a') });
    await new Promise((r) => setTimeout(r, 50)); // a's robots.txt request is out and unanswered
    const b = f.fetch(`${server.origin}/b`, { gate: gate('b') });
    await new Promise((r) => setTimeout(r, 50));
    expect(passes).toEqual(['a /robots.txt']); // b waits for a's load and has sent nothing: no gate yet
    releaseRobots();
    expect(kindOf(await a)).toBe('ok:200');
    expect(kindOf(await b)).toBe('ok:200');
    // a's page continues the slot of its robots.txt; b passes the gate just before its own page.
    expect(passes).toEqual(['a /robots.txt', 'b /b']);
    expect(pathsAsked(server).sort()).toEqual(['/a', '/b', '/robots.txt']);
    await f.fetch(`${server.origin}/c`, { gate: gate('c') }); // robots.txt cached: the page itself is gated
    expect(passes.at(-1)).toBe('c /c');
  });

  it('waits for the gate before sending anything; a rejected gate fails only its own fetch, and a waiting one loads robots.txt itself', async () => {
    const server = await site((_q, res) => void res.writeHead(404).end());
    const f = fetcher();
    let refuse = (_err: Error) => {};
    const refused = f.fetch(`${server.origin}/x`, {
      gate: () =>
        new Promise<void>((_resolve, reject) => {
          refuse = reject;
        }),
    });
    const passes: string[] = [];
    const waiting = f.fetch(`${server.origin}/y`, {
      gate: async (url) => {
        passes.push(new URL(url).pathname);
      },
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(pathsAsked(server)).toEqual([]); // x's robots.txt waits for its gate; y waits for that load
    expect(passes).toEqual([]);
    refuse(new Error('gate closed'));
    expect((await refused).kind).toBe('failed');
    expect(kindOf(await waiting)).toBe('ok:200');
    expect(passes).toEqual(['/robots.txt']); // y's own load, then its page in the same slot
    expect(pathsAsked(server)).toEqual(['/robots.txt', '/y']);
  });
});
