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

function mode(stoppedBy: CrawlSummary['stoppedBy'], records: CrawlRecord[], links: Record<string, string[]> = {}): ModeResult {
  // Each document stored as its N-Triples lines (as readShards reads them): a seeAlso triple per link.
  const docs = new Map(Object.entries(links).map(([doc, to]) => [doc, to.map((t) => `<${doc}> <http://www.w3.org/2000/01/rdf-schema#seeAlso> <${t}> .`).sort().join('\n')]));
  return { summaries: [{ stoppedBy } as CrawlSummary], records: new Map(records.map((r) => [r.url, r])), repeated: [], docs };
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

  // Seed 1363 as cli.ts draws it: --max-docs-per-pld 3 on two sites and a dead host linked from some documents; one
  // Redis worker and one SIGKILLed and restarted, so two fetching at once.
  const c1363 = generateCase(1363, { kills: true, deadHosts: true, redisRestarts: true, liveExhaustedKills: true, https: true, hostKinds: true });
  const ok = (u: string) => record(`http://${u}`, 'ok');
  const gone = (i: number) => `http://dead.example/gone${i}.ttl`;
  const site0 = ['site0.example/d0.ttl', 'site0.example/d1.ttl', 'site0.example/d2.ttl'].map(ok);
  const single1363 = () =>
    mode('max-docs-per-pld', [...site0, ...['site1.example/d0.ttl', 'site1.example/d1.ttl', 'site1.example/d9.ttl'].map(ok), ...[0, 1, 9].map((i) => record(gone(i), 'failed'))], {
      'http://site0.example/d0.ttl': [gone(0)],
      'http://site0.example/d1.ttl': [gone(1)],
      'http://site1.example/d9.ttl': [gone(9)],
    });

  it('draws seed 1363 as it failed', () => {
    expect(c1363).toMatchObject({ kill: 'worker', workers: 1, options: { strategy: 'bfs', concurrency: 1, maxDocsPerPld: 3 } });
  });

  it('lets a PLD reached only through other PLDs spend less where it ran out of URLs (which documents fit the budgets is timing)', () => {
    // What the failing runs of seed 1363 stored: the workers fetched site1's d2 where one process fetched d9 (queued
    // by site0's d0, fetched by the other worker after site1's d1 and d2 were claimed), so gone9 was never found.
    const redis = mode('max-docs-per-pld', [...site0, ...['site1.example/d0.ttl', 'site1.example/d1.ttl', 'site1.example/d2.ttl'].map(ok), ...[0, 1].map((i) => record(gone(i), 'failed'))], {
      'http://site0.example/d0.ttl': [gone(0)],
      'http://site0.example/d1.ttl': [gone(1)],
    });
    expect(compare(c1363, { single: single1363(), redis })).toEqual([]);
  });

  it('still reports a PLD that spent less while a URL of it it found was left unfetched (a budget lost)', () => {
    const redis = mode('max-docs-per-pld', [...site0, ...['site1.example/d0.ttl', 'site1.example/d1.ttl', 'site1.example/d9.ttl'].map(ok), ...[0, 1].map((i) => record(gone(i), 'failed'))], {
      'http://site0.example/d0.ttl': [gone(0)],
      'http://site0.example/d1.ttl': [gone(1)],
      'http://site1.example/d9.ttl': [gone(9)],
    });
    expect(compare(c1363, { single: single1363(), redis })).toEqual([`redis: 2 fetched on dead.example, one process 3; redis left 1 of its URLs found unfetched (${gone(9)})`]);
  });
});
