// **redisCoordination**: how a crawl opens as one worker of a crawl shared through Redis — its frontier, learning and Coordinator.
import type { Coordination, CoordinationJoin, Coordinator } from '../crawl/coordinator.ts';
import { createLearners } from '../crawl/restore-crawl.ts';
import { ArgumentError } from '../errors.ts';
import type { CrawlRegistry } from './redis/crawl-registry.ts';
import type { SharedQueue } from './redis/shared-queue.ts';
import { RedisCoordinator } from './redis-coordinator.ts';
import { RedisFrontier } from './redis-frontier.ts';
import { SharedLearning } from './shared-learning.ts';

/**
 * The `Coordination` of a worker (given to `Crawler.open`): its shard needs no seeds of its own (they are in the
 * shared frontier); the frontier is the shared queue in Redis (claims under PLD leases, budgets counted across
 * workers); what the crawl learned is replayed from the shared log (SharedLearning) when it joins, not from its
 * shard's records; and the run loop talks to a RedisCoordinator. `--retry-failed` is refused: the failed URLs are
 * spread over every worker's shard, and the shared queue never queues a URL it has seen twice. `close()` ends what was opened if the crawl could not open.
 */
export function redisCoordination(crawl: { queue: SharedQueue; registry: CrawlRegistry }): Coordination {
  const { queue, registry } = crawl;
  let opened: RedisFrontier | null = null;
  return {
    requiresSeeds: false,
    replaysLearning: false,
    async openFrontier(_state, options, { rejudge }) {
      if (options.queues === 'two') throw new ArgumentError('The two-queue frontier (--queues two) needs the LevelDB backend: it cannot be shared through Redis.');
      if (options.retryFailed) throw new ArgumentError('--retry-failed needs a crawl run by one process: the URLs that failed are spread over the shards of a crawl shared through Redis.');
      opened = new RedisFrontier({ queue, rejudge, maxClaims: options.concurrency, maxDocs: options.maxDocs, maxDocsPerPld: options.maxDocsPerPld, timers: true, deferRelease: true });
      await opened.start();
      return { frontier: opened, requeue: [] };
    },
    async join(j: CoordinationJoin): Promise<Coordinator> {
      if (opened === null) throw new Error('redisCoordination: join() before openFrontier()');
      await registry.addSeedPlds(j.seedPlds);
      const staleAfterMs = 3 * queue.leases.leaseMs; // a worker silent that long is dead to the leases too
      const options = j.options;
      const learning = new SharedLearning({ registry, worker: queue.worker, strategy: j.strategy, policy: j.policy, seedPlds: j.seedPlds, fresh: () => createLearners(options), staleAfterMs });
      await learning.catchUp(); // what every worker learned so far (thesis §5: C_HR(t) is a function of the fetched documents)
      return new RedisCoordinator({ frontier: opened, learning, state: j.state, leases: queue.leases, tally: j.tally, probes: j.probes });
    },
    async close() {
      await opened?.close();
    },
  };
}
