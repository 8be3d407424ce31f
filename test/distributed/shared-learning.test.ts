// The shared learning log on a real redis-server: folded into a snapshot once every live worker has read it, so a late
// joiner gets the same learned view as one that replayed every entry, and the log's size stays bounded.
import { describe, expect, it } from 'vitest';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { resolveCrawlOptions } from '../../src/crawl/options.ts';
import { createLearners } from '../../src/crawl/restore-crawl.ts';
import { type Learners, SharedLearning } from '../../src/distributed/shared-learning.ts';
import { CrawlRegistry } from '../../src/distributed/redis/crawl-registry.ts';
import { connectRedis } from '../../src/distributed/redis/connect.ts';
import { redisPerFile } from '../helpers/redis-per-file.ts';

const redis = redisPerFile();
let n = 0;

// fc-r+hr learns RDF parents (C_HR, thesis §5) and URL-pattern yields; the bandit keeps per-PLD arm statistics.
const OPTIONS = resolveCrawlOptions({ out: 'unused', strategy: 'fc-r+hr', bandit: 'thompson' });
const fresh = (): Learners => createLearners(OPTIONS);

/** The i-th fetch of a made-up crawl: 20 PLDs, every third document RDF, found on one of a few parent pages. */
function record(i: number): CrawlRecord {
  const host = `s${i % 20}.org`;
  const rdf = i % 3 === 0;
  return {
    seq: i, url: `http://${host}/data/${i}${rdf ? '.ttl' : '.html'}`, finalUrl: `http://${host}/data/${i}${rdf ? '.ttl' : '.html'}`,
    status: 200, outcome: 'ok', contentType: rdf ? 'text/turtle' : 'text/html', detectedType: rdf ? 'rdf' : 'html', rdfFormat: null,
    parent: `http://${host}/list/${i % 7}.html`, depth: 2, pld: host, triples: rdf ? 10 : 0, linksQueued: 3, error: null,
    errorMessage: null, label: rdf ? 'R' : 'H', rules: ['r1'], redirects: [], ms: 5, fetchedAt: new Date(0).toISOString(),
  } as CrawlRecord;
}

/** A crawl in its own key space, and a way to append entries as the release script does (RPUSH to the log). */
function crawl() {
  const registry = new CrawlRegistry(redis.client(), `learn${++n}`);
  const writer = new SharedLearning({ registry, worker: 'x', ...fresh(), seedPlds: new Set(), fresh });
  let next = 0;
  const append = async (count: number) => {
    const entries = Array.from({ length: count }, () => writer.entry(record(next), next++ % 5 === 0 ? 1 : 0));
    await redis.client().rpush(`${registry.keys.prefix}log`, ...entries);
  };
  const worker = (id: string, o: { foldEvery: number; staleAfterMs?: number }) => {
    const learners = fresh();
    return { learners, learning: new SharedLearning({ registry, worker: id, ...learners, seedPlds: new Set(), fresh, ...o }) };
  };
  /** What a worker would know by replaying all `count` entries appended so far, in order. */
  const replayed = () => {
    const l = fresh();
    for (let i = 0; i < next; i++) {
      l.strategy.learn(JSON.parse(writer.entry(record(i), 0)).doc);
      l.policy?.update(record(i).pld, i % 5 === 0 ? 1 : 0);
    }
    return l;
  };
  const listLength = () => redis.client().llen(`${registry.keys.prefix}log`);
  return { registry, append, worker, replayed, listLength };
}

const viewOf = (l: Learners) => ({ strategy: l.strategy.snapshot(), policy: l.policy?.snapshot() });

describe('SharedLearning: the log folded into a snapshot', () => {
  it('a worker joining after folds gets the same learned view as one that read every entry', async () => {
    const c = crawl();
    const a = c.worker('a', { foldEvery: 100 });
    const b = c.worker('b', { foldEvery: 100 });
    await c.append(50);
    // Bytes per fetch in Redis before any fold (a list of JSON entries: the URL, final URL, parent, label, rules, reward).
    const perEntry = (await c.registry.log.bytes()) / 50;
    expect(perEntry).toBeGreaterThan(100);
    process.stdout.write(`learning log: ${perEntry.toFixed(0)} bytes per entry before folding\n`);
    for (let round = 0; round < 10; round++) {
      await c.append(48);
      await a.learning.catchUp();
      await b.learning.catchUp();
    }
    expect(await c.registry.log.total()).toBe(530); // 50 + 10 × 48
    expect(await c.listLength()).toBeLessThan(100); // folded: what both had read is in the snapshot
    const late = c.worker('late', { foldEvery: 100 });
    expect(await late.learning.catchUp()).toBeLessThan(100); // the snapshot, then the tail
    const reference = viewOf(c.replayed());
    expect(viewOf(late.learners)).toEqual(reference);
    expect(viewOf(a.learners)).toEqual(reference);
    // The origins that answered, most recent last, kept through the folds: a new worker's probe targets. The last
    // entry is s9.org's (529 % 20); before that the 15 other PLDs of the last entries, each once.
    const answered = Array.from({ length: 16 }, (_, k) => `http://s${(529 - 15 + k) % 20}.org`);
    expect(late.learning.answeredOrigins()).toEqual(answered);
    expect(b.learning.answeredOrigins()).toEqual(answered);
    // `status` counts every entry ever appended, folded ones included.
    await c.registry.create({ options: {}, bucketBits: 8, leaseMs: 30_000, created: new Date(0).toISOString() });
    expect((await c.registry.status(60_000))?.learned).toBe(530);
  });

  it('keeps the log bounded over a long crawl, waits for a live reader, and resyncs one that fell silent', async () => {
    const c = crawl();
    const foldEvery = 200;
    const batch = 150;
    const a = c.worker('a', { foldEvery, staleAfterMs: 60_000 });
    const b = c.worker('b', { foldEvery, staleAfterMs: 60_000 });
    let longest = 0;
    for (let round = 0; round < 40; round++) {
      await c.append(batch);
      longest = Math.max(longest, await c.listLength());
      await a.learning.catchUp();
      await b.learning.catchUp();
      expect(await c.listLength()).toBeLessThan(foldEvery); // after both read: what they read is folded
    }
    expect(await c.registry.log.total()).toBe(40 * batch);
    expect(longest).toBeLessThan(foldEvery + batch); // never more than a fold's worth plus what arrived since
    const logBytes = await c.registry.log.bytes();
    // A reader that stops reading (its worker is stopped) holds the fold back while it counts as live …
    const slow = c.worker('slow', { foldEvery, staleAfterMs: 60_000 });
    await slow.learning.catchUp();
    for (let round = 0; round < 4; round++) {
      await c.append(batch);
      await a.learning.catchUp();
    }
    expect(await c.listLength()).toBeGreaterThanOrEqual(4 * batch); // slow's unread entries are kept for it
    // … and not once it counts as dead (silent longer than staleAfterMs): a reader with a 0 ms limit folds past it.
    const hasty = c.worker('hasty', { foldEvery, staleAfterMs: 0 });
    await hasty.learning.catchUp();
    expect(await c.listLength()).toBeLessThan(foldEvery);
    // The silent one reads again: its position was folded away, so it restores the snapshot and reads the tail.
    await slow.learning.catchUp();
    const reference = viewOf(c.replayed());
    expect(viewOf(slow.learners)).toEqual(reference);
    expect(viewOf(hasty.learners)).toEqual(reference);
    process.stdout.write(`learning log: ${40 * batch} entries, ${logBytes} bytes in Redis after folding (list < ${foldEvery} entries + snapshot)\n`);
  });

  it('a background read that fails is kept for settled() and the coordinator, not left as an unhandled rejection', async () => {
    // A client closed under it: every command fails ("Connection is closed"), as a read pending when a worker's
    // connection is closed does. On the old code the refresh's rejection was unhandled (Vitest fails the run on one).
    const client = await connectRedis(redis.get().server.url);
    const registry = new CrawlRegistry(client, `learn${++n}`);
    const learning = new SharedLearning({ registry, worker: 'w', ...fresh(), seedPlds: new Set(), fresh, refreshMs: 0 });
    client.disconnect();
    learning.refresh();
    // Nobody awaits the read meanwhile (the run loop only looks again on its next idle turn).
    await new Promise((r) => setTimeout(r, 100));
    await expect(learning.settled()).rejects.toThrow(/Connection is closed/);
    expect(String(learning.failure)).toMatch(/Connection is closed/);
  });
});
