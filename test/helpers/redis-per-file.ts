// One real redis-server (no AOF) per test file, with clients connected to it; all stopped after the file's tests.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { connectRedis } from '../../src/distributed/redis/connect.ts';
import { type RedisTestServer, startRedisServer } from './redis-server.ts';

/** Starts a server before the file's tests and connects `clients` clients to it; `get()` returns them. */
export function redisPerFile(clients = 1): { get: () => { server: RedisTestServer; clients: Redis[] }; client: () => Redis } {
  let server: RedisTestServer | undefined;
  const connected: Redis[] = [];
  beforeAll(async () => {
    server = await startRedisServer({ appendOnly: false });
    for (let i = 0; i < clients; i++) connected.push(await connectRedis(server.url));
  });
  afterAll(async () => {
    for (const c of connected) c.disconnect();
    await server?.stop();
  });
  const get = () => {
    if (server === undefined) throw new Error('redisPerFile: the server is started in beforeAll');
    return { server, clients: connected };
  };
  /** The first client (most files need one). */
  const client = () => get().clients[0] as Redis;
  return { get, client };
}
