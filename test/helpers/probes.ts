// **probesFrom**: the crawl probes a test gives a CLI child (through cli-with-probes.ts): stop at a point, log the send gate.
import { appendFileSync } from 'node:fs';
import { type CrawlProbes, NO_PROBES, type PausePoint } from '../../src/crawl/probes.ts';

/** What a test asks of a crawl child; JSON, as it crosses the process boundary. */
export interface ProbeSpec {
  /**
   * `POINT[:N]`: the N-th time (default 1) the crawl reaches POINT it writes `RDFSCOUT_TEST_PAUSED POINT URL` on stderr
   * and stops itself with SIGSTOP; the test then sends SIGKILL or SIGCONT.
   */
  pauseAt?: string;
  /**
   * Each time a request passes the send gate, one JSON line `{"url","pld","at"}` is appended to this file; the
   * request-log tests join it to the server's log (the server's start minus `at` is the jitter the gate cannot remove).
   */
  gateLog?: string;
}

/** The probes a spec asks for (none: {@link NO_PROBES}); a pause point the crawl does not know is an error. */
export function probesFrom(spec: ProbeSpec): CrawlProbes {
  const pause = spec.pauseAt === undefined ? null : /^(before-fetch|during-fetch|before-release|after-commit)(?::(\d+))?$/.exec(spec.pauseAt);
  if (pause === null && spec.pauseAt !== undefined) throw new Error(`unknown pause point ${spec.pauseAt}`);
  const file = spec.gateLog;
  if (pause === null && file === undefined) return NO_PROBES;
  let remaining = pause === null ? 0 : Number(pause[2] ?? 1);
  const armed = (point: PausePoint) => pause !== null && pause[1] === point && remaining > 0;
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
      if (file !== undefined) appendFileSync(file, `${JSON.stringify({ url, pld, at })}\n`);
    },
  };
}
