// **until / within / exitOf**: the one way tests wait — every wait has a deadline, and a wait that times out names what it waited for.
import type { ChildProcess } from 'node:child_process';

/** How long a test waits for something by default (ms): well under the system tier's test timeout. */
const WAIT_MS = 30_000;

/** The error of a wait that timed out: "waited 30 s for <what>" (and what was last seen, when known). */
export class WaitTimeout extends Error {
  constructor(what: string, ms: number, seen?: string) {
    super(`waited ${formatSeconds(ms)} s for ${what}${seen === undefined ? '' : ` (last seen: ${seen})`}`);
    this.name = 'WaitTimeout';
  }
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/**
 * Resolves once `check()` is true (asked every `everyMs`); rejects with {@link WaitTimeout} naming `what` after `ms`.
 * `seen` (optional) says what was last seen, for the message. A check that throws fails the wait at once.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = WAIT_MS, o: { everyMs?: number; seen?: () => string } = {}): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new WaitTimeout(what, ms, o.seen?.());
    await new Promise((r) => setTimeout(r, o.everyMs ?? 100));
  }
}

/** `promise`, or a {@link WaitTimeout} naming `what` if it has not settled after `ms` (the promise goes on). */
export async function within<T>(what: string, promise: Promise<T>, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WaitTimeout(what, ms)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The exit code of `child` (null: ended by a signal), at once if it has ended; a {@link WaitTimeout} after `ms`. */
export function exitOf(child: ChildProcess, what = `process ${child.pid} to exit`, ms = WAIT_MS): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return within(what, new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))), ms);
}
