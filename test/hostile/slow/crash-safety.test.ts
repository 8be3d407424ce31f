// Crash safety: SIGKILL `rdfscout crawl` at random moments and resume; the result equals an uninterrupted crawl.
import { join } from 'node:path';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimWeb, startSimweb } from '../../../src/simweb/index.ts';
import { Prng } from '../../../src/random/prng.ts';
import { runCli as cli, startCli } from '../../helpers/run-cli.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { until } from '../../helpers/until.ts';

const KILLS = 10;
const BUDGET = 120;

interface Doc {
  outcome: string;
  url: string;
  finalUrl: string;
  triples: number;
}

/** The number of document quads SPARQL counts (every graph but the crawl graph), from a fresh `query` process. */
async function sparqlCount(out: string): Promise<number> {
  const res = await cli(['query', out, 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?g != <urn:rdfscout:crawl>) }', '--format', 'csv']);
  expect(res.code).toBe(0);
  return Number(res.stdout.trim().split(/\r?\n/)[1]);
}

/** Document graphs with their quads (as sorted N-Quads lines), crawl metadata left out. */
async function contentOf(out: string): Promise<{ graphs: Map<string, string[]>; docs: Doc[] }> {
  const exported = await cli(['export', out]);
  expect(exported.code).toBe(0);
  const graphs = new Map<string, string[]>();
  for (const line of exported.stdout.split('\n')) {
    if (line === '' || line.includes('<urn:rdfscout:crawl>')) continue;
    const [q] = new Parser({ format: 'N-Quads' }).parse(line);
    const list = graphs.get(q!.graph.value) ?? [];
    list.push(line.replace(/_:[^\s]+/g, '_:b')); // blank node labels may differ between stores
    graphs.set(q!.graph.value, list);
  }
  for (const list of graphs.values()) list.sort();
  const docsOut = await cli(['docs', out]);
  expect(docsOut.code).toBe(0);
  const docs = docsOut.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Doc);
  return { graphs, docs };
}

describe('SIGKILL at random moments, resumed each time', () => {
  let web: SimWeb;
  let dir: string;
  let args: string[];

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'dbtune-like', seed: 7, latencyMs: 2 });
    dir = folder.dir;
    args = ['crawl', web.sites[0]!.startUrl, '--proxy', web.proxyUrl, '--concurrency', '1', '--delay-ms', '0', '--max-docs', String(BUDGET), '--quiet', '--json',
      // Equality with an uninterrupted crawl needs a deterministic order: the sites' Crawl-delay makes which PLD is
      // awake a matter of timing, which a bandit's choice (the default auto) depends on; the global order less so.
      '--bandit', 'none'];
  });

  afterAll(async () => {
    await web?.close();
  });

  it(`after ${KILLS} kills the store equals an uninterrupted crawl's`, async () => {
    const ref = await cli([...args, '--out', join(dir, 'ref')]);
    expect(ref.stderr).toBe('');
    expect(ref.code).toBe(0);
    const refSummary = JSON.parse(ref.stdout);
    expect(refSummary.fetched).toBe(BUDGET); // requests sent; robots refusals are recorded (denied), not spent

    const out = join(dir, 'killed');
    const rng = new Prng(20240607);
    let killedMidCrawl = 0;
    const progress: number[] = [];
    for (let i = 0; i < KILLS; i++) {
      const child = startCli([...args, '--out', out]);
      const exited = child.exited;
      // Kill after the child has sent a random number of requests (plus a random few ms): always mid-crawl, at a
      // random point of a fetch, a parse or a commit. Node's start-up time varies too much for a fixed timer.
      const before = web.stats().requests;
      const after = 3 + Math.floor(rng.next() * 12);
      const jitterMs = Math.floor(rng.next() * 15);
      const early = await Promise.race([
        exited.then(() => true),
        (async () => {
          await until(`${after} requests from the crawl to kill`, () => web.stats().requests - before >= after || !child.running(), 60_000, { everyMs: 2 });
          await new Promise((r) => setTimeout(r, jitterMs));
          return false;
        })(),
      ]);
      if (!early) {
        child.signal('SIGKILL');
        killedMidCrawl++;
      }
      await child.ended('the killed crawl to exit');
      const docs = await cli(['docs', out]);
      progress.push(docs.stdout.split('\n').filter(Boolean).length);
    }
    const final = await cli([...args, '--out', out]);
    expect(final.stderr).toBe('');
    expect(final.code).toBe(0);
    const summary = JSON.parse(final.stdout);
    expect(summary.fetched).toBe(BUDGET); // requests sent (robots refusals are denied, not fetched)
    console.log(`crash safety: ${killedMidCrawl} of ${KILLS} runs killed mid-crawl; records after each: ${progress.join(' ')}`);
    expect(killedMidCrawl).toBeGreaterThanOrEqual(KILLS - 2);
    // The kills fell inside the crawl, not before it began or after it ended: records grew across most runs.
    const grew = progress.filter((n, i) => n > (i === 0 ? 0 : progress[i - 1]!)).length;
    expect(grew).toBeGreaterThanOrEqual(KILLS / 2);
    expect(progress.at(-1)!).toBeLessThan(BUDGET);

    const a = await contentOf(join(dir, 'ref'));
    const b = await contentOf(out);
    // The same documents, each with the same triples.
    expect([...b.graphs.keys()].sort()).toEqual([...a.graphs.keys()].sort());
    for (const [g, lines] of a.graphs) expect(b.graphs.get(g)).toEqual(lines);
    // The SPARQL indexes (loaded in the background) caught up after the kills: the same count as the export.
    const exportedQuads = [...a.graphs.values()].reduce((n, l) => n + l.length, 0);
    expect(exportedQuads).toBeGreaterThan(0);
    expect(await sparqlCount(join(dir, 'ref'))).toBe(exportedQuads);
    expect(await sparqlCount(out)).toBe(exportedQuads);
    // No document fetched-and-recorded twice, none stored twice.
    const urls = b.docs.map((d) => d.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(b.docs.filter((d) => d.outcome !== 'denied').length).toBe(BUDGET);
    // No frontier entry lost: every URL the uninterrupted crawl recorded was recorded here too.
    expect(new Set(urls)).toEqual(new Set(a.docs.map((d) => d.url)));
    // The store opens cleanly (export and docs above opened it; stats too).
    expect((await cli(['stats', out])).code).toBe(0);
  }, 150_000);
});

describe('SIGKILL with a bandit and concurrent fetches', () => {
  let web: SimWeb;
  let dir: string;

  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    web = await startSimweb({ profiles: 'thesis', scale: 0.05, seed: 3, latencyMs: 2 });
    dir = folder.dir;
  });

  afterAll(async () => {
    await web?.close();
  });

  it('the saved bandit state always matches the records: every arm has as many pulls as its PLD has records', async () => {
    const out = join(dir, 'killed');
    const args = ['crawl', ...web.sites.map((s) => s.startUrl), '--proxy', web.proxyUrl, '--concurrency', '6', '--delay-ms', '0', '--max-docs', '200',
      '--bandit', 'thompson', '--quiet', '--json', '--out', out];
    const rng = new Prng(7);
    const checks: string[] = [];
    for (let i = 0; i < 6; i++) {
      const child = startCli(args);
      const before = web.stats().requests;
      const after = 10 + Math.floor(rng.next() * 30);
      await until(`${after} requests from the crawl to kill`, () => web.stats().requests - before >= after || !child.running(), 60_000, { everyMs: 2 });
      child.signal('SIGKILL');
      await child.ended('the killed crawl to exit');
      const stats = await cli(['stats', out, '--json']);
      expect(stats.code).toBe(0);
      const s = JSON.parse(stats.stdout) as { fetched: number; perPld: Record<string, { fetched: number; denied: number }>; bandit: Array<{ arm: string; pulls: number }> };
      const pulls = Object.fromEntries(s.bandit.map((a) => [a.arm, a.pulls]).filter(([, n]) => (n as number) > 0));
      // a bandit pull per record, robots refusals included
      const records = Object.fromEntries(Object.entries(s.perPld).map(([pld, t]) => [pld, t.fetched + t.denied]).filter(([, n]) => (n as number) > 0));
      expect(pulls).toEqual(records);
      checks.push(String(s.fetched));
    }
    console.log(`bandit crash safety: records after each kill: ${checks.join(' ')}`);
    expect(Number(checks.at(-1))).toBeGreaterThan(Number(checks[0]));
  }, 120_000);
});
