// `rdfscout metrics DIR`: a real crawl of a simulated web into a temporary LevelDB, then the command's tables, JSON and CSV.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runMetricsCommand } from '../../src/commands/metrics.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { computeMetrics, parseTruth } from '../../src/metrics/index.ts';
import { type SimWeb, startSimweb, writeTruth } from '../../src/simweb/index.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** Runs the command in-process and returns what it printed on stdout. */
async function metrics(argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    const code = await runMetricsCommand(argv);
    return { code, stdout };
  } finally {
    spy.mockRestore();
  }
}

describe('rdfscout metrics', () => {
  let web: SimWeb;
  let tmp: string;
  let dir: string;
  let truthFile: string;
  let records: CrawlRecord[];

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'deri-like', seed: 2, scale: 0.1, crawlDelay: 0 });
    tmp = folder.dir;
    dir = join(tmp, 'crawl');
    truthFile = join(tmp, 'truth.jsonl');
    await writeTruth(web, truthFile);
    const crawler = await Crawler.open({
      out: dir,
      seeds: [web.sites[0]!.startUrl],
      proxy: web.proxyUrl,
      strategy: 'fc-r+hr',
      maxDocs: 120,
      delayMs: 0,
      concurrency: 5,
      hostConcurrency: 5,
    });
    try {
      await crawler.run();
      records = [];
      for await (const r of readRecords(crawler.state)) records.push(r);
    } finally {
      await crawler.close();
    }
  }, 30_000);

  afterAll(async () => {
    await web?.close();
  });

  it('the crawl found RDF documents and labelled its links (the fixture is meaningful)', () => {
    // ≤ 120: the engine may stop a few fetches short of the budget (a record in commit counts twice; see report).
    expect(records.length).toBeGreaterThan(100);
    expect(records.length).toBeLessThanOrEqual(120);
    expect(records.filter((r) => r.detectedType === 'rdf' && r.status === 200).length).toBeGreaterThan(5);
    expect(records.some((r) => r.label === 'R' && r.rules.includes('pa1'))).toBe(true);
  });

  it('--json prints exactly what computeMetrics gives with the truth file', async () => {
    const { code, stdout } = await metrics([dir, '--truth', truthFile, '--json']);
    expect(code).toBe(0);
    const printed = JSON.parse(stdout);
    const expected = computeMetrics(records, parseTruth(await readFile(truthFile, 'utf8')));
    expect(printed).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(printed.truthSource).toBe('truth');
    expect(printed.fetched).toBe(records.filter((r) => r.outcome !== 'denied').length); // requests sent
    expect(printed.nRdf).toBe(records.filter((r) => r.detectedType === 'rdf' && r.status === 200).length);
    const r = printed.labels.find((l: { label: string }) => l.label === 'R');
    expect(r.nLS).toBeGreaterThan(0);
    expect(r.precision).toBeCloseTo(r.nLT / r.nLS);
  });

  it('without --truth the true labels come from the records', async () => {
    const { stdout } = await metrics([dir, '--json']);
    const printed = JSON.parse(stdout);
    expect(printed.truthSource).toBe('records');
    expect(printed).toEqual(JSON.parse(JSON.stringify(computeMetrics(records))));
  });

  it('prints the thesis-like tables with the crawl’s figures', async () => {
    const { code, stdout } = await metrics([dir, '--truth', truthFile]);
    expect(code).toBe(0);
    const m = computeMetrics(records, parseTruth(await readFile(truthFile, 'utf8')));
    for (const title of ['like Table 4-3', 'like Table 4-5', 'like Table 4-6', 'like Figure 4-1']) expect(stdout).toContain(title);
    expect(stdout).toContain(`Harvest rate: ${m.nRdf} RDF documents / ${m.fetched} fetched`);
    expect(stdout).toContain(`of the ${m.n} documents fetched with status 200)`);
    expect(stdout).toContain('the truth file');
    const pa1 = m.rules.find((x) => x.rule === 'pa1' && x.label === 'R')!;
    expect(stdout).toMatch(new RegExp(`^pa1\\s+R\\s+${pa1.nRLS}\\s+${pa1.nRLT}\\s`, 'm'));
    const rRow = m.labels.find((l) => l.label === 'R')!;
    expect(stdout).toMatch(new RegExp(`^R\\s+${rRow.nL}\\s+${rRow.nLS}\\s+${rRow.nLT}\\s`, 'm'));
  });

  it('--csv writes the harvest curve: one row per fetch, non-decreasing, ending at N_RDF', async () => {
    const csv = join(tmp, 'harvest.csv');
    await metrics([dir, '--csv', csv]);
    const lines = (await readFile(csv, 'utf8')).trim().split('\n');
    expect(lines[0]).toBe('fetches,rdf_documents,harvest_rate');
    expect(lines.length).toBe(records.filter((r) => r.outcome !== 'denied').length + 1); // a row per request sent
    const rdf = lines.slice(1).map((l) => Number(l.split(',')[1]));
    for (let i = 1; i < rdf.length; i++) expect(rdf[i]).toBeGreaterThanOrEqual(rdf[i - 1]!);
    expect(rdf.at(-1)).toBe(records.filter((r) => r.detectedType === 'rdf' && r.status === 200).length);
  });

  it('refuses a folder without a crawl, a missing truth file and unknown flags', async () => {
    await expect(runMetricsCommand([join(tmp, 'nothing-here')])).rejects.toMatchObject({ code: 'RDFSCOUT_NO_CRAWL' });
    await expect(runMetricsCommand([dir, '--truth', join(tmp, 'missing.jsonl')])).rejects.toMatchObject({ code: 'RDFSCOUT_INVALID_ARGUMENT' });
    await expect(runMetricsCommand([dir, '--bogus'])).rejects.toMatchObject({ code: 'RDFSCOUT_INVALID_ARGUMENT' });
    await expect(runMetricsCommand([])).rejects.toMatchObject({ code: 'RDFSCOUT_INVALID_ARGUMENT' });
  });
});
