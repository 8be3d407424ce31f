// **testPause**: a test-only hook that stops the worker process at a named point of a fetch, so that tests can kill or freeze it there.

/** The points a worker can be stopped at (issue 15's fault tests; `after-commit`: a fetch committed, its WARC records not yet queued). */
export type PausePoint = 'before-fetch' | 'during-fetch' | 'before-release' | 'after-commit';

/**
 * `RDFSCOUT_TEST_PAUSE_AT=POINT[:N]` (tests only): the N-th time (default 1) this process reaches POINT, it writes
 * `RDFSCOUT_TEST_PAUSED POINT URL` on stderr and stops itself with SIGSTOP; the test then sends SIGKILL or SIGCONT.
 * Unset (always, outside tests): nothing happens.
 */
const spec = /^(before-fetch|during-fetch|before-release|after-commit)(?::(\d+))?$/.exec(process.env.RDFSCOUT_TEST_PAUSE_AT ?? '');
let remaining = spec === null ? 0 : Number(spec[2] ?? 1);

/** Whether the next `testPause(point)` may stop the process (lets a caller arm it only when it matters). */
export function pauseArmed(point: PausePoint): boolean {
  return spec !== null && spec[1] === point && remaining > 0;
}

/** Stops the process here if the test asked for it (see above). */
export function testPause(point: PausePoint, url: string): void {
  if (!pauseArmed(point)) return;
  remaining -= 1;
  if (remaining > 0) return;
  process.stderr.write(`RDFSCOUT_TEST_PAUSED ${point} ${url}\n`);
  process.kill(process.pid, 'SIGSTOP');
}
