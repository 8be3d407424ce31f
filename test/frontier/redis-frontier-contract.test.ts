// The Frontier contract, run against RedisFrontier on a real redis-server (issue 15).
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe } from 'vitest';
import { RedisFrontier } from '../../src/frontier/redis-frontier.ts';
import { connectRedis } from '../../src/redis/connect.ts';
import { SharedQueue } from '../../src/redis/shared-queue.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { runFrontierContract } from './frontier-contract.ts';
import { tempState } from './helpers.ts';

let server: RedisTestServer;
let client: Redis;
let crawls = 0;

beforeAll(async () => {
  server = await startRedisServer({ appendOnly: false });
  client = await connectRedis(server.url);
});

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

describe('RedisFrontier', () => {
  runFrontierContract(async ({ now, rejudge }) => {
    const { state, dispose } = await tempState();
    // A fresh crawl per test; no politeness and no per-PLD limit, so that `next(pld)` claims whenever work is due.
    const queue = new SharedQueue(client, { crawl: `c${++crawls}`, worker: 'w1', hostConcurrency: 1000, delayMs: 0, leaseMs: 30_000, bucketBits: 2 });
    const frontier = new RedisFrontier({ queue, now, rejudge, maxClaims: 1000, claimBackoffMs: 0 });
    await frontier.start();
    return { frontier, txn: () => state.txn(), close: async () => {
      await frontier.close();
      await dispose();
    } };
  });
});
