// **warc-write** measures the CPU that `--warc` spends writing records (issue 18: ≤ 15% CPU per page), apart from
// the crawl: a crawl of the simulated web is archived once (level 0), read back into the exchanges the fetcher gave,
// and replayed through FetchArchive + WarcWriter at gzip levels 0 and 1, several times in alternating order.
// Run: node_modules/.bin/node bench/warc-write.ts [--pages 3000] [--rounds 4] [--baseline DIR]
// --baseline DIR: also replay through DIR/src/warc/index.ts (e.g. an older checkout: `git archive REV src | tar -x -C
// DIR`), in the same process and rounds, so that the two are compared in one run.
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Crawler } from '../src/crawl/crawler.ts';
import type { HttpExchange } from '../src/fetch/types.ts';
import * as current from '../src/warc/index.ts';
import { askChild } from './lib/child-message.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '4' },
    baseline: { type: 'string' },
  },
});
type WarcModule = typeof current;

/** One archived fetch: its exchanges (hops) and its metadata; robots.txt exchanges have no metadata. */
interface Fetch {
  exchanges: HttpExchange[];
  url: string | null;
  meta: Record<string, unknown> | null;
}

const REQUEST_HEADERS = { accept: 'text/turtle;q=1.0, application/rdf+xml;q=0.9, text/html;q=0.5, */*;q=0.1', 'user-agent': 'rdfscout/0.1 (+https://example.org/rdfscout)', 'accept-encoding': 'gzip, deflate, br' };

/** Crawls `pages` pages with `--warc` (level 0) and reads the archive back into fetches, in archive order. */
async function sample(pages: number): Promise<Fetch[]> {
  const server = fork(join(import.meta.dirname, 'lib/simweb-process.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await askChild<{ proxyUrl: string; seeds: string[] }>(server, 'ready', false);
  const out = await mkdtemp(join(tmpdir(), 'rdfscout-warc-write-'));
  try {
    const crawler = await Crawler.open(
      { out, seeds: ready.seeds, proxy: ready.proxyUrl, strategy: 'bfs', delayMs: 0, hostConcurrency: 16, concurrency: 16, maxDocs: pages },
      { warc: { target: join(out, 'warc/'), gzipLevel: 0 } },
    );
    try {
      await crawler.run();
    } finally {
      await crawler.close();
    }
    const byId = new Map<string, HttpExchange>();
    const fetches: Fetch[] = [];
    for await (const item of current.readArchive(await current.listWarcFiles([join(out, 'warc')]))) {
      if (item.kind === 'response') {
        const { url, date, status, statusText, headers, body, truncated } = item;
        byId.set(item.id, { fetchId: null, url, requestHeaders: REQUEST_HEADERS, date, status, statusText, headers, body: body.length === 0 ? [] : [body], truncated: truncated as HttpExchange['truncated'] });
      } else if (item.kind === 'fetch') {
        const { responses, ...meta } = item.meta as { responses: string[] };
        const exchanges = responses.map((id) => byId.get(id) as HttpExchange);
        for (const id of responses) byId.delete(id);
        fetches.push({ exchanges, url: item.url, meta });
      }
    }
    for (const x of byId.values()) fetches.push({ exchanges: [x], url: null, meta: null }); // robots.txt
    return fetches;
  } finally {
    server.send({ type: 'close' });
    await rm(out, { recursive: true, force: true });
  }
}

/** Replays the fetches through one module's FetchArchive into a fresh folder; CPU ms of all threads, and bytes. */
async function replay(mod: WarcModule, fetches: readonly Fetch[], gzipLevel: number): Promise<{ cpuMs: number; bytes: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'rdfscout-warc-write-'));
  try {
    const cpu0 = process.cpuUsage(); // all threads of the process (the zlib and fs work too)
    const writer = await mod.WarcWriter.open({ target: `${dir}/`, gzipLevel });
    const archive = new mod.FetchArchive(writer);
    let n = 0;
    for (const f of fetches) {
      const fetchId = f.meta === null ? null : String(++n);
      // Fresh exchange objects (the fetcher gives new ones), sharing the body bytes.
      for (const x of f.exchanges) archive.onExchange({ ...x, fetchId, body: [...x.body] });
      if (fetchId !== null) await archive.finish(fetchId, f.url as string, f.meta as Record<string, unknown>);
      // A crawl gives the event loop a turn between fetches: let the background writes run as they would there.
      if (n % 16 === 0) await new Promise((r) => setImmediate(r));
    }
    await archive.close();
    const used = process.cpuUsage(cpu0);
    const cpuMs = (used.user + used.system) / 1000;
    return { cpuMs, bytes: writer.bytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const fetches = await sample(Number(values.pages));
  const pages = fetches.filter((f) => f.meta !== null).length;
  const bodyBytes = fetches.reduce((n, f) => n + f.exchanges.reduce((m, x) => m + x.body.reduce((k, b) => k + b.length, 0), 0), 0);
  const exchanges = fetches.reduce((n, f) => n + f.exchanges.length, 0);
  console.log(`sample: ${pages} fetches, ${exchanges} exchanges, ${(bodyBytes / pages / 1024).toFixed(1)} kB of body per fetch`);
  const mods: [string, WarcModule][] = [['current', current]];
  if (values.baseline) mods.unshift(['baseline', (await import(join(values.baseline, 'src/warc/index.ts'))) as WarcModule]);
  const contestants = mods.flatMap(([name, mod]) => [0, 1].map((level) => ({ name: `${name} level ${level}`, mod, level })));
  const cpu = new Map<string, number[]>(contestants.map((c) => [c.name, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? contestants : [...contestants].reverse();
    for (const c of order) {
      const r = await replay(c.mod, fetches, c.level);
      cpu.get(c.name)?.push(r.cpuMs / pages);
      console.log(`  round ${round + 1} ${c.name.padEnd(17)} ${(r.cpuMs / pages).toFixed(3)} ms CPU per fetch, ${(r.bytes / pages / 1024).toFixed(2)} kB per fetch`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  console.log('\nmedian CPU ms per fetch (user + system, all threads):');
  for (const [name, xs] of cpu) console.log(`  ${name.padEnd(17)} ${median(xs).toFixed(3)}`);
}

await main();
