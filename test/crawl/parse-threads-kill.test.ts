// Crash safety with --threads: SIGKILL `rdfscout crawl` while worker threads parse large documents (their chunks
// written ahead by the main thread), resume each time; the store equals an uninterrupted crawl on one thread.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/random/prng.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { runCli as cli, startCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';

const KILLS = 6;
const BUDGET = 40;

/** A Turtle document of ~700 kB (three chunks of the store), with blank nodes, different for each `n`. */
function bigTurtle(n: number): string {
  const out = ['@prefix ex: <http://example.org/ns#> .'];
  for (let i = 0; i < 4000; i++) out.push(`<http://example.org/d${n}/${i}> ex:title "Item ${i} of document ${n}, ${'padding '.repeat(8)}" ; ex:by [ ex:name "N${i % 50}" ] .`);
  return `${out.join('\n')}\n`;
}

/** Every graph's lines of `out`'s export, sorted, the crawl's own graph left out. */
async function graphsOf(out: string): Promise<Map<string, string[]>> {
  const exported = await cli(['export', out]);
  expect(exported.code).toBe(0);
  const graphs = new Map<string, string[]>();
  for (const line of exported.stdout.split('\n')) {
    if (line === '' || line.includes('<urn:rdfscout:crawl>')) continue;
    const graph = line.slice(line.lastIndexOf('<'), line.lastIndexOf('>') + 1);
    graphs.set(graph, [...(graphs.get(graph) ?? []), line]);
  }
  for (const lines of graphs.values()) lines.sort();
  return graphs;
}

describe('SIGKILL while worker threads parse, resumed each time', () => {
  let site: TestServer;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    site = await startHttpServer((req, res) => {
      const m = /^\/(p|big|small)\/(\d+)$/.exec(req.url ?? '');
      if (m === null) return res.writeHead(404).end();
      const n = Number(m[2]);
      if (m[1] === 'big') return res.writeHead(200, { 'content-type': 'text/turtle' }).end(bigTurtle(n));
      if (m[1] === 'small') return res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<http://example.org/s/${n}> <http://example.org/ns#v> "${n}" .\n`);
      const links = [`/p/${n + 1}`, `/big/${n}`, `/small/${n}`].map((p) => `<a href="${p}">${p}</a>`).join(' ');
      return res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`);
    });
  });
  afterAll(async () => {
    await site?.close();
  });

  it(`after ${KILLS} kills the store equals an uninterrupted crawl's on one thread`, async () => {
    const args = ['crawl', `${site.origin}/p/0`, '--allow-private', '--concurrency', '1', '--delay-ms', '0', '--max-docs', String(BUDGET), '--strategy', 'bfs', '--bandit', 'none', '--quiet', '--json'];
    const ref = await cli([...args, '--threads', '0', '--out', join(folder.dir, 'ref')]);
    expect(ref.code).toBe(0);
    const threaded = [...args, '--threads', '1', '--thread-min-kb', '0', '--out', join(folder.dir, 'killed')];
    const rng = new Prng(34);
    let killed = 0;
    for (let i = 0; i < KILLS; i++) {
      const child = startCli(threaded);
      const before = site.requests.length;
      const after = 2 + Math.floor(rng.next() * 8);
      const jitterMs = Math.floor(rng.next() * 40);
      const early = await Promise.race([
        child.exited.then(() => true),
        (async () => {
          await until(`${after} requests from the crawl to kill`, () => site.requests.length - before >= after || !child.running(), 60_000, { everyMs: 2 });
          await new Promise((r) => setTimeout(r, jitterMs));
          return false;
        })(),
      ]);
      if (!early) {
        child.signal('SIGKILL');
        killed++;
      }
      await child.ended('the killed crawl to exit');
    }
    const final = await cli(threaded);
    expect(final.code).toBe(0);
    expect(JSON.parse(final.stdout).fetched).toBe(BUDGET);
    expect(killed).toBeGreaterThanOrEqual(KILLS - 1);
    const a = await graphsOf(join(folder.dir, 'ref'));
    const b = await graphsOf(join(folder.dir, 'killed'));
    expect([...a.keys()].filter((g) => g.includes('/big/')).length).toBeGreaterThan(5);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [g, lines] of a) expect(b.get(g), g).toEqual(lines);
  }, 180_000);
});
