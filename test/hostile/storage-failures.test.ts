// Storage failures: an output folder that cannot be created, and a disk that fills up mid-crawl (a 3 MB tmpfs).
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { RdfscoutError } from '../../src/errors.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { runCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const run = promisify(execFile);

describe('storage failures', () => {
  let dir: string;
  let web: SimWeb;

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    dir = folder.dir;
    web = await startSimweb({ profiles: 'dbtune-like', seed: 3 });
  });

  afterAll(async () => {
    await web?.close();
  });

  it('an output folder under a regular file: a clear RDFSCOUT_STORE_FAILED, exit 1, nothing created', async () => {
    // Tests run as root, where chmod does not stop writes; a path whose parent is a file cannot be created by anyone.
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a folder');
    const res = await runCli(['crawl', web.sites[0]!.startUrl, '--proxy', web.proxyUrl, '--out', join(file, 'out'), '--quiet']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Cannot create the output folder .*a-file\/out.*\[RDFSCOUT_STORE_FAILED\]/);
    expect(res.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('a full disk: RDFSCOUT_STORE_FAILED, and the store reopens with every committed document whole', async (ctx) => {
    const mnt = join(dir, 'tiny');
    await mkdir(mnt);
    try {
      await run('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mnt]);
    } catch (err) {
      ctx.skip(`cannot mount a tmpfs here (needs root): ${(err as Error).message.split('\n')[0]}`);
      return;
    }
    try {
      const out = join(mnt, 'out');
      const crawler = await Crawler.open({ out, seeds: [web.sites[0]!.startUrl], proxy: web.proxyUrl, delayMs: 0, concurrency: 2, maxDocs: 5000, strategy: 'bfs' });
      let failure: unknown = null;
      try {
        await crawler.run();
      } catch (err) {
        failure = err;
      }
      await crawler.close().catch(() => {});
      expect(failure).toBeInstanceOf(RdfscoutError);
      expect((failure as RdfscoutError).code).toBe('RDFSCOUT_STORE_FAILED');
      expect((failure as RdfscoutError).message).toMatch(/crawl store/);

      // Give the disk room again and reopen: every record committed before the failure is there, with its triples.
      await run('mount', ['-o', 'remount,size=64m', mnt]);
      const again = await Crawler.open({ out, maxDocs: 100 });
      try {
        const records: CrawlRecord[] = [];
        for await (const r of readRecords(again.state)) records.push(r);
        expect(records.length).toBeGreaterThan(10);
        expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
        const perGraph = new Map<string, number>();
        await again.state.indexer.flush(); // the documents the failure left unindexed catch up after opening
        const { items } = await again.state.quadstore.get({});
        for (const q of items) if (q.graph.value !== 'urn:rdfscout:crawl') perGraph.set(q.graph.value, (perGraph.get(q.graph.value) ?? 0) + 1);
        for (const r of records) if (r.triples > 0) expect(perGraph.get(r.finalUrl)).toBe(r.triples);
        expect([...perGraph.values()].reduce((a, b) => a + b, 0)).toBe(records.reduce((n, r) => n + r.triples, 0));
        console.log(`full disk: ${records.length} records, ${perGraph.size} documents committed before RDFSCOUT_STORE_FAILED`);
        // …and the crawl resumes from there.
        const summary = await again.run();
        expect(summary.resumed).toBe(true);
      } finally {
        await again.close();
      }
    } finally {
      await run('umount', [mnt]).catch(() => {});
    }
  }, 120_000);
});
