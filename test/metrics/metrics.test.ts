import { describe, expect, it } from 'vitest';
import type { CrawlRecord } from '../../src/crawl/types.ts';
import { computeMetrics, formatHarvestCsv, formatMetricsTables, outcomeOf, parseTruth, renderTable, trueLabeler } from '../../src/metrics/index.ts';

function rec(seq: number, url: string, fields: Partial<CrawlRecord>): CrawlRecord {
  return {
    seq,
    url,
    finalUrl: url,
    status: 200,
    outcome: 'ok',
    contentType: 'text/html',
    detectedType: 'html',
    rdfFormat: null,
    parent: 'http://a.org/',
    depth: 1,
    pld: 'a.org',
    triples: 0,
    linksQueued: 0,
    error: null,
    errorMessage: null,
    label: 'H',
    rules: [],
    redirects: [],
    ms: 1,
    fetchedAt: '2024-01-01T00:00:00.000Z',
    ...fields,
  };
}

// A hand-made crawl of 11 fetches; expected figures are computed by hand in the comments.
const RECORDS: CrawlRecord[] = [
  rec(1, 'http://a.org/', { depth: 0, parent: null, label: null }), // seed; parent of #2 → truly HR
  rec(2, 'http://a.org/x.rdf', { detectedType: 'rdf', contentType: 'application/rdf+xml', label: 'R', rules: ['ex1'], triples: 3 }),
  rec(3, 'http://a.org/foaf/y.xml', { detectedType: 'other', contentType: 'application/xml', label: 'R', rules: ['pa1'] }),
  rec(4, 'http://a.org/p/1', { label: 'HR', rules: ['r1'] }), // parent of #6 → truly HR
  rec(5, 'http://a.org/p/2', { label: 'HR', rules: ['r1'] }), // no RDF child fetched → H
  rec(6, 'http://a.org/p/1/z.ttl', { depth: 2, parent: 'http://a.org/p/1', detectedType: 'rdf', label: 'R', rules: ['ex1', 'an2'], triples: 5 }),
  rec(7, 'http://a.org/about', { status: 404, outcome: 'http-error', detectedType: null, error: 'RDFSCOUT_HTTP_STATUS' }),
  rec(8, 'http://a.org/old', { finalUrl: 'http://a.org/new', redirects: [{ from: 'http://a.org/old', to: 'http://a.org/new', status: 301 }] }),
  rec(9, 'http://a.org/private', { status: null, outcome: 'denied', detectedType: null, error: 'RDFSCOUT_ROBOTS_DENIED' }),
  rec(10, 'http://a.org/pic.bin', { outcome: 'skipped', detectedType: null, contentType: 'application/octet-stream' }),
  rec(11, 'http://b.org/t', { depth: 2, parent: 'http://a.org/p/2', status: null, outcome: 'failed', detectedType: null, label: 'R', rules: ['an2'], pld: 'b.org' }),
];
// Shuffled: metrics must follow seq, not input order.
const SHUFFLED = [...RECORDS].reverse();

describe('what counts as an RDF document obtained', () => {
  it('a parse failure or a duplicate (0 triples stored) is truly R but not obtained', () => {
    const broken = rec(2, 'http://a.org/b.ttl', { detectedType: 'rdf', label: 'R', rules: ['ex1'], error: 'RDFSCOUT_PARSE_FAILED' });
    const dup = rec(3, 'http://a.org/d.ttl', { detectedType: 'rdf', label: 'R', rules: ['ex1'], errorMessage: 'duplicate: …' });
    const m = computeMetrics([rec(1, 'http://a.org/', { parent: null, label: null }), broken, dup]);
    expect(m.nRdf).toBe(0);
    expect(m.labels[0]).toMatchObject({ label: 'R', nLS: 2, nLT: 2 }); // the prediction was right all the same
  });
});

describe('computeMetrics from the records alone', () => {
  const m = computeMetrics(SHUFFLED);

  it('harvest: N_RDF per request sent (robots refusals are not fetched); N counts status-200 documents', () => {
    expect(m.truthSource).toBe('records');
    expect(m.fetched).toBe(10); // 11 records, #9 refused by robots.txt
    expect(m.n).toBe(8); // #1 2 3 4 5 6 8 10
    expect(m.nRdf).toBe(2); // #2 #6
    expect(m.harvestRate).toBe(0.2); // 2 / 10
    expect(m.okHarvestRate).toBe(0.25); // 2 / 8
    expect(m.figures).toMatchObject({ records: 11, denied: 1, fetched: 10, ok: 8, rdfDocuments: 2, errors: 2, redirected: 1, triples: 8 });
  });

  it('fetch outcomes like Table 4-3 (error and not allowed are the errors and denied figures)', () => {
    expect(m.outcomes).toEqual({ docs: 11, success: 7, redirect: 1, notAllowed: 1, error: 2 });
  });

  it('precision per label (HR truth derived from RDF parents in the records)', () => {
    expect(m.labels).toEqual([
      { label: 'R', nL: 4, nLS: 3, nLT: 2, precision: 2 / 3 },
      { label: 'HR', nL: 2, nLS: 2, nLT: 1, precision: 0.5 },
      { label: 'H', nL: 4, nLS: 2, nLT: 1, precision: 0.5 }, // #8 truly H; #10 skipped → N
      { label: 'N', nL: 0, nLS: 0, nLT: 0, precision: null },
    ]);
  });

  it('rule support and confidence, in the thesis order', () => {
    expect(m.rules).toEqual([
      { rule: 'ex1', label: 'R', nRLS: 2, nRLT: 2, confidence: 100, support: 100 },
      { rule: 'an2', label: 'R', nRLS: 1, nRLT: 1, confidence: 100, support: 50 }, // #11 failed: not counted
      { rule: 'pa1', label: 'R', nRLS: 1, nRLT: 0, confidence: 0, support: 0 },
      { rule: 'r1', label: 'HR', nRLS: 2, nRLT: 1, confidence: 50, support: 100 },
    ]);
  });

  it('documents and RDF per depth like Table 4-5', () => {
    expect(m.depths).toEqual([
      { depth: 0, n: 1, rdf: 0 },
      { depth: 1, n: 7, rdf: 1 }, // #9 was refused by robots.txt: not fetched
      { depth: 2, n: 2, rdf: 1 },
    ]);
  });

  it('harvest curve: RDF documents after k fetches (robots refusals are not fetches)', () => {
    expect(m.harvestCurve).toEqual([0, 1, 1, 1, 1, 2, 2, 2, 2, 2]);
    const csv = formatHarvestCsv(m).trim().split('\n');
    expect(csv[0]).toBe('fetches,rdf_documents,harvest_rate');
    expect(csv[2]).toBe('2,1,0.500000');
    expect(csv).toHaveLength(11);
  });

  it('is JSON-serialisable as is', () => {
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);
  });
});

describe('computeMetrics with a ground truth', () => {
  it('uses the truth labels (HR too), falling back to the records for unlisted URLs', () => {
    const truth = new Map([
      ['http://a.org/p/2', 'HR' as const],
      ['http://a.org/foaf/y.xml', 'R' as const],
    ]);
    const m = computeMetrics(RECORDS, truth);
    expect(m.truthSource).toBe('truth');
    expect(m.labels.find((l) => l.label === 'HR')).toEqual({ label: 'HR', nL: 2, nLS: 2, nLT: 2, precision: 1 });
    expect(m.labels.find((l) => l.label === 'R')).toEqual({ label: 'R', nL: 4, nLS: 3, nLT: 3, precision: 1 });
    const ex1 = m.rules.find((r) => r.rule === 'ex1')!;
    expect(ex1.support).toBeCloseTo((2 / 3) * 100);
    expect(m.rules.find((r) => r.rule === 'pa1')).toMatchObject({ nRLT: 1, confidence: 100 });
    // Harvest still counts RDF found in the bytes.
    expect(m.nRdf).toBe(2);
  });

  it('parses truth files as JSON or as lines', () => {
    expect(parseTruth('{"http://a/x": "R", "http://a/y": "bogus"}')).toEqual(new Map([['http://a/x', 'R']]));
    expect(parseTruth('http://a/x R\n# comment\nhttp://a/y\tHR\nhttp://a/z Q\n')).toEqual(
      new Map([
        ['http://a/x', 'R'],
        ['http://a/y', 'HR'],
      ]),
    );
  });
});

describe('true labels and outcomes', () => {
  it('derives HR through the final URL too, and nothing for failed fetches', () => {
    const records = [
      rec(1, 'http://a.org/old', { finalUrl: 'http://a.org/new', label: null }),
      rec(2, 'http://a.org/d.rdf', { parent: 'http://a.org/new', detectedType: 'rdf' }),
      rec(3, 'http://a.org/gone', { status: 500, outcome: 'http-error' }),
    ];
    const label = trueLabeler(records);
    expect(records.map(label)).toEqual(['HR', 'R', null]);
  });
  it('classifies outcomes: not allowed, then error (redirected or not), then redirect, then success', () => {
    const hop = [{ from: 'a', to: 'b', status: 302 as const }];
    expect(outcomeOf(rec(1, 'u', { redirects: hop, outcome: 'failed' }))).toBe('error');
    expect(outcomeOf(rec(1, 'u', { redirects: hop, outcome: 'ok' }))).toBe('redirect');
    expect(outcomeOf(rec(1, 'u', { outcome: 'denied' }))).toBe('notAllowed');
    expect(outcomeOf(rec(1, 'u', { outcome: 'skipped' }))).toBe('success');
    expect(outcomeOf(rec(1, 'u', { outcome: 'http-error' }))).toBe('error');
  });
  it('handles an empty crawl', () => {
    const m = computeMetrics([]);
    expect(m).toMatchObject({ n: 0, nRdf: 0, harvestRate: 0, okHarvestRate: null, rules: [], depths: [], harvestCurve: [] });
    expect(formatMetricsTables(m)).toContain('(no rule fired on a fetched document)');
  });
});

describe('formatMetricsTables', () => {
  it('prints the thesis-like tables with the figures', () => {
    const text = formatMetricsTables(computeMetrics(RECORDS));
    expect(text).toContain('Harvest rate: 2 RDF documents / 10 fetched = 20.00% (25.00% of the 8 documents fetched with status 200)');
    expect(text).toContain('Errors: 2; refused by robots.txt (not fetched): 1');
    expect(text).toContain('Fetch outcomes (like Table 4-3)');
    expect(text).toMatch(/11\s+7 \(64%\)\s+1 \(9%\)\s+1 \(9%\)\s+2 \(18%\)/);
    expect(text).toMatch(/HR\s+2\s+2\s+1\s+50\.00%/);
    expect(text).toMatch(/r1\s+HR\s+2\s+1\s+100\.00%\s+50\.00%/);
    expect(text).toMatch(/total\s+10\s+2/);
    expect(text).toMatch(/N\s+0\s+0\s+0\s+–/);
  });
  it('aligns columns', () => {
    expect(renderTable(['a', 'bb'], [['xyz', '1']])).toBe('a    bb\n---  --\nxyz   1');
  });
});
