// A Redis server that dies while a worker says goodbye (QUIT sent, no answer yet): ioredis rejects the QUIT with
// "Connection is closed." (event_handler.js close() → flushQueue). A worker that finished its crawl then ended with
// that error, and the differential harness saw it as an unhandled rejection (seeds 649 and 759, Redis restarts).
// Real redis-server: SIGSTOP holds the QUIT's answer back, SIGKILL drops the connection at the moment the test picks.
import { afterEach, describe, expect, it } from 'vitest';
import { closeRedis, connectRedis } from '../../src/distributed/redis/connect.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

let server: RedisTestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Starts a server, connects `n` clients, stops the server (SIGSTOP) and returns them with a function that kills it. */
async function frozenServer(n: number) {
  server = await startRedisServer({ appendOnly: false });
  const s = server;
  const clients: Redis[] = [];
  for (let i = 0; i < n; i++) clients.push(await connectRedis(s.url));
  process.kill(s.pid(), 'SIGSTOP');
  return { clients, kill: () => s.kill() };
}

describe('closeRedis around a dying server', () => {
  it('resolves when the server dies before answering QUIT, where a raw quit() rejects with "Connection is closed."', async () => {
    const { clients, kill } = await frozenServer(2);
    const [raw, closing] = clients as [Redis, Redis];
    const rawQuit = raw.quit().then(
      () => 'resolved',
      (err: unknown) => (err as Error).message,
    );
    const closed = closeRedis(closing).then(
      () => 'resolved',
      (err: unknown) => (err as Error).message,
    );
    await sleep(100); // both QUITs are written; the stopped server answers neither
    await kill();
    expect(await rawQuit).toBe('Connection is closed.');
    expect(await closed).toBe('resolved');
    expect(closing.status).toBe('end');
  });

  it('does not wait for a lost server: a client reconnecting is closed at once, and stays closed', async () => {
    const { clients, kill } = await frozenServer(1);
    const client = clients[0] as Redis;
    await kill();
    await sleep(200); // the client saw its connection close and waits to reconnect
    expect(client.status).not.toBe('ready');
    // A call still waiting for the connection (a background read nobody awaits any more): a QUIT would queue behind it.
    const waiting = client.get('rdfscout:test').then(() => 'answered', () => 'failed');
    const t = performance.now();
    await closeRedis(client);
    expect(performance.now() - t).toBeLessThan(1000);
    // ioredis leaves a client closed while reconnecting in 'reconnecting', but with no attempt left: a server back
    // on the port does not bring it back.
    await server?.restart();
    await sleep(800);
    expect(client.status).not.toBe('ready');
    void waiting;
  });
});
