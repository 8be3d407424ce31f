// The Frontier contract, run against RedisFrontier on a real redis-server.
import { describe } from 'vitest';
import { RedisFrontier } from '../../src/distributed/redis-frontier.ts';
import { SharedQueue } from '../../src/distributed/redis/shared-queue.ts';
import { redisPerFile } from '../helpers/redis-per-file.ts';
import { runFrontierContract } from '../frontier/frontier-contract.ts';
import { tempState } from '../frontier/helpers.ts';

const redis = redisPerFile();
let crawls = 0;

describe('RedisFrontier', () => {
  runFrontierContract(async ({ now, rejudge }) => {
    const { state, dispose } = await tempState();
    // A fresh crawl per test; no politeness and no per-PLD limit, so that `next(pld)` claims whenever work is due.
    const queue = new SharedQueue(redis.client(), { crawl: `c${++crawls}`, worker: 'w1', hostConcurrency: 1000, delayMs: 0, leaseMs: 30_000, bucketBits: 2 });
    const frontier = new RedisFrontier({ queue, now, rejudge, maxClaims: 1000, claimBackoffMs: 0 });
    await frontier.start();
    return { frontier, txn: () => state.txn(), close: async () => {
      await frontier.close();
      await dispose();
    } };
  });
});
