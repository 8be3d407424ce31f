// **frontier-scale** measures LevelFrontier at 10k and 1M queued URLs: insert rate, crawl-cycle rate, RSS, reopen time (issue 8).
// Run: node_modules/.bin/node bench/frontier-scale.ts [--urls 1000000] [--plds 1000] [--cycles 20000] [--json out.json]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LevelFrontier } from '../src/frontier/level-frontier.ts';
import type { NewEntry } from '../src/frontier/types.ts';
import { type CrawlState, openState } from '../src/state/open-state.ts';

const { values } = parseArgs({
  options: {
    urls: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '10000' },
    plds: { type: 'string', default: '1000' },
    cycles: { type: 'string', default: '20000' },
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
  try {
    // Small frontier.
    let state = await openState(join(dir, 'small'));
    let f = await LevelFrontier.open(state);
    out.insertPerSecSmall = Math.round(await insert(state, f, 0, SMALL));
    const counter = { i: URLS + 1 };
    await cycles(state, f, 2000, counter); // warm-up
    out.cyclesPerSecAt10k = Math.round(await cycles(state, f, CYCLES, counter));
    out.queuedSmall = f.size().queued;
    await state.close();

    // Large frontier.
    state = await openState(join(dir, 'large'));
    f = await LevelFrontier.open(state);
    console.log(`inserting ${URLS.toLocaleString()} URLs over ${PLDS} PLDs in batches of ${BATCH}…`);
    out.insertPerSec = Math.round(await insert(state, f, 0, URLS));
    out.rssAfterInsertMb = rssMb();
    out.seenTableMb = mb(f.seenTableBytes);
    counter.i = URLS * 2;
    await cycles(state, f, 2000, counter);
    out.cyclesPerSecAt1M = Math.round(await cycles(state, f, CYCLES, counter));
    out.queuedLarge = f.size().queued;
    await state.close();

    // Resume: reopen the large frontier (keys-only queue scan + seen scan + head reads).
    const t0 = performance.now();
    state = await openState(join(dir, 'large'));
    f = await LevelFrontier.open(state);
    out.reopenMs = Math.round(performance.now() - t0);
    out.queuedAfterReopen = f.size().queued;
    out.rssAfterReopenMb = rssMb();
    out.cyclesPerSecAfterReopen = Math.round(await cycles(state, f, CYCLES, counter));
    await state.close();
    out.peakRssMb = peakRssMb();
    out.ratio1Mto10k = Math.round((out.cyclesPerSecAt1M / out.cyclesPerSecAt10k) * 100) / 100;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.table(out);
  if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify(out, null, 2)}\n`);
}

await main();
