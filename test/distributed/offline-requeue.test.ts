// A URL put back while a process is offline (an outage pause): one process holds it until its pause ends; a worker
// of a shared crawl gives it back due at once, to workers whose network may work (a real redis-server, a real LevelDB).
import { describe, expect, it } from 'vitest';
import { CrawlTally } from '../../src/crawl-log/tally.ts';
import type { CoordinationJoin } from '../../src/crawl/coordinator.ts';
import { localCoordination } from '../../src/crawl/local-coordination.ts';
import { NO_PROBES } from '../../src/crawl/probes.ts';
import { RedisCoordinator } from '../../src/distributed/redis-coordinator.ts';
import { RedisFrontier } from '../../src/distributed/redis-frontier.ts';
import { SharedQueue } from '../../src/distributed/redis/shared-queue.ts';
import type { SharedLearning } from '../../src/distributed/shared-learning.ts';
import { LevelFrontier } from '../../src/frontier/level-frontier.ts';
import type { FrontierEntry } from '../../src/frontier/types.ts';
import { entry, take } from '../frontier/frontier-contract.ts';
import { tempState } from '../frontier/helpers.ts';
import { redisPerFile } from '../helpers/redis-per-file.ts';

const redis = redisPerFile();
const PAUSE_MS = 60_000;

describe('Coordinator.offlineDueAt: a URL put back during an outage pause', () => {
  it('one process: due when its pause ends (no one else could fetch it sooner)', async () => {
    const { state, dispose } = await tempState();
    const frontier = await LevelFrontier.open(state, { rejudge: false });
    const coordinator = await localCoordination().join({ tally: new CrawlTally() } as CoordinationJoin); // its tally only
    try {
      await frontier.add([entry('http://a.org/1')]);
      const e = (await take(frontier, 'a.org')) as FrontierEntry;
      const pausedUntil = Date.now() + PAUSE_MS;
      const txn = state.txn();
      frontier.retry({ ...e, attempts: e.attempts - 1 }, coordinator.offlineDueAt(pausedUntil), txn);
      await txn.commit();
      expect(frontier.dueAt('a.org')).toBe(pausedUntil);
      expect(frontier.next('a.org')).toBeNull();
    } finally {
      await coordinator.close();
      await dispose();
    }
  });

  // Differential seed 56 (a killed worker restarted, a dead host): the restarted worker had seen no origin answer, so
  // the dead host's failures looked like its network going down; it paused, put the dead URL back until its pause
  // ended (doubling up to a minute), and the other workers, idle, waited for it: the crawl did not end within 60 s
  // (1 run in 12 under load). Failed before (no offlineDueAt; the URL was held until the pause's end).
  it("a worker of a shared crawl: due at once, another worker claims it while this one's pause goes on", async () => {
    const { state, dispose } = await tempState();
    const crawl = 'offline';
    const queue = new SharedQueue(redis.client(), { crawl, worker: 'w1', hostConcurrency: 1, delayMs: 0, leaseMs: 30_000, bucketBits: 0 });
    const frontier = new RedisFrontier({ queue, maxClaims: 1, claimBackoffMs: 0, deferRelease: true });
    await frontier.start();
    const coordinator = new RedisCoordinator({ frontier, learning: {} as SharedLearning, state, leases: queue.leases, tally: new CrawlTally(), probes: NO_PROBES }); // its learning is not used here
    const other = new SharedQueue(redis.client(), { crawl, worker: 'w2', hostConcurrency: 1, delayMs: 0, leaseMs: 30_000, bucketBits: 0 });
    try {
      await frontier.add([entry('http://a.org/1')]);
      const e = (await take(frontier, 'a.org')) as FrontierEntry;
      const txn = state.txn();
      frontier.retry({ ...e, attempts: e.attempts - 1 }, coordinator.offlineDueAt(Date.now() + PAUSE_MS), txn);
      await txn.commit();
      expect(await coordinator.committed(e, null)).toBe(true);
      const claim = await other.claim(['a.org'], Date.now(), { maxDocs: 10, maxDocsPerPld: 10 });
      expect(claim).toMatchObject({ kind: 'ok', url: 'http://a.org/1' });
    } finally {
      await frontier.close();
      await dispose();
    }
  });
});
