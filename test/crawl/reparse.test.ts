// `crawl --warc` then `reparse`: a crawl of a simulated web archived as WARC and rebuilt from it without fetching
// gives the same quads per graph and the same records; a file cut by a crash is read up to its last whole record.
import { copyFile, mkdir, readdir, readFile, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { reparseArchive, seqCoverage } from '../../src/crawl/reparse.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { openState } from '../../src/state/open-state.ts';
import { exportedLines } from '../helpers/export-text.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** What a record says, without its timing. */
async function recordsOf(dir: string) {
  const state = await openState(dir);
  const out = [];
  try {
    for await (const r of readRecords(state)) {
      out.push({ seq: r.seq, url: r.url, finalUrl: r.finalUrl, status: r.status, outcome: r.outcome, label: r.label, rules: r.rules, depth: r.depth, parent: r.parent, triples: r.triples, linksQueued: r.linksQueued, detectedType: r.detectedType, redirects: r.redirects, error: r.error });
    }
  } finally {
    await state.close();
  }
  return out;
}

describe('crawl --warc, then reparse', () => {
  let web: SimWeb;
  let tmp: string;
  let warcDir: string;
  let crawled: string;

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    // dbtune-like: resource URIs answer 303 to RDF (redirect hops); museum-like: embedded JSON-LD, RDF/XML as XML.
    web = await startSimweb({ profiles: 'dbtune-like,museum-like', seed: 3, scale: 0.1, crawlDelay: 0 });
    tmp = folder.dir;
    warcDir = join(tmp, 'warc/');
    crawled = join(tmp, 'crawl');
    const crawler = await Crawler.open(
      { out: crawled, seeds: web.sites.map((s) => s.startUrl), proxy: web.proxyUrl, strategy: 'fc-r+hr', maxDocs: 160, delayMs: 0, concurrency: 6, hostConcurrency: 3 },
      { warc: { target: warcDir, maxFileBytes: 200_000 } },
    );
    try {
      await crawler.run();
    } finally {
      await crawler.close();
    }
  }, 60_000);

  afterAll(async () => {
    await web.close();
  });

  it('writes rotating .warc.gz files, each opened by a warcinfo record', async () => {
    const files = (await readdir(warcDir)).sort();
    expect(files.length).toBeGreaterThan(1); // 200 kB per file
    for (const f of files) expect(f).toMatch(/^rdfscout-\d{14}-\d+-\d{5}\.warc\.gz$/);
    const { gunzipSync } = await import('node:zlib');
    const first = gunzipSync(await readFile(join(warcDir, files[0] as string))).toString('latin1');
    expect(first.startsWith('WARC/1.1\r\n')).toBe(true);
    expect(first).toMatch(/WARC-Type: warcinfo/);
    expect(first).toMatch(/WARC-Type: request[\s\S]*GET \/robots\.txt HTTP\/1\.1/); // robots.txt is archived too
    expect(first).toMatch(/HTTP\/1\.1 303 /); // redirect hops have their own response records
  });

  it('reparse gives the same quads per graph and the same records as the crawl', async () => {
    const out = join(tmp, 'reparsed');
    const summary = await reparseArchive({ out, warc: [warcDir] });
    const original = await recordsOf(crawled);
    expect(summary.warnings).toBe(0);
    expect(summary.records).toBe(original.length);
    const quads = await exportedLines(crawled);
    expect(quads.length).toBeGreaterThan(500);
    expect(await exportedLines(out)).toEqual(quads);
    const again = await recordsOf(out);
    expect(again).toEqual(original);
    expect(original.some((r) => r.redirects.length > 0 && r.triples > 0)).toBe(true);
    expect(new Set(original.map((r) => r.label)).size).toBeGreaterThan(2); // seeds (null) and several predicted labels
  }, 60_000);

  it('a last record cut by a crash is skipped with a warning, the rest is read', async () => {
    const files = (await readdir(warcDir)).sort();
    const cutDir = join(tmp, 'cut');
    await mkdir(cutDir);
    for (const f of files) await copyFile(join(warcDir, f), join(cutDir, f));
    const last = join(cutDir, files.at(-1) as string);
    await truncate(last, (await stat(last)).size - 40); // inside the last record: the metadata of the last fetch
    const warnings: string[] = [];
    const summary = await reparseArchive({ out: join(tmp, 'from-cut'), warc: [cutDir], onWarning: (m) => warnings.push(m) });
    const original = await recordsOf(crawled);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/(cut short|not a whole record); skipped$/);
    // The last fetch's metadata record is gone: its responses belong to no fetch; every other record is there, unchanged.
    expect(summary.records).toBe(original.length - 1);
    const bySeq = new Map(original.map((r) => [r.seq, r]));
    const kept = await recordsOf(join(tmp, 'from-cut'));
    expect(kept).toHaveLength(original.length - 1);
    for (const r of kept) expect(r).toEqual(bySeq.get(r.seq));
  }, 60_000);

  it('refuses a folder that holds a crawl already, and leaves it as it was', async () => {
    await expect(reparseArchive({ out: crawled, warc: [warcDir] })).rejects.toThrow(/holds a crawl already/);
    expect((await recordsOf(crawled)).length).toBeGreaterThan(0);
  });
});

describe('seqCoverage (what reparse reports of rdfscout archives)', () => {
  it('gives the first and last seq and the numbers missing between them', () => {
    expect(seqCoverage([])).toBeNull();
    expect(seqCoverage([7, 5, 9, 5, 10])).toEqual({ first: 5, last: 10, missing: [6, 8] });
    expect(seqCoverage([3])).toEqual({ first: 3, last: 3, missing: [] });
  });
});
