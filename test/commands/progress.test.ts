// The progress line (commands/progress.ts) says "paused: network" and for how long during an outage pause, on a
// terminal and in the structured lines, and is redrawn on a timer then (no record arrives during a pause).
import { describe, expect, it } from 'vitest';
import { createProgress, progressJson, progressLine } from '../../src/commands/progress.ts';
import type { CrawlProgress } from '../../src/crawl/crawler.ts';

const figures = { fetched: 40, rdfDocuments: 12, triples: 300, errors: 1, queued: 7, lastUrl: 'http://a.example/x' };

describe('progress line', () => {
  it('says paused: network for how long, and when the next probe goes, on a terminal', () => {
    const line = progressLine(figures, 100, 20, { since: 1_000, until: 9_000 }, 6_000);
    expect(line).toContain('paused: network for 5 s (next probe in 3 s) · 40/100 fetched');
    expect(progressLine(figures, 100, 20, null, 6_000)).not.toContain('paused');
  });

  it('in structured lines too', () => {
    expect(JSON.parse(progressJson(figures, 20, { since: 1_000, until: 9_000 }, 6_000))).toMatchObject({ event: 'progress', fetched: 40, paused: 'network', offlineSeconds: 5, nextProbeInSeconds: 3 });
    expect(JSON.parse(progressJson(figures, 20, null, 6_000))).not.toHaveProperty('paused');
  });

  it('is redrawn during a pause without records, and no longer says paused once resumed', async () => {
    const lines: string[] = [];
    const stream = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
    const progress = createProgress(stream, 100, 20);
    progress.update({ record: { url: 'http://a.example/1' }, tally: { fetched: 1, rdfDocuments: 1, triples: 3, errors: 0 }, queued: 5, inFlight: 0 } as unknown as CrawlProgress);
    const now = Date.now();
    progress.outage({ kind: 'paused', until: now + 5_000, pauseMs: 5_000, failures: 6, hosts: 1, since: now - 2_000 });
    const before = lines.length;
    await new Promise((r) => setTimeout(r, 1_100)); // one tick of the pause timer (at least 1 s)
    expect(lines.length).toBeGreaterThan(before);
    expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ paused: 'network', fetched: 1 });
    expect((JSON.parse(lines.at(-1) as string) as { offlineSeconds: number }).offlineSeconds).toBeGreaterThanOrEqual(3);
    progress.outage({ kind: 'resumed', offlineMs: 3_000 });
    expect(JSON.parse(lines.at(-1) as string)).not.toHaveProperty('paused');
    const after = lines.length;
    await new Promise((r) => setTimeout(r, 1_100));
    expect(lines.length).toBe(after); // the timer stopped
    progress.done();
  });
});
