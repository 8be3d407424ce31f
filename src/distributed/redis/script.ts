// **redisScript**: a Lua script registered on an ioredis client (EVALSHA, with EVAL when the server lost its script cache).
import type { Redis } from 'ioredis';
import { RdfscoutError } from '../../errors.ts';

/** Runs the script with the given keys and arguments; Redis errors become `RDFSCOUT_REDIS_FAILED`. */
export type RunScript = (keys: readonly string[], args: ReadonlyArray<string | number | Buffer>) => Promise<unknown>;

/**
 * Registers `lua` under `name` on `client` (ioredis `defineCommand`: it sends EVALSHA and falls back to EVAL after
 * a server restart emptied the script cache) and returns a function that runs it.
 */
export function redisScript(client: Redis, name: string, lua: string): RunScript {
  const scripts = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  if (typeof scripts[name] !== 'function') client.defineCommand(name, { lua });
  return async (keys, args) => {
    try {
      return await scripts[name]!.call(client, keys.length, ...keys, ...args);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new RdfscoutError('RDFSCOUT_REDIS_FAILED', `Redis script ${name} failed: ${why}`, { cause: err });
    }
  };
}
