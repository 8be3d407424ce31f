// Re-judging queued links when C_HR(t) learns an RDF parent (thesis §5 at time t).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import { shouldRejudge } from '../../src/crawl/restore-crawl.ts';
import { createStrategy } from '../../src/strategies/index.ts';
import { SimilarQueued, similarityKeys } from '../../src/frontier/similar-queued.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const link = (url: string) => ({ url, tag: 'a' as const, anchor: '', title: '', type: '', rel: '', context: '' });
const queued = (url: string) => ({ url, link: link(url), parent: 'http://e.org/', depth: 1, priority: 3, source: { url: 'http://e.org/', depth: 0, type: 'html' as const } });

describe('SimilarQueued', () => {
  it('keys URLs by the r1 and r2 rules', () => {
    expect(similarityKeys('http://e.org/members/member1/')).toEqual(['r1|e.org|2|members', 'r2|e.org|members/member1']);
    expect(similarityKeys('http://e.org/members/')).toEqual(['r2|e.org|members']); // n = 1: r1 cannot hold
    expect(similarityKeys('http://e.org/')).toEqual([]);
  });

  it('finds the queued siblings (r1) and query variants (r2) of a new parent, and forgets handed-out links', () => {
    const index = new SimilarQueued();
    for (const u of ['http://e.org/m/2/', 'http://e.org/m/3/', 'http://e.org/n/1/', 'http://e.org/m/1/?page=2', 'http://x.org/m/4/']) index.add(queued(u));
    expect(index.size).toBe(5);
    expect(index.similarTo('http://e.org/m/1/').map((q) => q.url).sort()).toEqual(['http://e.org/m/1/?page=2', 'http://e.org/m/2/', 'http://e.org/m/3/']);
    index.delete('http://e.org/m/2/');
    expect(index.similarTo('http://e.org/m/1/').map((q) => q.url).sort()).toEqual(['http://e.org/m/1/?page=2', 'http://e.org/m/3/']);
    expect(index.size).toBe(4);
  });

  it('stops indexing at its bound', () => {
    const index = new SimilarQueued(2);
    for (const u of ['http://e.org/a/1', 'http://e.org/a/2', 'http://e.org/a/3']) index.add(queued(u));
    expect(index.size).toBe(2);
  });
});

// Home links five news pages, then bob and carol (all H, in that order), and alice's page with a FOAF anchor (R by
// an2, so fetched first). Only alice's page links RDF: once it is fetched, /people/alice/ is a known RDF parent.
const PAGES: Record<string, string> = {
  '/': `<ul>${[1, 2, 3, 4, 5].map((i) => `<li><a href="/news/${i}">News ${i}</a></li>`).join('')}
    <li><a href="/people/bob/">Bob</a></li><li><a href="/people/carol/">Carol</a></li><li><a href="/people/alice/">Alice's FOAF profile</a></li></ul>`,
  '/people/alice/': `<p>Alice. <a href="/data/alice.rdf">Her data</a></p>`,
};

describe('a crawl that learns an RDF parent', () => {
  let server: Server;
  let base: string;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path.endsWith('.rdf')) {
        res.writeHead(200, { 'content-type': 'application/rdf+xml' });
        res.end(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:foaf="http://xmlns.com/foaf/0.1/"><foaf:Person rdf:about="#me"><foaf:name>A</foaf:name></foaf:Person></rdf:RDF>`);
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html><body>${PAGES[path] ?? '<p>Nothing here.</p>'}</body></html>`);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = folder.dir;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function crawl(name: string, rejudgeQueued: boolean): Promise<CrawlRecord[]> {
    const crawler = await Crawler.open({ out: join(dir, name), seeds: [`${base}/`], allowPrivate: true, delayMs: 0, concurrency: 1, rejudgeQueued });
    try {
      await crawler.run();
      const records: CrawlRecord[] = [];
      for await (const r of readRecords(crawler.state)) records.push(r);
      return records;
    } finally {
      await crawler.close();
    }
  }
  const path = (r: CrawlRecord) => r.url.slice(base.length);

  it('judges queued siblings again: they become HR by r1 and are fetched before older H links', async () => {
    const records = await crawl('rejudge', true);
    const order = records.map(path);
    const bob = records.find((r) => path(r) === '/people/bob/');
    expect(bob).toMatchObject({ label: 'HR', rules: ['r1'] });
    expect(order.slice(0, 3)).toEqual(['/', '/people/alice/', '/data/alice.rdf']);
    expect(order.indexOf('/people/bob/')).toBeLessThan(order.indexOf('/news/1'));
    expect(order.indexOf('/people/carol/')).toBeLessThan(order.indexOf('/news/1'));
  });

  it('with fixed labels (--fixed-labels) they stay H and wait their turn', async () => {
    const records = await crawl('fixed', false);
    const order = records.map(path);
    expect(records.find((r) => path(r) === '/people/bob/')).toMatchObject({ label: 'H', rules: [] });
    expect(order.indexOf('/people/bob/')).toBeGreaterThan(order.indexOf('/news/5'));
  });
});

describe('shouldRejudge', () => {
  it('only for strategies whose verdicts learning an RDF parent can change, and not with --fixed-labels', () => {
    const on = (name: string, rejudgeQueued = true) => shouldRejudge({ rejudgeQueued }, createStrategy(name));
    expect(['fc-r+hr', 'fc-r+hr2', 'topical+hr'].map((n) => on(n))).toEqual([true, true, true]);
    expect(['bfs', 'fc-r', 'fc-r2', 'topical'].map((n) => on(n))).toEqual([false, false, false, false]);
    expect(on('fc-r+hr', false)).toBe(false);
  });
});
