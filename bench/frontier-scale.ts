// **frontier-scale** measures LevelFrontier at 10k and 1M queued URLs: insert rate, crawl-cycle rate, RSS, reopen time.
// Run: node_modules/.bin/node bench/frontier-scale.ts [--urls 1000000] [--plds 1000] [--cycles 20000] [--json out.json]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LevelFrontier } from '../src/frontier/level-frontier.ts';
import type { NewEntry } from '../src/frontier/types.ts';
import { type CrawlState, openState } from '../src/state/open-state.ts';
import { median } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    urls: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '10000' },
    plds: { type: 'string', default: '1000' },
    cycles: { type: 'string', default: '10000' },
    batch: { type: 'string', default: '1000' },
    json: { type: 'string' },
  },
});
const URLS = Number(values.urls);
const SMALL = Number(values.small);
const PLDS = Number(values.plds);
const CYCLES = Number(values.cycles);
const BATCH = Number(values.batch);

const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
const rssMb = (): number => mb(process.memoryUsage().rss);
const peakRssMb = (): number => mb(process.resourceUsage().maxRSS * 1024);

/** The i-th generated link: spread over PLDS sites, with link features of a realistic size. */
function newEntry(i: number): NewEntry {
  const site = i % PLDS;
  const url = `http://www.site${site}.example/section/${Math.floor(i / PLDS)}/page-${i}.html`;
  return {
    url,
    parent: `http://www.site${site}.example/`,
    depth: 1 + (i % 5),
    priority: 1 + (i % 3),
    label: 'H',
    rules: [],
    link: { url, tag: 'a', anchor: `Page ${i}`, title: '', type: '', rel: '', context: `some words around the link to page ${i} in its paragraph` },
  };
}

/** Inserts entries [from, to) in batches of BATCH, one transaction each; returns URLs/s. */
async function insert(state: CrawlState, f: LevelFrontier, from: number, to: number): Promise<number> {
  const t0 = performance.now();
  for (let i = from; i < to; i += BATCH) {
    const txn = state.txn();
    const batch: NewEntry[] = [];
    for (let j = i; j < Math.min(to, i + BATCH); j++) batch.push(newEntry(j));
    await f.add(batch, txn);
    await txn.commit();
    if ((i / BATCH) % 100 === 0 && to - from > 100_000) process.stderr.write(`\r  inserted ${i.toLocaleString()} (RSS ${rssMb()} MB)   `);
  }
  if (to - from > 100_000) process.stderr.write('\n');
  return ((to - from) / (performance.now() - t0)) * 1000;
}

/**
 * A crawl cycle as the crawler does it: take the next entry of a PLD (round robin), then in one transaction queue
 * the links "found" on it (1 new, 4 already seen) and complete it. Returns cycles/s.
 */
async function cycles(state: CrawlState, f: LevelFrontier, n: number, nextNew: { i: number }): Promise<number> {
  const plds = f.queues().map((q) => q.pld);
  const t0 = performance.now();
  let done = 0;
  for (let k = 0; done < n; k++) {
    const pld = plds[k % plds.length] as string;
    let e = f.next(pld);
    if (e === null && f.loading) {
      await f.settled();
      e = f.next(pld);
    }
    if (e === null) continue;
    const txn = state.txn();
    const found = [newEntry(nextNew.i++)];
    for (let d = 1; d <= 4; d++) found.push(newEntry(Math.max(0, nextNew.i - d * 7)));
    await f.add(found, txn);
    f.complete(e, txn);
    await txn.commit();
    done++;
  }
  return (n / (performance.now() - t0)) * 1000;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rdfscout-bench-'));
  const out: Record<string, number> = {};
  const ROUNDS = 5;
  try {
    // Both frontiers stay open; cycle rounds alternate between them so that machine load hits both alike.
    const small = await openState(join(dir, 'small'));
    const fs = await LevelFrontier.open(small);
    out.insertPerSecSmall = Math.round(await insert(small, fs, 0, SMALL));
    let large = await openState(join(dir, 'large'));
    let fl = await LevelFrontier.open(large);
    console.log(`inserting ${URLS.toLocaleString()} URLs over ${PLDS} PLDs in batches of ${BATCH}…`);
    out.insertPerSec = Math.round(await insert(large, fl, 0, URLS));
    out.rssAfterInsertMb = rssMb();
    out.seenTableMb = mb(fl.seenTableBytes);
    const cs = { i: URLS + 1 };
    const cl = { i: URLS * 2 };
    await cycles(small, fs, 1000, cs);
    await cycles(large, fl, 1000, cl);
    const rs: number[] = [];
    const rl: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      rs.push(await cycles(small, fs, CYCLES / ROUNDS, cs));
      rl.push(await cycles(large, fl, CYCLES / ROUNDS, cl));
      process.stderr.write(`  round ${r + 1}: ${Math.round(rs[r] as number)} vs ${Math.round(rl[r] as number)} cycles/s\n`);
    }
    out.cyclesPerSecAt10k = Math.round(median(rs));
    out.cyclesPerSecAt1M = Math.round(median(rl));
    out.ratio1Mto10k = Math.round((out.cyclesPerSecAt1M / out.cyclesPerSecAt10k) * 100) / 100;
    out.queuedSmall = fs.size().queued;
    out.queuedLarge = fl.size().queued;
    await large.close();

    // Resume: reopen the large frontier (one batched scan of `seen`, then each PLD's head).
    const t0 = performance.now();
    large = await openState(join(dir, 'large'));
    fl = await LevelFrontier.open(large);
    out.reopenMs = Math.round(performance.now() - t0);
    out.queuedAfterReopen = fl.size().queued;
    out.rssAfterReopenMb = rssMb();
    out.cyclesPerSecAfterReopen = Math.round(await cycles(large, fl, CYCLES / ROUNDS, cl));
    await large.close();
    await small.close();
    out.peakRssMb = peakRssMb();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.table(out);
  if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify(out, null, 2)}\n`);
}

await main();
