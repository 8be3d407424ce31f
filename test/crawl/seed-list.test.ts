// Seeds: a lenient seeds file with line numbers, comma-separated URLs, fragments dropped, and
// private or localhost seeds refused before any request (so never counted as fetched).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlOptionsFromArgs } from '../../src/commands/crawl.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import { formatSeedProblems, parseSeedList, screenSeeds } from '../../src/crawl/seed-list.ts';
import { linkPage, type ProxyWeb, startProxyWeb, turtle } from '../helpers/proxy-web.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

let dir: string;
const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  dir = folder.dir;
});

describe('parseSeedList', () => {
  it('reports each bad line with its number and reads the rest', () => {
    const { sites, problems } = parseSeedList('http://a.org/\nnot a seed at all\n\nftp://b.org/x\nhttp://c.org/\n');
    expect(sites.map((s) => s.start)).toEqual(['http://a.org/', 'http://c.org/']);
    expect(problems.map((p) => [p.line, p.text])).toEqual([
      [2, 'not a seed at all'],
      [4, 'ftp://b.org/x'],
    ]);
    expect(formatSeedProblems('seeds.txt', problems)).toBe(
      'seeds.txt:2: no URL or domain name on this line ("not a seed at all")\nseeds.txt:4: no URL or domain name on this line ("ftp://b.org/x")',
    );
  });

  it('splits comma-separated URLs on one line (none dropped) and drops fragments', () => {
    const { sites, problems } = parseSeedList('http://greek.example/thebes, http://greek.example/sparta\nhttp://a.org/doc.ttl#me\n');
    expect(problems).toEqual([]);
    expect(sites.map((s) => s.start)).toEqual(['http://greek.example/thebes', 'http://greek.example/sparta', 'http://a.org/doc.ttl']);
    expect(sites.map((s) => s.number)).toEqual([1, 2, 3]);
  });

  it('still reads BeeBot’s CSV site list, header and quoted names included', () => {
    const { sites, problems } = parseSeedList('number,full name,short name,start address\n10,"Institute, RAS",binran,http://www.binran.ru/\n11,Zoo,zin,www.zin.ru\n11,Dup,dup,http://dup.ru/\n');
    expect(sites.map((s) => [s.number, s.name, s.shortName, s.start, s.site])).toEqual([
      [10, 'Institute, RAS', 'binran', 'http://www.binran.ru/', 'binran.ru'],
      [11, 'Zoo', 'zin', 'http://www.zin.ru/', 'zin.ru'],
    ]);
    expect(problems).toEqual([{ line: 4, text: '11,Dup,dup,http://dup.ru/', message: 'site number 11 is used twice' }]);
  });
});

describe('screenSeeds', () => {
  it('refuses private literals and localhost names unless private targets are allowed', () => {
    const urls = ['http://10.0.0.1/', 'http://localhost/', 'http://[::1]/', 'http://example.org/'];
    const { accepted, refused } = screenSeeds(urls, false);
    expect(accepted).toEqual(['http://example.org/']);
    expect(refused.map((r) => r.url)).toEqual(urls.slice(0, 3));
    expect(screenSeeds(urls, true).accepted).toEqual(urls);
  });
});

describe('seeds in a crawl', () => {
  let web: ProxyWeb;
  beforeAll(async () => {
    web = await startProxyWeb({
      'http://greek.example/thebes': linkPage('Thebes', []),
      'http://greek.example/sparta': linkPage('Sparta', []),
      'http://greek.example/doc.ttl': turtle('http://greek.example/doc#me'),
    });
  });
  afterAll(async () => {
    await web.close();
  });

  it('a seeds file with a bad line and a comma-separated line crawls every good seed; refused seeds are not fetched', async () => {
    const file = join(dir, 'seeds.txt');
    await writeFile(file, 'http://greek.example/thebes, http://greek.example/sparta\n%%% bad line\nhttp://greek.example/doc.ttl#me\nhttp://localhost/\nhttp://10.1.2.3/\n');
    const out = join(dir, 'c1');
    const { explicit } = await crawlOptionsFromArgs([`--seeds-file`, file, '--out', out, '--proxy', web.proxy, '--delay-ms', '0', '--quiet']);
    const crawler = await Crawler.open(explicit);
    try {
      expect(crawler.refusedSeeds.map((r) => r.url)).toEqual(['http://localhost/', 'http://10.1.2.3/']);
      const summary = await crawler.run();
      expect(summary.fetched).toBe(3); // the refused seeds are neither fetched nor recorded
      const urls: string[] = [];
      for await (const r of readRecords(crawler.state)) urls.push(r.url);
      expect(urls.sort()).toEqual(['http://greek.example/doc.ttl', 'http://greek.example/sparta', 'http://greek.example/thebes']);
      // The graph name is the document's URL, without the seed's fragment.
      const { items } = await crawler.state.quadstore.get({});
      expect(new Set(items.map((q) => q.graph.value))).toEqual(new Set(['http://greek.example/doc.ttl']));
      const requested = web.fetched();
      expect(requested.some((u) => u.includes('localhost') || u.includes('10.1.2.3'))).toBe(false);
    } finally {
      await crawler.close();
    }
  });

  it('splits comma-separated seeds given as arguments too', async () => {
    const { explicit } = await crawlOptionsFromArgs(['http://a.org/x,http://a.org/y', 'b.org', '--out', join(dir, 'c2')]);
    expect(explicit.seeds).toEqual(['http://a.org/x', 'http://a.org/y', 'b.org']);
  });
});
