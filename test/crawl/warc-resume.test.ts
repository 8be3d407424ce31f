// `--warc` is kept with the crawl (src/crawl/archive-choice.ts): a resume without the flag goes on archiving into
// the same folder, so the archive holds every fetch of the crawl and `reparse` rebuilds all of it; `--no-warc`
// stops it, and the two flags together are refused.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlOptionsFromArgs } from '../../src/commands/crawl.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import { reparseArchive } from '../../src/crawl/reparse.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { openState } from '../../src/state/open-state.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

async function urlsOf(dir: string): Promise<string[]> {
  const state = await openState(dir);
  const urls: string[] = [];
  try {
    for await (const r of readRecords(state)) urls.push(r.url);
  } finally {
    await state.close();
  }
  return urls.sort();
}

describe('--warc across resumes', () => {
  let web: SimWeb;
  let tmp: string;
  let warcDir: string;
  let out: string;
  const base = () => ({ out, proxy: web.proxyUrl, delayMs: 0, concurrency: 4 });

  /** One run of the crawl to `maxDocs` fetches in all; returns where its archive came from and the WARC files after it. */
  async function run(maxDocs: number, backends: { warc?: { target: string; maxFileBytes: number }; noWarc?: boolean }, seeds: string[] = []) {
    const crawler = await Crawler.open({ ...base(), seeds, maxDocs }, backends);
    try {
      await crawler.run();
      return { from: crawler.archiveChoice.from, target: crawler.archiveChoice.warc?.target };
    } finally {
      await crawler.close();
    }
  }

  async function archiveBytes(): Promise<number> {
    let n = 0;
    for (const f of await readdir(warcDir)) n += (await stat(join(warcDir, f))).size;
    return n;
  }

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'dbtune-like', seed: 2, scale: 0.1, crawlDelay: 0 });
    tmp = folder.dir;
    warcDir = join(tmp, 'warc/');
    out = join(tmp, 'crawl');
  }, 60_000);

  afterAll(async () => {
    await web.close();
  });

  it('a resume without --warc archives where the first run did, and the archive rebuilds the whole crawl', async () => {
    const first = await run(30, { warc: { target: warcDir, maxFileBytes: 1 << 30 } }, web.sites.map((s) => s.startUrl));
    expect(first.from).toBe('given');
    const bytesAfterFirst = await archiveBytes();
    expect(bytesAfterFirst).toBeGreaterThan(0);

    const second = await run(70, {}); // the resume: no --warc
    expect(second).toEqual({ from: 'stored', target: first.target });
    // the resume's records went to the same folder (a file of its own, or appended to the first one's when this
    // process and second name it alike)
    expect(await archiveBytes()).toBeGreaterThan(bytesAfterFirst);

    const crawled = await urlsOf(out);
    expect(crawled.length).toBeGreaterThan(60);
    const rebuilt = join(tmp, 'rebuilt');
    await reparseArchive({ out: rebuilt, warc: [warcDir] });
    expect(await urlsOf(rebuilt)).toEqual(crawled); // every fetch of both runs is in the archive
  }, 60_000);

  it('--no-warc stops it for that run and the next ones', async () => {
    const before = await archiveBytes();
    expect(await run(80, { noWarc: true })).toEqual({ from: 'stopped', target: undefined });
    expect(await run(90, {})).toEqual({ from: 'none', target: undefined });
    expect(await archiveBytes()).toBe(before);
  }, 60_000);

  it('refuses --warc with --no-warc', async () => {
    await expect(crawlOptionsFromArgs(['--out', join(tmp, 'x'), '--warc', warcDir, '--no-warc', 'example.org'])).rejects.toThrow(/--warc and --no-warc/);
  });
});
