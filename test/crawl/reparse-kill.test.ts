// `crawl --warc` killed with SIGKILL: the archive holds every fetch the store committed (records are written before
// the commit), and `reparse` reads it, a record cut by the kill skipped with a warning.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reparseArchive } from '../../src/crawl/reparse.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import { openState } from '../../src/state/open-state.ts';
import { CLI } from '../helpers/run-cli.ts';
import { startTinySite } from '../helpers/tiny-site.ts';

async function records(dir: string): Promise<CrawlRecord[]> {
  const state = await openState(dir);
  const out: CrawlRecord[] = [];
  try {
    for await (const r of readRecords(state)) out.push(r);
  } finally {
    await state.close();
  }
  return out;
}

describe('crawl --warc killed with SIGKILL, then reparse', () => {
  it('re-parses every committed fetch as it was recorded', async () => {
    const site = await startTinySite(30);
    const dir = await mkdtemp(join(tmpdir(), 'rdfscout-warc-kill-'));
    try {
      const out = join(dir, 'crawl');
      const args = ['crawl', `${site.base}/`, '--allow-private', '--delay-ms', '0', '--concurrency', '3', '--max-docs', '50', '--quiet', '--out', out, '--warc', join(dir, 'warc/')];
      const total = () => [...site.hits.values()].reduce((a, b) => a + b, 0);
      const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
      const deadline = Date.now() + 30_000;
      while (total() < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const committed = await records(out);
      expect(committed.length).toBeGreaterThan(0);
      const warnings: string[] = [];
      const summary = await reparseArchive({ out: join(dir, 'again'), warc: [join(dir, 'warc')], onWarning: (m) => warnings.push(m) });
      expect(warnings.length).toBeLessThanOrEqual(1); // at most the record the kill cut
      const again = new Map((await records(join(dir, 'again'))).map((r) => [r.seq, r]));
      expect(summary.records).toBeGreaterThanOrEqual(committed.length);
      const facts = (r: CrawlRecord | undefined) => r && { url: r.url, finalUrl: r.finalUrl, status: r.status, label: r.label, triples: r.triples, linksQueued: r.linksQueued, depth: r.depth };
      for (const r of committed) expect(facts(again.get(r.seq)), r.url).toEqual(facts(r));
    } finally {
      await site.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
