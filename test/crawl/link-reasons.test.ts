// Why a link was not fetched: `links --internal` says processed no *and* why: depth, excluded,
// filtered by the strategy, robots, or still queued when the budget ran out.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLinkRows } from '../../src/beebot/link-rows.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import { linkPage, type ProxyWeb, startProxyWeb, turtle } from '../helpers/proxy-web.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const SITE = 'http://site.example';
let web: ProxyWeb;
let dir: string;
const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  web = await startProxyWeb({
    [`${SITE}/robots.txt`]: { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
    [`${SITE}/`]: linkPage('Home', ['/a.html', '/private/p.ttl', '/skip/x.ttl', '/logo.png', '/b.ttl', '/c.ttl']),
    [`${SITE}/a.html`]: linkPage('A', ['/deep.ttl']),
    [`${SITE}/b.ttl`]: turtle(`${SITE}/b`),
    [`${SITE}/c.ttl`]: turtle(`${SITE}/c`),
  });
  dir = folder.dir;
});
afterAll(async () => {
  await web.close();
});

describe('links --internal says why a link was not fetched', () => {
  it('depth, excluded, filtered (NF), robots, and budget', async () => {
    const crawler = await Crawler.open({
      out: join(dir, 'c'),
      seeds: [`${SITE}/`],
      strategy: 'bfs',
      bandit: 'none',
      delayMs: 0,
      concurrency: 1,
      proxy: web.proxy,
      linkTables: true,
      maxDepth: 1,
      maxDocs: 3,
      exclude: ['*/skip/*'],
    });
    try {
      await crawler.run();
      const rows = await readLinkRows(crawler.state, 'internal');
      const byPath = new Map(rows.map((r) => [new URL(r.url).pathname, [r.processed, r.reason]]));
      expect(byPath.get('/a.html')).toEqual([true, '']);
      expect(byPath.get('/private/p.ttl')).toEqual([true, 'robots']);
      expect(byPath.get('/skip/x.ttl')).toEqual([false, 'excluded']);
      expect(byPath.get('/logo.png')).toEqual([false, 'filtered']);
      expect(byPath.get('/deep.ttl')).toEqual([false, 'depth']);
      // 3 requests: /, then in bfs order /a.html, /private/p.ttl (denied: no request), /b.ttl; /c.ttl waits.
      expect(byPath.get('/c.ttl')).toEqual([false, 'queued (budget or stop came first)']);
    } finally {
      await crawler.close();
    }
  });
});
