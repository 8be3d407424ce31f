// Runs the real `rdfscout` command line (bin/rdfscout.js under this Node) and returns what it printed and its exit code.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { WaitTimeout } from './until.ts';

const run = promisify(execFile);
export const CLI = join(import.meta.dirname, '../../bin/rdfscout.js');

/**
 * How long one command may run before it is killed and the test fails naming it (ms). A crawl in a test is small;
 * a longer one passes `ms`.
 */
const CLI_DEADLINE_MS = 120_000;

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * `rdfscout ...args` in a child process (cwd: `cwd`, default this one). A command still running after `ms` is
 * killed (SIGKILL) and rejects with a WaitTimeout naming it and what it printed last.
 */
export async function runCli(args: string[], cwd?: string, ms = CLI_DEADLINE_MS): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { maxBuffer: 256 * 1024 * 1024, timeout: ms, killSignal: 'SIGKILL', ...(cwd ? { cwd } : {}) });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number | null; killed?: boolean; signal?: string | null };
    if (e.killed === true && e.signal === 'SIGKILL') throw new WaitTimeout(`rdfscout ${args.join(' ')} to exit`, ms, e.stderr.slice(-2000));
    return { stdout: e.stdout, stderr: e.stderr, code: e.code ?? -1 };
  }
}

/** `rdfscout ...args` that must succeed: rejects with the command and its stderr when the exit code is not 0. */
export async function runCliOk(args: string[], cwd?: string, ms = CLI_DEADLINE_MS): Promise<CliResult> {
  const res = await runCli(args, cwd, ms);
  if (res.code !== 0) throw new Error(`rdfscout ${args.join(' ')} exited with ${res.code}: ${res.stderr}`);
  return res;
}
