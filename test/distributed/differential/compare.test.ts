// The differential's rules (run-case.ts `compare`) on hand-made mode results: what they let pass, what they report.
import { describe, expect, it } from 'vitest';
import type { CrawlRecord } from '../../../src/crawl-log/record.ts';
import type { CrawlSummary } from '../../../src/crawl-log/tally.ts';
import type { ModeResult } from './crawl-modes.ts';
import { generateCase } from './generate.ts';
import { compare } from './run-case.ts';

/** A record of `url`: a document of 2 triples, or a failure (no response). */
function record(url: string, outcome: 'ok' | 'failed'): CrawlRecord {
  return { url, outcome, status: outcome === 'ok' ? 200 : null, triples: outcome === 'ok' ? 2 : 0, pld: new URL(url).hostname } as CrawlRecord;
}

function mode(stoppedBy: CrawlSummary['stoppedBy'], records: CrawlRecord[]): ModeResult {
  return { summaries: [{ stoppedBy } as CrawlSummary], records: new Map(records.map((r) => [r.url, r])), repeated: [], docs: new Map() };
}

// Seed 1047 as cli.ts draws it: bfs at concurrency 1, --max-docs 27, 26 live documents and a dead host, one process
// SIGKILLed once the live sites were exhausted and resumed, three Redis workers.
const c = generateCase(1047, { kills: true, deadHosts: true, redisRestarts: true, liveExhaustedKills: true, https: true });
const live = c.web.sites.flatMap((n, s) => Array.from({ length: n }, (_, i) => record(`http://site${s}.example/d${i}.ttl`, 'ok')));

describe('compare', () => {
  it('draws seed 1047 as it failed', () => {
    expect(c.options).toMatchObject({ strategy: 'bfs', concurrency: 1, maxDocs: 27 });
    expect(live).toHaveLength(26);
    expect(c).toMatchObject({ kill: 'single', killAt: 'live-exhausted' });
  });

  it('lets a budget end on another failing URL than one process did (wall-clock back-offs decide which ends first)', () => {
    // One process recorded gone1 as the budget's last fetch, the resumed crawl gone6: both failed after their retries.
    const single = mode('max-docs', [...live, record('http://dead.example/gone1.ttl', 'failed')]);
    const resumed = mode('max-docs', [...live, record('http://dead.example/gone6.ttl', 'failed')]);
    expect(compare(c, { single, resumed, redis: resumed })).toEqual([]);
  });

  it('lets a budget end on other live URLs where an origin never answers, even before any failure is recorded', () => {
    // Seed 1188's shape: a host that never answers was still being retried when --max-docs ended both crawls.
    const single = mode('max-docs', live.slice(0, 24).concat(record('http://site2.example/d5.ttl', 'ok')));
    const resumed = mode('max-docs', live.slice(0, 24).concat(record('http://site2.example/d6.ttl', 'ok')));
    expect(compare({ ...c, options: { ...c.options, maxDocs: 25 } }, { single, resumed })).toEqual([]);
    expect(compare({ ...c, web: { ...c.web, deadHost: false }, options: { ...c.options, maxDocs: 25 } }, { single, resumed })).toHaveLength(1);
  });

  it('still reports other records than one process when nothing failed, and a budget exceeded', () => {
    const single = mode('max-docs', live);
    const other = mode('max-docs', [...live.slice(0, 25), record('http://site2.example/d9.ttl', 'ok')]);
    const over = mode('max-docs', [...live, record('http://dead.example/gone1.ttl', 'failed'), record('http://dead.example/gone6.ttl', 'failed')]);
    const problems = compare({ ...c, web: { ...c.web, deadHost: false }, options: { ...c.options, maxDocs: 26 } }, { single, resumed: other, redis: over });
    expect(problems).toEqual([
      expect.stringMatching(/^resumed: records differ from one process's: 1 not in one process's \(http:\/\/site2\.example\/d9\.ttl ok 200 2\), 1 only there/),
      'redis: 28 fetched, over --max-docs 26',
      'redis: stopped by max-docs with 28 fetched, not 26',
    ]);
  });
});
