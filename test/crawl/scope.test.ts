// Crawl scope: the seeds' PLDs by default (by the whole PSL, private section included),
// --offsite-hops, --scope open, --include/--exclude, and scope as an identity option of a resumed crawl.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../src/crawl/options.ts';
import { compilePattern, compileScope, judgeScope } from '../../src/frontier/scope.ts';
import { pldOf } from '../../src/links/normalize-url.ts';
import { crawlRecords } from '../helpers/crawl-records.ts';
import { linkPage, type ProxyWeb, startProxyWeb, turtle } from '../helpers/proxy-web.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

// a.github.io links its own data, a sibling on github.io (another PLD by the PSL's private section), and a page on
// other.org that links a third PLD: a 2-hop chain out of the seed PLD.
const PAGES = {
  'http://a.github.io/': linkPage('A', ['/data.ttl', '/tests/t1.ttl', 'http://b.github.io/vocab.ttl', 'http://other.org/page.html']),
  'http://a.github.io/data.ttl': turtle('http://a.github.io/data'),
  'http://a.github.io/tests/t1.ttl': turtle('http://a.github.io/tests/t1'),
  'http://b.github.io/vocab.ttl': turtle('http://b.github.io/vocab'),
  'http://other.org/page.html': linkPage('Other', ['http://third.net/far.ttl', '/near.ttl']),
  'http://other.org/near.ttl': turtle('http://other.org/near'),
  'http://third.net/far.ttl': turtle('http://third.net/far'),
};

let web: ProxyWeb;
let dir: string;
let n = 0;

const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  web = await startProxyWeb(PAGES);
  dir = folder.dir;
});
afterAll(async () => {
  await web.close();
});

async function crawl(options: Partial<CrawlOptions> = {}, out = join(dir, `c${n++}`)): Promise<{ urls: string[]; out: string }> {
  const records = await crawlRecords({ out, seeds: ['http://a.github.io/'], strategy: 'bfs', delayMs: 0, proxy: web.proxy, maxDocs: 50, ...options });
  return { urls: records.map((r) => r.url).sort(), out };
}

describe('PLDs by the whole Public Suffix List', () => {
  it('counts private-section suffixes: a.github.io and b.github.io are two PLDs', () => {
    expect(pldOf('a.github.io')).toBe('a.github.io');
    expect(pldOf('http://www.a.github.io/x')).toBe('a.github.io');
    expect(pldOf('b.github.io')).not.toBe(pldOf('a.github.io'));
    expect(pldOf('raw.githubusercontent.com')).toBe('raw.githubusercontent.com');
    expect(pldOf('foo.blogspot.com')).toBe('foo.blogspot.com');
    expect(pldOf('www.dbtune.org')).toBe('dbtune.org');
  });
});

describe('judgeScope (pure)', () => {
  const seeds = new Set(['a.github.io']);
  const scope = (o: Partial<Parameters<typeof compileScope>[0]> = {}) => compileScope({ scope: 'seeds', offsiteHops: 0, include: [], exclude: [], ...o }, seeds);
  it('keeps a crawl on its seed PLDs, counts hops out, and opens up on request', () => {
    expect(judgeScope('http://a.github.io/x', 0, scope())).toEqual({ ok: true, hops: 0 });
    expect(judgeScope('http://b.github.io/x', 0, scope())).toEqual({ ok: false, reason: 'out-of-scope' });
    expect(judgeScope('http://b.github.io/x', 0, scope({ offsiteHops: 1 }))).toEqual({ ok: true, hops: 1 });
    expect(judgeScope('http://c.org/x', 1, scope({ offsiteHops: 1 }))).toEqual({ ok: false, reason: 'out-of-scope' });
    expect(judgeScope('http://a.github.io/back', 1, scope({ offsiteHops: 1 }))).toEqual({ ok: true, hops: 0 });
    expect(judgeScope('http://c.org/x', 5, scope({ scope: 'open' }))).toEqual({ ok: true, hops: 6 });
  });
  it('applies include and exclude patterns: globs match the whole URL, /…/ is a regular expression', () => {
    const s = scope({ include: ['http://a.github.io/data*'], exclude: ['/\\.pdf$/i'] });
    expect(judgeScope('http://a.github.io/data/x.ttl', 0, s)).toEqual({ ok: true, hops: 0 });
    expect(judgeScope('http://a.github.io/other', 0, s)).toEqual({ ok: false, reason: 'not-included' });
    expect(judgeScope('http://a.github.io/data/x.PDF', 0, s)).toEqual({ ok: false, reason: 'excluded' });
    expect(compilePattern('*?q=1').test('http://x.org/a?q=1')).toBe(true); // `?` is literal in a glob
    expect(compilePattern('*?q=1').test('http://x.org/aXq=1')).toBe(false);
    expect(() => compilePattern('/(unclosed/')).toThrow(/not a valid regular expression/);
  });
});

describe('crawl scope on a local web behind a proxy', () => {
  it('by default fetches only the seeds’ PLD (a.github.io), not b.github.io nor other PLDs', async () => {
    const { urls } = await crawl();
    expect(urls).toEqual(['http://a.github.io/', 'http://a.github.io/data.ttl', 'http://a.github.io/tests/t1.ttl']);
    expect(web.fetched().some((u) => u.includes('b.github.io') || u.includes('other.org'))).toBe(false);
  });

  it('--offsite-hops N follows at most N links in a row outside the seeds’ PLDs (thesis §11: 1)', async () => {
    const one = (await crawl({ offsiteHops: 1 })).urls;
    expect(one).toContain('http://b.github.io/vocab.ttl');
    expect(one).toContain('http://other.org/page.html');
    expect(one).not.toContain('http://other.org/near.ttl'); // a second link followed off-site, even on the same PLD
    expect(one).not.toContain('http://third.net/far.ttl');
    const two = (await crawl({ offsiteHops: 2 })).urls;
    expect(two).toContain('http://other.org/near.ttl');
    expect(two).toContain('http://third.net/far.ttl');
  });

  it('--scope open follows every PLD', async () => {
    const { urls } = await crawl({ scope: 'open' });
    expect(urls).toContain('http://third.net/far.ttl');
    expect(urls).toHaveLength(Object.keys(PAGES).length);
  });

  it('--exclude and --include filter links by URL pattern', async () => {
    expect((await crawl({ exclude: ['*/tests/*'] })).urls).toEqual(['http://a.github.io/', 'http://a.github.io/data.ttl']);
    expect((await crawl({ scope: 'open', include: ['*.ttl'] })).urls).toEqual([
      'http://a.github.io/', // seeds are crawled whatever the patterns
      'http://a.github.io/data.ttl',
      'http://a.github.io/tests/t1.ttl',
      'http://b.github.io/vocab.ttl',
    ]);
  });

  it('stores the scope: a resume keeps it, and a resume that changes it is refused', async () => {
    const first = await crawl({ offsiteHops: 1, maxDocs: 2 });
    expect(first.urls).toHaveLength(2);
    const crawler = await Crawler.open({ out: first.out, maxDocs: 50 });
    expect(crawler.options.offsiteHops).toBe(1);
    await crawler.close();
    await expect(Crawler.open({ out: first.out, scope: 'open' })).rejects.toThrow(/--scope seeds/);
    await expect(Crawler.open({ out: first.out, exclude: ['*.ttl'] })).rejects.toThrow(/--exclude/);
    const resumed = await crawl({}, first.out);
    expect(resumed.urls).toContain('http://other.org/page.html'); // one hop out, as stored
    expect(resumed.urls).not.toContain('http://other.org/near.ttl');
  });
});
