// The proposed crawler (FC-R+HR) finds far more RDF documents than breadth-first (BC) at the same budget (thesis §11, Table 4-4).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { type SimWeb, startSimweb } from '../../src/simweb/index.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const BUDGET = 200;

async function crawl(web: SimWeb, strategy: string, dir: string, maxDocs = BUDGET): Promise<CrawlRecord[]> {
  const crawler = await Crawler.open({
    out: dir,
    seeds: web.sites.map((s) => s.startUrl),
    proxy: web.proxyUrl,
    strategy,
    maxDocs,
    maxLinksPerDoc: 500,
    delayMs: 0,
    concurrency: 5,
    hostConcurrency: 5,
    // The labels and rules of every PLD are read below: each PLD gets its turn, whatever the default scheduler
    // (a bandit may spend 200 fetches on the PLD whose RDF comes first and leave deri's, 17 pages deep, unread).
    bandit: 'round-robin',
  });
  const records: CrawlRecord[] = [];
  try {
    await crawler.run();
    for await (const r of readRecords(crawler.state)) records.push(r);
  } finally {
    await crawler.close();
  }
  return records;
}

const isRdf = (r: CrawlRecord) => r.status === 200 && r.detectedType === 'rdf';

describe('focused (fc-r+hr) vs breadth-first (bfs) on a small thesis-like simulated web', () => {
  let web: SimWeb;
  let tmp: string;
  let focused: CrawlRecord[];
  let bfs: CrawlRecord[];
  let openly: CrawlRecord[];
  let openlyTruth: Map<string, string | undefined>;

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    // The openlylocal-, deri- and rossetti-like PLDs (thesis PLDs 2–4) at a tenth of their size (~2,000 URLs).
    // dbtune-like is left out: its resource URIs negotiate straight to RDF, so every crawler does equally well there.
    // Seed 1 gives fc-r+hr ~50 RDF documents in 200 fetches and bfs 0–18 (it reads deri's .xml RDF now).
    web = await startSimweb({ profiles: 'openlylocal-like,deri-like,rossetti-like', seed: 1, scale: 0.1, crawlDelay: 0 });
    tmp = folder.dir;
    focused = await crawl(web, 'fc-r+hr', join(tmp, 'focused'));
    bfs = await crawl(web, 'bfs', join(tmp, 'bfs'));
    // RDF parents are predicted only for links found after an RDF document taught C_HR (thesis §5): on the mixed web
    // the best-first order spends 200 fetches on deri's R links first, so HR is checked on openlylocal alone.
    const openlyWeb = await startSimweb({ profiles: 'openlylocal-like', seed: 1, scale: 0.1, crawlDelay: 0 });
    try {
      openly = await crawl(openlyWeb, 'fc-r+hr', join(tmp, 'openly'), 150);
      openlyTruth = new Map(openly.map((r) => [r.url, openlyWeb.truthFor(r.url)?.label]));
    } finally {
      await openlyWeb.close();
    }
  }, 60_000);

  afterAll(async () => {
    await web?.close();
  });

  it('both spend (about) the same budget', () => {
    for (const records of [focused, bfs]) {
      const spent = records.filter((r) => r.outcome !== 'denied').length; // robots refusals send no request
      expect(spent).toBeLessThanOrEqual(BUDGET);
      expect(spent).toBeGreaterThan(BUDGET - 10);
    }
  });

  it('fc-r+hr finds at least 2× as many RDF documents as bfs, and at least 40', () => {
    // bfs reads what fc-r+hr reads: deri's FOAF `.xml` files served as application/xml count for it
    // too now (the thesis's BC skipped them by CTF/EXF), so bfs finds 0–18 here depending on the order of its first
    // fetches, and fc-r+hr 49–58 (5 runs).
    const f = focused.filter(isRdf).length;
    const b = bfs.filter(isRdf).length;
    expect(f).toBeGreaterThanOrEqual(40);
    expect(f).toBeGreaterThanOrEqual(2 * Math.max(1, b));
    // Every RDF document counted is one the simulated web says is RDF.
    for (const r of focused.filter(isRdf)) expect(web.truthFor(r.finalUrl)?.label).toBe('R');
  });

  it('fc-r+hr records carry the predicted labels and the rules that fired', () => {
    const seeds = focused.filter((r) => r.parent === null);
    expect(seeds.length).toBe(3);
    for (const s of seeds) expect(s.label).toBeNull();
    for (const r of focused.filter((x) => x.parent !== null)) expect(['R', 'HR', 'H']).toContain(r.label);
    // Predicted R: one of the Relevancy_R rules fired (thesis §4).
    const rRules = new Set(['ex1', 'ty1', 'ti1', 'an1', 'co1', 'ty2', 'ti2', 'an2', 'co2', 'pa1']);
    const predictedR = focused.filter((r) => r.label === 'R');
    expect(predictedR.length).toBeGreaterThan(50);
    for (const r of predictedR) expect(r.rules.some((rule) => rRules.has(rule))).toBe(true);
    // pa1 (deri: `foaf` in the path of `.xml` files served as application/xml) and ex1 both fired on RDF found.
    const firedOnRdf = new Set(focused.filter(isRdf).flatMap((r) => r.rules));
    expect(firedOnRdf.has('pa1')).toBe(true);
    expect(firedOnRdf.has('ex1')).toBe(true);
    // Predicted HR: learned from an RDF document fetched before (thesis §5), by r1 or r2.
    for (const records of [focused, openly]) {
      const firstRdfSeq = Math.min(...records.filter(isRdf).map((r) => r.seq));
      for (const r of records.filter((x) => x.label === 'HR')) {
        expect(r.rules.length).toBeGreaterThan(0);
        expect(r.rules.every((rule) => rule === 'r1' || rule === 'r2')).toBe(true);
        expect(r.seq).toBeGreaterThan(firstRdfSeq);
      }
      // Predicted H: no rule fired.
      for (const r of records.filter((x) => x.label === 'H')) expect(r.rules).toEqual([]);
    }
    const predictedHr = openly.filter((r) => r.label === 'HR' && r.status === 200);
    expect(predictedHr.length).toBeGreaterThan(3);
    // Many predicted parents really are RDF parents (simweb truth). The openlylocal-like profile has look-alike
    // sibling pages without RDF on purpose, so r1 has false positives: the thesis measured 56.57% HR precision on
    // openlylocal.com (Table 4-6); re-judging queued siblings when a parent is learned predicts more of them.
    const trulyHr = predictedHr.filter((r) => openlyTruth.get(r.url) === 'HR').length;
    expect(trulyHr / predictedHr.length).toBeGreaterThan(0.35);
  });

  it('bfs fetches breadth-first within each PLD: depth never decreases by more than the concurrency allows', () => {
    // With 5 fetches in flight the order can interleave neighbours, but a depth-d link is never fetched after a
    // depth-(d+2) one of its PLD. Across PLDs there is no such order: the bandit serves PLDs in turn, and a PLD backed
    // off (a 503's Retry-After) lets the others go deeper meanwhile.
    const maxDepth = new Map<string, number>();
    for (const r of bfs) {
      const max = maxDepth.get(r.pld) ?? 0;
      expect(r.depth, r.url).toBeGreaterThanOrEqual(max - 1);
      maxDepth.set(r.pld, Math.max(max, r.depth));
    }
  });
});
