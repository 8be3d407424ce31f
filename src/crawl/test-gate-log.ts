// **testGateLog**: a test-only record of every politeness-gate pass, so that tests can measure the jitter between a gate and the server.
import { appendFileSync } from 'node:fs';

/**
 * `RDFSCOUT_TEST_GATE_LOG=FILE` (tests only): each time a request passes the send gate, one JSON line
 * `{"url","pld","at"}` is appended to FILE (`at`: the gate's time, epoch ms — Redis's clock for a worker of a shared
 * crawl). The request-log tests join it to the server's log: the server's start minus `at` is the jitter the gate
 * cannot remove (README "Politeness"). Unset (always, outside tests): nothing happens.
 */
const file = process.env.RDFSCOUT_TEST_GATE_LOG ?? '';

/** Records a gate pass if the test asked for it (see above). */
export function logGatePass(url: string, pld: string, at: number): void {
  if (file !== '') appendFileSync(file, `${JSON.stringify({ url, pld, at })}\n`);
}
