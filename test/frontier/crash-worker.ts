// Child process of the crash test: crawls a synthetic URL tree through LevelFrontier, printing `done <url>` after each commit.
// Usage: node crash-worker.ts DIR seed|run
import { LevelFrontier } from '../../src/frontier/level-frontier.ts';
import type { FrontierEntry, NewEntry } from '../../src/frontier/types.ts';
import { openState } from '../../src/state/open-state.ts';

const [dir, mode] = process.argv.slice(2) as [string, string];
export const SEEDS = ['http://p0.test/', 'http://p1.test/', 'http://p2.test/', 'http://p3.test/'];
const MAX_DEPTH = 4;

function linksOf(e: FrontierEntry): NewEntry[] {
  const out: NewEntry[] = [];
  if (e.depth < MAX_DEPTH) {
    for (let k = 0; k < 4; k++) out.push({ url: `${e.url}${k}/`, parent: e.url, depth: e.depth + 1, priority: 1 + (k % 2), label: null, rules: [], link: null });
  }
  // A link to another seed: always a duplicate.
  out.push({ url: SEEDS[(e.seq + 1) % SEEDS.length] as string, parent: e.url, depth: 1, priority: 1, label: null, rules: [], link: null });
  return out;
}

const state = await openState(dir);
const f = await LevelFrontier.open(state);
if (mode === 'seed') {
  await f.add(SEEDS.map((url) => ({ url, parent: null, depth: 0, priority: 1, label: null, rules: [], link: null })));
  await state.close();
  process.exit(0);
}
process.stdout.write('ready\n');
let retried = 0;
for (;;) {
  await f.settled();
  const batch: FrontierEntry[] = [];
  for (const q of f.queues()) {
    const e = f.next(q.pld);
    if (e !== null) batch.push(e);
  }
  if (batch.length === 0) {
    if (f.size().queued === 0 && f.size().inFlight === 0) break;
    continue;
  }
  // Several overlapping transactions, as concurrent fetches produce.
  await Promise.all(
    batch.map(async (e) => {
      const txn = state.txn();
      await f.add(linksOf(e), txn);
      if (e.attempts === 0 && e.seq % 5 === 0 && retried++ < 50) {
        f.retry(e, 0, txn);
        await txn.commit();
        return;
      }
      f.complete(e, txn, [`${e.url}?alias`]);
      await txn.commit();
      process.stdout.write(`done ${e.url}\n`);
    }),
  );
}
process.stdout.write('finished\n');
await state.close();
