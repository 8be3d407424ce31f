// **connectRedis** opens an ioredis client from a `redis://` URL: fails fast and clearly at start, reconnects with back-off later.
import { Redis } from 'ioredis';
import { RdfscoutError } from '../../errors.ts';
import { parseRedisUrl } from './url.ts';

/** Options of {@link connectRedis}. */
export interface RedisConnectOptions {
  /** How long the first connection may take. Default: 5000 ms. */
  connectTimeoutMs?: number;
  /**
   * Longest wait between two reconnection attempts once connected (the wait grows by 100 ms per attempt up to this).
   * Commands issued meanwhile wait for the connection (the worker pauses) instead of failing. Default: 2000 ms.
   */
  maxReconnectDelayMs?: number;
  /**
   * How long a connection lost after the start is tried again (a worker's --max-offline-ms): past it the client stops
   * reconnecting, every command waiting for it fails, and {@link redisGaveUp} says why. Default: forever.
   */
  maxOfflineMs?: number;
}

/** Why each client gave up reconnecting (set once its connection stayed lost past `maxOfflineMs`). */
const GAVE_UP = new WeakMap<Redis, RdfscoutError>();

/** The error of a client that gave up its lost connection (`maxOfflineMs`), or null while it has not. */
export function redisGaveUp(client: Redis): RdfscoutError | null {
  return GAVE_UP.get(client) ?? null;
}

/**
 * Connects to the Redis server named by `url` and checks it answers (PING). The first connection is tried once:
 * an unreachable server, a wrong password or a missing database is an error naming the URL (password hidden).
 * After that, a lost connection is retried forever with back-off, and commands wait for it ("Redis lost
 * mid-crawl: workers pause and reconnect with back-off").
 * @throws RdfscoutError `RDFSCOUT_INVALID_URL` (bad URL) or `RDFSCOUT_REDIS_UNREACHABLE`.
 */
export async function connectRedis(url: string, options: RedisConnectOptions = {}): Promise<Redis> {
  const target = parseRedisUrl(url);
  const { connectTimeoutMs = 5000, maxReconnectDelayMs = 2000, maxOfflineMs = Number.POSITIVE_INFINITY } = options;
  let lastError: Error | undefined;
  let connected = false;
  let lostAt: number | null = null;
  // Once connected, a lost connection is tried again with back-off until it has been lost for maxOfflineMs.
  const retryStrategy = (times: number): number | null => {
    if (!connected) return null;
    lostAt ??= Date.now();
    const lostMs = Date.now() - lostAt;
    if (lostMs <= maxOfflineMs) return Math.min(times * 100, maxReconnectDelayMs);
    const why = lastError?.message.replace(/\.+$/, '') ?? 'connection closed';
    GAVE_UP.set(
      client,
      new RdfscoutError('RDFSCOUT_REDIS_UNREACHABLE', `Lost Redis at ${target.display} for ${Math.round(lostMs / 1000)} s (${why}), longer than --max-offline-ms: this worker stopped. Its leases expire and what it held goes back to the shared queue; start it again on its shard when Redis is back.`, {
        url: target.display,
        retryable: true,
      }),
    );
    return null;
  };
  const client = new Redis({
    host: target.host,
    port: target.port,
    db: target.db,
    username: target.username,
    password: target.password,
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy,
  });
  client.on('ready', () => {
    lostAt = null;
  });
  const onError = (err: Error) => {
    lastError = err;
  };
  client.on('error', onError); // without a listener, ioredis prints every failed attempt
  try {
    await client.connect();
    await client.ping();
    // ioredis reports a failed SELECT only as an event: check which database this connection really uses.
    const info = String(await client.call('CLIENT', 'INFO'));
    const db = /\bdb=(\d+)/.exec(info)?.[1];
    if (db !== String(target.db)) {
      throw new Error(`database ${target.db} cannot be selected (${lastError?.message ?? `the connection uses db ${db}`})`);
    }
    connected = true;
    return client;
  } catch (err) {
    client.disconnect();
    const cause = err instanceof Error && err.message.startsWith('database ') ? err : (lastError ?? err);
    const why = (cause instanceof Error ? cause.message : String(cause)).replace(/\.+$/, '');
    throw new RdfscoutError('RDFSCOUT_REDIS_UNREACHABLE', `Cannot use Redis at ${target.display}: ${why}. Is redis-server running there, and are the password and database right?`, {
      url: target.display,
      cause,
      retryable: true,
    });
  }
}

/**
 * Closes a client of {@link connectRedis} once its work is done (every call it made has been answered): QUIT when the
 * connection is up, at once when it is not (a QUIT would wait in the offline queue for a Redis that may never come
 * back). A connection lost while QUIT waits for its answer — ioredis then rejects the QUIT with "Connection is
 * closed." — ends closed all the same, so this resolves: the crawl's own calls were awaited before, and they, not
 * the goodbye, say whether the crawl's writes reached Redis. (A raw `quit()` failing there made a worker that had
 * finished its crawl end with an error; in the differential harness it was an unhandled rejection.)
 */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
