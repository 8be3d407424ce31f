// Runs the real `rdfscout` command line (bin/rdfscout.js under this Node) and returns what it printed and its exit code.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const CLI = join(import.meta.dirname, '../../bin/rdfscout.js');

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** `rdfscout ...args` in a child process (cwd: `cwd`, default this one). */
export async function runCli(args: string[], cwd?: string): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { maxBuffer: 256 * 1024 * 1024, ...(cwd ? { cwd } : {}) });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/** `rdfscout ...args` that must succeed: rejects with the command and its stderr when the exit code is not 0. */
export async function runCliOk(args: string[], cwd?: string): Promise<CliResult> {
  const res = await runCli(args, cwd);
  if (res.code !== 0) throw new Error(`rdfscout ${args.join(' ')} exited with ${res.code}: ${res.stderr}`);
  return res;
}
