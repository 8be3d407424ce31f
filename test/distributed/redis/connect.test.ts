// Tests of the Redis URL and connection: clear errors naming the URL (password hidden), a working password and database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../../src/distributed/redis/connect.ts';
import { parseRedisUrl } from '../../../src/distributed/redis/url.ts';
import { freePort } from '../../helpers/free-port.ts';
import { type RedisTestServer, startRedisServer } from '../../helpers/redis-server.ts';

describe('parseRedisUrl', () => {
  it('reads host, port, database and a password, and hides the password in the display form', () => {
    expect(parseRedisUrl('redis://:s%40cret@10.0.0.5:7000/3')).toEqual({
      host: '10.0.0.5', port: 7000, db: 3, username: undefined, password: 's@cret', display: 'redis://:***@10.0.0.5:7000/3',
    });
    expect(parseRedisUrl('redis://localhost')).toMatchObject({ host: 'localhost', port: 6379, db: 0, password: undefined });
  });

  it.each([
    ['http://localhost:6379', 'scheme must be redis:'],
    ['redis://localhost:6379/cache', 'database number'],
    ['redis://localhost:6379/0?timeout=5', 'query strings'],
    ['not a url :pw@', 'not a URL'],
  ])('refuses %s with a message that says why', (url, why) => {
    expect(() => parseRedisUrl(url)).toThrow(expect.objectContaining({ code: 'RDFSCOUT_INVALID_URL', message: expect.stringContaining(why) }));
  });

  it('never puts the password of a malformed URL into the message', () => {
    expect(() => parseRedisUrl('redis://:hunter2@host:port')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
  });
});

describe('connectRedis', () => {
  let server: RedisTestServer;
  beforeAll(async () => {
    server = await startRedisServer({ password: 'open sesame' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('fails at once, naming the URL, when nothing listens there', async () => {
    const port = await freePort();
    await expect(connectRedis(`redis://:pw@127.0.0.1:${port}/2`)).rejects.toMatchObject({
      code: 'RDFSCOUT_REDIS_UNREACHABLE',
      message: expect.stringMatching(new RegExp(`^Cannot use Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}/2: .*ECONNREFUSED`)),
    });
  });

  it('refuses a wrong or missing password, and a database the server does not have', async () => {
    const wrong = server.url.replace('open%20sesame', 'nope');
    await expect(connectRedis(wrong)).rejects.toMatchObject({ code: 'RDFSCOUT_REDIS_UNREACHABLE', message: expect.stringContaining('WRONGPASS') });
    await expect(connectRedis(`redis://127.0.0.1:${server.port}`)).rejects.toMatchObject({ message: expect.stringContaining('NOAUTH') });
    await expect(connectRedis(`${server.url}/99`)).rejects.toMatchObject({ message: expect.stringContaining('database 99 cannot be selected') });
  });

  it('connects with the password to the database named in the URL', async () => {
    const db3 = await connectRedis(`${server.url}/3`);
    const db0 = await connectRedis(server.url);
    try {
      await db3.set('k', 'in three');
      expect(await db3.get('k')).toBe('in three');
      expect(await db0.get('k')).toBeNull();
    } finally {
      db3.disconnect();
      db0.disconnect();
    }
  });

  it('waits through a server restart: a command sent while Redis is down completes once it is back', async () => {
    const own = await startRedisServer();
    const redis = await connectRedis(own.url, { maxReconnectDelayMs: 100 });
    try {
      await redis.set('kept', '1');
      await own.kill();
      const pending = redis.incr('kept'); // sent while the server is down: queued, not failed
      await own.restart();
      expect(await pending).toBe(2); // the AOF kept the value, and the command ran after the reconnect
    } finally {
      redis.disconnect();
      await own.stop();
    }
  });
});
