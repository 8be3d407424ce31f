// Every read command over several shards: real crawls of a simulated web split by PLD, read as one crawl;
// and a URL fetched in two shards: one record, the later wins, refetched = 1, its document exported once.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { openState } from '../../src/state/open-state.ts';
import { crawlRecords } from '../helpers/crawl-records.ts';
import { runCli, startCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

let web: SimWeb;
let tmp: string;
const dir = (name: string) => join(tmp, name);
const shards: Record<string, CrawlRecord[]> = {};
let overlap: CrawlRecord;

/** One worker's shard: a crawl of one simulated site (its PLD only). */
async function crawlShard(name: string, seed: string, maxDocs: number): Promise<void> {
  shards[name] = await crawlRecords({ out: dir(name), seeds: [seed], proxy: web.proxyUrl, delayMs: 0, concurrency: 4, maxDocs, allowPrivate: true, linkTables: true });
}

const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  tmp = folder.dir;
  web = await startSimweb({ profiles: 'thesis', seed: 3, scale: 0.1 });
  const [a, b, c] = web.sites;
  await crawlShard('a', a!.startUrl, 25);
  await crawlShard('b', b!.startUrl, 25);
  await crawlShard('c', c!.startUrl, 25);
  // A second worker fetched one of a's RDF documents again, later (after a lost lease): shard a2.
  overlap = shards.a!.find((r) => r.triples > 0) as CrawlRecord;
  expect(overlap).toBeDefined();
  await crawlShard('a2', overlap.url, 1);
}, 180_000);

afterAll(async () => {
  await web?.close();
});

async function ok(args: string[]): Promise<string> {
  const res = await runCli(args);
  expect({ args, code: res.code, stderr: res.code === 0 ? '' : res.stderr }).toEqual({ args, code: 0, stderr: '' });
  return res.stdout;
}
const lines = (text = '') => text.split(/\r?\n/).filter((l) => l !== '');
const sortedLines = (text = '') => lines(text).sort();

describe('three shards of a crawl split by PLD, read as one crawl', { timeout: 120_000 }, () => {
  const abc = () => ['a', 'b', 'c'].map(dir);

  it('docs: every record of every shard once, in fetch order, each naming its shard', async () => {
    const docs = lines(await ok(['docs', ...abc()])).map((l) => JSON.parse(l) as CrawlRecord & { shard: string });
    const expected = ['a', 'b', 'c'].flatMap((s) => shards[s]!.map((r) => `${dir(s)} ${r.seq} ${r.url}`)).sort();
    expect(docs.map((r) => `${r.shard} ${r.seq} ${r.url}`).sort()).toEqual(expected);
    const times = docs.map((r) => r.fetchedAt);
    expect(times).toEqual([...times].sort());
  });

  it('stats and metrics: the sums of the shards, refetched 0, every PLD', async () => {
    const [all, ...each] = await Promise.all([abc(), ...abc().map((d) => [d])].map(async (dirs) => JSON.parse(await ok(['stats', ...dirs, '--json']))));
    for (const key of ['records', 'fetched', 'ok', 'rdfDocuments', 'triples', 'errors', 'denied', 'redirected']) {
      expect({ key, value: all[key] }).toEqual({ key, value: each.reduce((n: number, s: Record<string, number>) => n + (s[key] as number), 0) });
    }
    expect(all.refetched).toBe(0);
    expect(Object.keys(all.perPld).sort()).toEqual(web.sites.slice(0, 3).map((s) => s.pld).sort());
    const human = await ok(['stats', ...abc()]);
    expect(human).toContain('(3 shards read as one crawl)');
    expect(human).toMatch(/refetched\s+0/);
    const metrics = JSON.parse(await ok(['metrics', ...abc(), '--json']));
    for (const key of ['fetched', 'rdfDocuments', 'triples', 'errors', 'refetched']) expect({ key, value: metrics.figures[key] }).toEqual({ key, value: all[key] });
  });

  it('export: the union of the shards\' quads; query: the same counts over the shards', async () => {
    const [all, ...each] = await Promise.all([abc(), ...abc().map((d) => [d])].map((dirs) => ok(['export', ...dirs])));
    expect(sortedLines(all)).toEqual(each.flatMap(sortedLines).sort());
    const count = 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?g != <urn:rdfscout:crawl>) }';
    expect(lines(await ok(['query', ...abc(), count, '--format', 'csv']))).toEqual(['n', String(lines(all).length)]);
    const graphs = `SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?g != <urn:rdfscout:crawl>) }`;
    const stored = new Set(lines(all).map((l) => /<([^>]*)> \.$/.exec(l)?.[1]));
    expect(lines(await ok(['query', ...abc(), graphs, '--format', 'csv']))).toEqual(['n', String(stored.size)]);
  });

  it('links: each shard\'s rows, processed as in its own crawl', async () => {
    const [all, ...each] = await Promise.all([abc(), ...abc().map((d) => [d])].map(async (dirs) => JSON.parse(await ok(['links', ...dirs, '--internal', '--format', 'json']))));
    expect(all.length).toBeGreaterThan(0);
    expect(all).toEqual(each.flat());
  });

  it('serve: one SPARQL endpoint over the shards', async () => {
    const child = startCli(['serve', ...abc(), '--port', '0']);
    try {
      const url = (await child.waitFor(/SPARQL endpoint: (\S+) over 3 shards/, { stream: 'stdout' }))[1] as string;
      const query = 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:rdfscout:crawl> { ?d a <https://w3id.org/rdfscout/ns#CrawledDocument> } }';
      const res = await fetch(`${url}?query=${encodeURIComponent(query)}`, { headers: { accept: 'text/csv' } });
      expect(res.status).toBe(200);
      const records = ['a', 'b', 'c'].reduce((n, s) => n + shards[s]!.length, 0);
      expect(lines(await res.text())).toEqual(['n', String(records)]);
    } finally {
      child.signal('SIGINT');
      await child.ended('serve to exit on SIGINT');
    }
  });
});

describe('a URL fetched in two shards', { timeout: 120_000 }, () => {
  const dirs = () => ['a', 'b', 'a2'].map(dir);

  it('is one record, the later one (from a2), and counts refetched = 1', async () => {
    const docs = lines(await ok(['docs', ...dirs()])).map((l) => JSON.parse(l) as CrawlRecord & { shard: string });
    expect(docs).toHaveLength(shards.a!.length + shards.b!.length);
    const mine = docs.filter((r) => r.url === overlap.url);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ shard: dir('a2'), fetchedAt: shards.a2![0]!.fetchedAt });
    expect(mine[0]!.fetchedAt > overlap.fetchedAt).toBe(true);
    const stats = JSON.parse(await ok(['stats', ...dirs(), '--json']));
    expect({ refetched: stats.refetched, records: stats.records }).toEqual({ refetched: 1, records: shards.a!.length + shards.b!.length });
  });

  it('has its document exported once, and SPARQL sees it once', async () => {
    const [all, a, b] = await Promise.all([dirs(), [dir('a')], [dir('b')]].map((d) => ok(['export', ...d])));
    expect(sortedLines(all)).toEqual([...lines(a), ...lines(b)].sort());
    const q = `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${overlap.finalUrl}> { ?s ?p ?o } }`;
    expect(lines(await ok(['query', ...dirs(), q, '--format', 'csv']))).toEqual(['n', String(overlap.triples)]);
  });
});

describe('bad folders, and a shard a crawl is writing to', { timeout: 60_000 }, () => {
  it('a folder without a crawl: exit 1 naming it, before reading any; a folder given twice: exit 2', async () => {
    const missing = dir('nothing-here');
    const res = await runCli(['docs', dir('a'), missing]);
    expect(res).toMatchObject({ code: 1, stdout: '', stderr: `rdfscout docs: no crawl in ${missing} (give the --out folder of a crawl) [RDFSCOUT_NO_CRAWL]\n` });
    const twice = await runCli(['stats', dir('a'), `${dir('a')}/`]);
    expect(twice).toMatchObject({ code: 2, stderr: expect.stringContaining(`the crawl folder ${dir('a')}/ is given twice`) });
  });

  it('reads a snapshot of a shard whose store a running crawl holds', async () => {
    const held = await openState(dir('b')); // as a worker crawling into b would
    try {
      const res = await runCli(['docs', dir('a'), dir('b')]);
      expect(res.code).toBe(0);
      expect(res.stderr).toContain(`(pid ${process.pid}, since `); // this test process holds b
      expect(res.stderr).toContain(`holds ${dir('b')}: reading a snapshot`);
      expect(lines(res.stdout)).toHaveLength(shards.a!.length + shards.b!.length);
    } finally {
      await held.close();
    }
  });
});
