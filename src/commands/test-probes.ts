// **envProbes**: the crawl probes a test asks for through the environment of a CLI child process (tests only).
import { appendFileSync } from 'node:fs';
import { type CrawlProbes, NO_PROBES, type PausePoint } from '../crawl/probes.ts';

/**
 * `RDFSCOUT_TEST_PAUSE_AT=POINT[:N]`: the N-th time (default 1) the crawl reaches POINT, it writes
 * `RDFSCOUT_TEST_PAUSED POINT URL` on stderr and stops itself with SIGSTOP; the test then sends SIGKILL or SIGCONT.
 * `RDFSCOUT_TEST_GATE_LOG=FILE`: each time a request passes the send gate, one JSON line `{"url","pld","at"}` is
 * appended to FILE; the request-log tests join it to the server's log (the server's start minus `at` is the jitter
 * the gate cannot remove, README "Politeness"). Neither set (always, outside tests): no probes.
 */
export function envProbes(env: NodeJS.ProcessEnv = process.env): CrawlProbes {
  const spec = /^(before-fetch|during-fetch|before-release|after-commit)(?::(\d+))?$/.exec(env.RDFSCOUT_TEST_PAUSE_AT ?? '');
  const file = env.RDFSCOUT_TEST_GATE_LOG ?? '';
  if (spec === null && file === '') return NO_PROBES;
  let remaining = spec === null ? 0 : Number(spec[2] ?? 1);
  const armed = (point: PausePoint) => spec !== null && spec[1] === point && remaining > 0;
  return {
    armed,
    pause(point, url) {
      if (!armed(point)) return;
      remaining -= 1;
      if (remaining > 0) return;
      process.stderr.write(`RDFSCOUT_TEST_PAUSED ${point} ${url}\n`);
      process.kill(process.pid, 'SIGSTOP');
    },
    gatePassed(url, pld, at) {
      if (file !== '') appendFileSync(file, `${JSON.stringify({ url, pld, at })}\n`);
    },
  };
}
