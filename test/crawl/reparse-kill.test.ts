// `crawl --warc` killed with SIGKILL: a fetch's WARC records are written after its commit (off the commit's path), so
// the archive holds committed fetches only, all but the last few; `reparse` reads it and says which seqs it holds.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reparseArchive } from '../../src/crawl/reparse.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import { openState } from '../../src/state/open-state.ts';
import { startCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
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

/** What a record says of its fetch, compared between the crawl and the re-parse. */
const facts = (r: CrawlRecord | undefined) => r && { url: r.url, finalUrl: r.finalUrl, status: r.status, label: r.label, triples: r.triples, linksQueued: r.linksQueued, depth: r.depth };

/** Kills `rdfscout crawl --warc` (stopped at `pauseAt` first, or after `hits` requests), then re-parses its archive. */
async function killThenReparse(pauseAt: string | null, hits: number) {
  const site = await startTinySite(30);
  const dir = await tempDir();
  try {
    const out = join(dir, 'crawl');
    const args = ['crawl', `${site.base}/`, '--allow-private', '--delay-ms', '0', '--concurrency', '3', '--max-docs', '50', '--quiet', '--out', out, '--warc', join(dir, 'warc/')];
    const total = () => [...site.hits.values()].reduce((a, b) => a + b, 0);
    const child = startCli(args, pauseAt === null ? {} : { probes: { pauseAt } });
    const deadline = Date.now() + 30_000;
    const reached = () => (pauseAt === null ? total() >= hits : child.stderr().includes('RDFSCOUT_TEST_PAUSED'));
    while (!reached() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    child.signal('SIGKILL');
    await child.ended('the killed crawl to exit');
    const committed = await records(out);
    const warnings: string[] = [];
    const summary = await reparseArchive({ out: join(dir, 'again'), warc: [join(dir, 'warc')], onWarning: (m) => warnings.push(m) });
    const again = new Map((await records(join(dir, 'again'))).map((r) => [r.seq, r]));
    return { committed, summary, again, warnings, paused: /RDFSCOUT_TEST_PAUSED after-commit (\S+)/.exec(child.stderr())?.[1] ?? null };
  } finally {
    await site.close();
  }
}

describe('crawl --warc killed with SIGKILL, then reparse', () => {
  it('re-parses every committed fetch the archive holds as it was recorded; the archive holds nothing uncommitted', async () => {
    const { committed, summary, again, warnings } = await killThenReparse(null, 8);
    expect(committed.length).toBeGreaterThan(0);
    const bySeq = new Map(committed.map((r) => [r.seq, r]));
    for (const [seq, r] of again) expect(facts(r), r.url).toEqual(facts(bySeq.get(seq))); // records are written after their commit
    // The archive lags its commits by at most the queue (64 fetches) and the fetches in flight (3).
    const absent = committed.filter((r) => !again.has(r.seq));
    expect(absent.length).toBeLessThanOrEqual(64 + 3);
    for (const r of absent) expect(r.seq > (summary.seqs?.last ?? 0) || summary.seqs?.missing.includes(r.seq), r.url).toBe(true);
    expect(warnings.filter((w) => !/no archived fetch|skipped/.test(w))).toEqual([]);
  }, 120_000);

  it('a fetch killed between its commit and its WARC records is missing from the archive, and reparse says which seqs it holds', async () => {
    const { committed, summary, again, paused } = await killThenReparse('after-commit:5', 0);
    expect(paused).not.toBeNull();
    const lost = committed.find((r) => r.url === paused);
    expect(lost).toBeDefined();
    expect(again.has(lost?.seq as number)).toBe(false); // committed, not archived
    expect(committed.length).toBeGreaterThanOrEqual(5);
    // Every committed fetch is re-parsed as recorded, or is one of those reparse reports as not archived (a gap in
    // the seqs, or past the last one archived).
    const seqs = summary.seqs;
    expect(seqs).not.toBeNull();
    for (const r of committed) {
      if (again.has(r.seq)) expect(facts(again.get(r.seq)), r.url).toEqual(facts(r));
      else expect(r.seq > (seqs?.last ?? 0) || seqs?.missing.includes(r.seq), `${r.url} seq ${r.seq}`).toBe(true);
    }
    expect(summary.records).toBe(again.size);
  }, 120_000);
});
