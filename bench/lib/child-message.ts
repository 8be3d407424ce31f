// **askChild** sends a message to a forked benchmark process (the simulated web, a contestant) and waits for its answer.
import type { ChildProcess } from 'node:child_process';

/**
 * Resolves with the first message of `type` from `child`; sends `{ type }` first unless `send` is false (e.g. the
 * `ready` message a child sends on its own). Rejects if the child exits before answering.
 */
export function askChild<T>(child: ChildProcess, type: string, send = true): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`child exited (${code}) before "${type}"`));
    const onMsg = (m: { type?: string }) => {
      if (m.type !== type) return;
      child.off('message', onMsg);
      child.off('exit', onExit);
      resolve(m as T);
    };
    child.on('message', onMsg);
    child.once('exit', onExit);
    if (send) child.send({ type });
  });
}

/** CPU time of the simulated web's process (`simweb-process.ts` answers `cpu`), ms. */
export async function webCpuMs(web: ChildProcess): Promise<number> {
  const r = await askChild<{ user: number; system: number }>(web, 'cpu');
  return (r.user + r.system) / 1000;
}
