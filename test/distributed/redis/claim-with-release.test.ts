// RedisFrontier against a real redis-server: PLDs asked for before a fetch's release is sent are claimed by the
// release's script (no claim of their own), a refused release claims nothing, and the links a release queued correct
// the count of a record made without asking Redis (CPU per page of a worker).
import { describe, expect, it } from 'vitest';
import { readRecord, stageRecordWrite } from '../../../src/crawl-log/record-store.ts';
import { CrawlTally } from '../../../src/crawl-log/tally.ts';
import { Scheduler } from '../../../src/crawl/scheduler.ts';
import type { SharedLearning } from '../../../src/distributed/shared-learning.ts';
import { claimsOf, RedisCoordinator } from '../../../src/distributed/redis-coordinator.ts';
import { NO_PROBES } from '../../../src/crawl/probes.ts';
import { RedisFrontier } from '../../../src/distributed/redis-frontier.ts';
import type { FrontierEntry } from '../../../src/frontier/types.ts';
import { SharedQueue } from '../../../src/distributed/redis/shared-queue.ts';
import { entry, take } from '../../frontier/frontier-contract.ts';
import { tempState } from '../../frontier/helpers.ts';
import { redisPerFile } from '../../helpers/redis-per-file.ts';
import { makeRecord } from '../../sparql/fixture.ts';

const redis = redisPerFile();
let crawls = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A worker's frontier as a crawl opens it (releases sent on `outcome()`), counting its `claimMany` scripts. */
async function worker(crawl: string, name: string, leaseMs = 30_000) {
  const queue = new SharedQueue(redis.client(), { crawl, worker: name, hostConcurrency: 1, delayMs: 0, leaseMs, bucketBits: 0 });
  const counted = { claims: 0 };
  const claimMany = queue.claimMany.bind(queue);
  queue.claimMany = (...args) => {
    counted.claims++;
    return claimMany(...args);
  };
  const frontier = new RedisFrontier({ queue, maxClaims: 2, claimBackoffMs: 0, deferRelease: true });
  await frontier.start();
  return { queue, frontier, counted };
}

/**
 * A worker's frontier (one claim at a time) and the Scheduler over it, on a clock the test moves; `delayMs`: the
 * scheduler's politeness delay.
 */
async function scheduled(delayMs: number) {
  const clock = { t: Date.now() };
  const queue = new SharedQueue(redis.client(), { crawl: `r${++crawls}`, worker: 'w1', hostConcurrency: 1, delayMs: 0, leaseMs: 30_000, bucketBits: 0 });
  const frontier = new RedisFrontier({ queue, maxClaims: 1, claimBackoffMs: 0, deferRelease: true, now: () => clock.t });
  await frontier.start();
  const scheduler = new Scheduler({ frontier, policy: null, tally: new CrawlTally(), maxDocs: 100, maxDocsPerPld: 100, delayMs, hostConcurrency: 1, now: () => clock.t, claims: claimsOf(frontier) });
  return { clock, frontier, scheduler };
}

describe('RedisFrontier: claims that ride with a release', () => {
  it('claims the PLDs asked for before a release is sent in its script, ready to hand out when it is answered', async () => {
    const { state, dispose } = await tempState();
    const w = await worker(`r${++crawls}`, 'w1');
    try {
      await w.frontier.add([entry('http://a.org/1'), entry('http://b.org/1'), entry('http://c.org/1')]);
      const a = (await take(w.frontier, 'a.org')) as FrontierEntry;
      expect(a.url).toBe('http://a.org/1');
      expect(w.counted.claims).toBe(1);
      const txn = state.txn();
      w.frontier.complete(a, txn);
      await txn.commit();
      // Its transaction committed, a's slot is free: the scheduler's next choices (two wanted, one slot free
      // besides a's: maxClaims 2, nothing else in flight) are asked for just before the release is sent.
      expect(w.frontier.next('b.org')).toBeNull();
      expect(w.frontier.next('c.org')).toBeNull();
      expect(w.frontier.saturated()).toBe(true);
      expect(await w.frontier.outcome(a)).toEqual({ kind: 'released', linksQueued: 0 });
      // Claimed by the release: in the buffer as soon as it is answered, no claim script of their own.
      expect(w.frontier.claimed().sort()).toEqual(['b.org', 'c.org']);
      await w.frontier.settled();
      expect(w.counted.claims).toBe(1);
      expect(w.frontier.next('b.org')?.url).toBe('http://b.org/1');
      expect(w.frontier.next('c.org')?.url).toBe('http://c.org/1');
      expect(w.frontier.size()).toMatchObject({ queued: 0, inFlight: 2, done: 1 });
    } finally {
      await w.frontier.close();
      await dispose();
    }
  });

  it('a release refused as stale claims nothing: the PLDs asked for are asked for again by the next pass', async () => {
    const { state, dispose } = await tempState();
    const crawl = `r${++crawls}`;
    const w = await worker(crawl, 'w1', 150);
    const other = new SharedQueue(redis.client(), { crawl, worker: 'w2', hostConcurrency: 1, delayMs: 0, leaseMs: 150, bucketBits: 0 });
    try {
      await w.frontier.add([entry('http://a.org/1'), entry('http://b.org/1')]);
      const a = (await take(w.frontier, 'a.org')) as FrontierEntry;
      await sleep(200); // w1 stopped past its lease (no timers here): another worker reclaims it
      expect((await other.reclaim()).requeued).toBe(1);
      const txn = state.txn();
      w.frontier.complete(a, txn);
      await txn.commit();
      expect(w.frontier.next('b.org')).toBeNull();
      expect(await w.frontier.outcome(a)).toEqual({ kind: 'stale' });
      expect(w.frontier.claimed()).toEqual([]);
      expect((await other.claim(['b.org'], Date.now(), { maxDocs: 10, maxDocsPerPld: 10 })).kind).toBe('ok'); // b.org was never leased by w1
      await w.frontier.settled();
      expect(w.frontier.next('a.org')).toBeNull(); // asked for again, in a claim of its own
      expect((await take(w.frontier, 'a.org'))?.url).toBe('http://a.org/1');
      expect(w.counted.claims).toBe(2);
    } finally {
      await w.frontier.close();
      await dispose();
    }
  });

  it("counts a page's links queued without asking Redis, and corrects the record from the release's answer", async () => {
    const { state, dispose } = await tempState();
    const crawl = `r${++crawls}`;
    const w = await worker(crawl, 'w1');
    const other = new SharedQueue(redis.client(), { crawl, worker: 'w2', hostConcurrency: 1, delayMs: 0, leaseMs: 30_000, bucketBits: 0 });
    const shared = new RedisCoordinator({ frontier: w.frontier, learning: {} as SharedLearning, state, leases: w.queue.leases, tally: new CrawlTally(), probes: NO_PROBES }); // its learning is not used here
    try {
      await w.frontier.add([entry('http://a.org/1'), entry('http://a.org/2')]);
      const scripts = async () => Number(/cmdstat_evalsha:calls=(\d+)/.exec(await redis.client().info('commandstats'))?.[1] ?? 0);
      // w2 finds b.org/x first; w1 knows a.org/2 (it queued it) but not b.org/x nor c.org/y.
      await other.add([{ url: 'http://b.org/x', pld: 'b.org', priority: 1, json: '{}' }], Date.now());
      const page = async (url: string, links: string[]) => {
        const e = (await take(w.frontier, 'a.org')) as FrontierEntry;
        expect(e.url).toBe(url);
        const txn = state.txn();
        const before = await scripts();
        const record = makeRecord({ seq: url.endsWith('1') ? 1 : 2, url, finalUrl: url, pld: 'a.org' });
        record.linksQueued = await w.frontier.add(links.map((l) => entry(l)), txn);
        expect((await scripts()) - before).toBe(0); // nothing asked of Redis
        stageRecordWrite(state, txn, record);
        w.frontier.complete(e, txn);
        await txn.commit();
        return { record, counted: record.linksQueued, applied: await shared.committed(e, record) };
      };
      const first = await page('http://a.org/1', ['http://a.org/2', 'http://b.org/x', 'http://c.org/y']);
      expect(first.counted).toBe(2); // b.org/x and c.org/y: not known to w1
      expect(first.applied).toBe(true);
      expect(first.record.linksQueued).toBe(1); // the release queued c.org/y only
      expect((await readRecord(state, 1))?.linksQueued).toBe(1);
      expect(w.frontier.size()).toMatchObject({ queued: 3, done: 1 }); // a.org/2, b.org/x, c.org/y
      // Links known since (queued by w1's release, or not new to the crawl): counted 0 without a round trip, as queued.
      const second = await page('http://a.org/2', ['http://b.org/x', 'http://c.org/y', 'http://a.org/1']);
      expect([second.counted, second.record.linksQueued, (await readRecord(state, 2))?.linksQueued]).toEqual([0, 0, 0]);
    } finally {
      await w.frontier.close();
      await dispose();
    }
  });

  it("Scheduler.claimAhead asks for the pick's own choice and hands nothing out; the release claims it", async () => {
    const { state, dispose } = await tempState();
    const { frontier, scheduler } = await scheduled(1000);
    try {
      await frontier.add([entry('http://a.org/1', 1), entry('http://c.org/1', 3), entry('http://b.org/1', 2)]);
      for (const pld of ['a.org', 'b.org', 'c.org']) scheduler.changed(pld);
      expect(scheduler.pick()).toBeNull(); // a.org wanted: claimed in the background
      await frontier.settled();
      const a = scheduler.pick() as FrontierEntry;
      expect(a.url).toBe('http://a.org/1');
      scheduler.requestStarted(a);
      scheduler.requestEnded(a, null); // a.org waits 1 s (the scheduler's politeness)
      scheduler.landed(a);
      const txn = state.txn();
      frontier.complete(a, txn);
      await txn.commit();
      scheduler.claimAhead();
      expect(scheduler.inFlight).toBe(0); // nothing handed out
      expect(frontier.claimed()).toEqual([]);
      expect(await frontier.outcome(a)).toEqual({ kind: 'released', linksQueued: 0 });
      expect(frontier.claimed()).toEqual(['b.org']); // global order among the ready PLDs: b.org (2) before c.org (3)
      scheduler.claimAhead(); // a claimed entry waits: nothing is asked for, nothing handed out
      expect([scheduler.inFlight, frontier.claimed()]).toEqual([0, ['b.org']]);
      expect(scheduler.pick()?.url).toBe('http://b.org/1');
      expect(scheduler.inFlight).toBe(1);
    } finally {
      await frontier.close();
      await dispose();
    }
  });
  // Differential seed 22 (bfs, a dead host, --max-docs 12, one worker): the worker chose its next PLD before the links
  // of the page just committed were in its mirror, one process after them, so a PLD made due by that page was chosen
  // later in Redis mode and the budget ended on another URL. Failed before the fix (b.org asked for, not d.org).
  it("Scheduler.claimAhead sees the committed page's links and its retry as one process does after its commit", async () => {
    const { state, dispose } = await tempState();
    const { clock, frontier, scheduler } = await scheduled(0);
    const fetchOf = async (pld: string): Promise<FrontierEntry> => {
      for (const p of frontier.queues()) scheduler.changed(p.pld);
      expect(scheduler.pick()).toBeNull(); // wanted: claimed in the background
      await frontier.settled();
      const e = scheduler.pick() as FrontierEntry;
      expect(e.pld).toBe(pld);
      scheduler.requestStarted(e);
      scheduler.requestEnded(e, null);
      scheduler.landed(e);
      return e;
    };
    try {
      await frontier.add([entry('http://a.org/1', 1), entry('http://b.org/1', 2), entry('http://e.org/1', 3)]);
      // a.org/1 links d.org/1, more urgent than anything queued: the next choice, made before the release is sent.
      const a = await fetchOf('a.org');
      const txn = state.txn();
      await frontier.add([entry('http://d.org/1', 0)], txn);
      frontier.complete(a, txn);
      await txn.commit();
      scheduler.committed(a.pld, [{ url: 'http://d.org/1' }]);
      expect(frontier.queueOf('d.org')).not.toBeNull(); // counted at its commit, before Redis answers
      scheduler.claimAhead();
      expect(await frontier.outcome(a)).toEqual({ kind: 'released', linksQueued: 1 });
      expect(frontier.claimed()).toEqual(['d.org']);
      const d = scheduler.pick() as FrontierEntry;
      expect(d.url).toBe('http://d.org/1');
      scheduler.requestStarted(d);
      scheduler.requestEnded(d, null);
      scheduler.landed(d);
      // d.org/1 fails and waits 10 s for its retry: its PLD is not due, and the next choice is b.org.
      const retry = state.txn();
      frontier.retry(d, clock.t + 10_000, retry);
      await retry.commit();
      scheduler.changed('d.org');
      expect(frontier.dueAt('d.org')).toBe(clock.t + 10_000);
      scheduler.claimAhead();
      expect((await frontier.outcome(d)).kind).toBe('released');
      expect(frontier.claimed()).toEqual(['b.org']);
    } finally {
      await frontier.close();
      await dispose();
    }
  });
});

describe('SharedQueue: a release sent again after its reply was lost', () => {
  it('answers already, with the claims its first run made (once, while their leases last), and applies nothing twice', async () => {
    const crawl = `r${++crawls}`;
    const q = new SharedQueue(redis.client(), { crawl, worker: 'w1', hostConcurrency: 1, delayMs: 0, leaseMs: 30_000, bucketBits: 0 });
    const limits = { maxDocs: 100, maxDocsPerPld: 100 };
    const now = Date.now();
    await q.add(['http://a.org/1', 'http://b.org/1', 'http://c.org/1'].map((url) => ({ url, pld: new URL(url).hostname, priority: 1, json: '{}' })), now);
    const a = await q.claim(['a.org'], now, limits);
    if (a.kind !== 'ok') throw new Error(`claim: ${a.kind}`);
    const release = (token: string, url: string, candidates: string[]) =>
      q.finish({ token, url, mode: 'done', spent: true, rdf: 0, waitMs: 0, now: Date.now(), claim: { candidates, limits } });

    const first = await release(a.token, a.url, ['b.org']);
    expect(first.kind).toBe('ok');
    expect(first.claimed?.claims.map((c) => c.url)).toEqual(['http://b.org/1']);
    const b = first.claimed?.claims[0];
    // The same script again (what ioredis sends after a reconnect when the reply was lost): the fetch is not applied
    // twice, and the claim the worker never heard of is handed out now rather than after its lease expires.
    const again = await release(a.token, a.url, ['b.org']);
    expect(again.kind).toBe('already');
    expect(again.claimed?.claims).toEqual([b]);
    expect(again.stat).toMatchObject(first.stat);
    // Once only: a third copy hands out nothing (the claim is held by the worker now).
    const third = await release(a.token, a.url, ['b.org']);
    expect(third).toMatchObject({ kind: 'already', claimed: { kind: 'none', claims: [] } });

    // A claim whose lease ended before the resend (released here) is not handed out again.
    const second = await release(b!.token, b!.url, ['c.org']);
    const c = second.claimed?.claims[0];
    expect(c?.url).toBe('http://c.org/1');
    await release(c!.token, c!.url, []);
    expect((await release(b!.token, b!.url, ['c.org'])).claimed).toMatchObject({ kind: 'none', claims: [] });
    expect((await q.claim(['a.org', 'b.org', 'c.org'], Date.now(), limits)).kind).toBe('none'); // all three done, once each
  });
});
