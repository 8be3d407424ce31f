// Runs the real `rdfscout` command line as a child process: to its end (`runCli`) or left running (`startCli`). The only
// place a test starts the CLI (test/architecture/test-helpers.test.ts keeps it so).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, onTestFinished } from 'vitest';
import { CLI_ENV, CLI_NODE_FLAGS } from '../../src/node-flags.ts';
import type { ProbeSpec } from './probes.ts';
import { WaitTimeout, within } from './until.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../bin/rdfscout.js');
/** The CLI's main with crawl probes (cli-with-probes.ts): started with the flags and environment bin/rdfscout.js sets. */
const CLI_WITH_PROBES = join(import.meta.dirname, 'cli-with-probes.ts');

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

/** How a CLI child is started. */
export interface CliStart {
  /** Working folder (default this process's). */
  cwd?: string;
  /** Variables added to this process's environment. */
  env?: Record<string, string>;
  /** Crawl probes (stop at a point, log the send gate's passes): the child runs the CLI's main through cli-with-probes.ts. */
  probes?: ProbeSpec;
  /** `runCli`: how long the command may run before it is killed (SIGKILL) and the call rejects naming it. */
  ms?: number;
}

function command(args: readonly string[], probes: ProbeSpec | undefined): string[] {
  return probes === undefined ? [CLI, ...args] : [...CLI_NODE_FLAGS, CLI_WITH_PROBES, JSON.stringify(probes), ...args];
}

function environment(start: CliStart): NodeJS.ProcessEnv {
  return { ...(start.probes === undefined ? {} : CLI_ENV), ...process.env, ...start.env };
}

/**
 * `rdfscout ...args` in a child process, to its end. A command still running after `start.ms` (default 120 s) is
 * killed (SIGKILL) and rejects with a WaitTimeout naming it and what it printed last.
 */
export async function runCli(args: readonly string[], start: CliStart = {}): Promise<CliResult> {
  const ms = start.ms ?? CLI_DEADLINE_MS;
  try {
    const opts = { maxBuffer: 256 * 1024 * 1024, env: environment(start), timeout: ms, killSignal: 'SIGKILL' as const, ...(start.cwd ? { cwd: start.cwd } : {}) };
    const { stdout, stderr } = await run(process.execPath, command(args, start.probes), opts);
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number | null; killed?: boolean; signal?: string | null };
    if (e.killed === true && e.signal === 'SIGKILL') throw new WaitTimeout(`rdfscout ${args.join(' ')} to exit`, ms, e.stderr.slice(-2000));
    return { stdout: e.stdout, stderr: e.stderr, code: e.code ?? -1 };
  }
}

/** `rdfscout ...args` that must succeed: rejects with the command and its stderr when the exit code is not 0. */
export async function runCliOk(args: readonly string[], start: CliStart = {}): Promise<CliResult> {
  const res = await runCli(args, start);
  if (res.code !== 0) throw new Error(`rdfscout ${args.join(' ')} exited with ${res.code}: ${res.stderr}`);
  return res;
}

/**
 * `rdfscout ...args | PIPE` through bash, PIPE reading the CLI's stdout (e.g. `head -c 100`, which closes it early): the
 * CLI's exit code and its stderr.
 */
export async function runCliPiped(args: readonly string[], pipe: string): Promise<{ code: number; stderr: string }> {
  const { stdout, stderr } = await run('bash', ['-c', `"$@" | ${pipe} >/dev/null; echo "\${PIPESTATUS[0]}"`, 'bash', process.execPath, CLI, ...args]);
  return { code: Number(stdout.trim()), stderr };
}

/** A running `rdfscout …` child. */
export interface CliProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal); never rejects. */
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** Whether the process is still running. */
  running(): boolean;
  /** Sends a signal (SIGKILL, SIGSTOP, SIGCONT, SIGINT, SIGTERM) unless the process has ended. */
  signal(sig: NodeJS.Signals): void;
  /** Waits until stderr (or `stream`) matches `re`; rejects, naming `re` and the output so far, if the process ends first or after `timeoutMs`. */
  waitFor(re: RegExp, opts?: { stream?: 'stdout' | 'stderr'; timeoutMs?: number }): Promise<RegExpExecArray>;
  /** The exit code once it ends; after `ms` it is killed and a {@link WaitTimeout} names `what` (and what it printed last). */
  ended(what?: string, ms?: number): Promise<number | null>;
}

/**
 * Starts `rdfscout ...args` and leaves it running, its output collected. Started inside a test, it is killed (SIGKILL)
 * when the test finishes if it still runs then.
 */
export function startCli(args: readonly string[], start: CliStart = {}): CliProcess {
  const child = spawn(process.execPath, command(args, start.probes), { env: environment(start), stdio: ['ignore', 'pipe', 'pipe'], ...(start.cwd ? { cwd: start.cwd } : {}) });
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (c: Buffer) => {
    out.stdout += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    out.stderr += c.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
    child.once('error', (err) => {
      out.stderr += `\n${String(err)}`;
      resolve(null);
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const signal = (sig: NodeJS.Signals) => {
    if (running()) child.kill(sig);
  };
  if (expect.getState().currentTestName !== undefined) onTestFinished(() => signal('SIGKILL'));
  return {
    child,
    exited,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    running,
    signal,
    async waitFor(re, { stream = 'stderr', timeoutMs = 60_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = re.exec(out[stream]);
        if (m !== null) return m;
        if (child.exitCode !== null || child.signalCode === 'SIGKILL') throw new Error(`rdfscout ${args[0]} exited (${child.exitCode ?? child.signalCode}) before its ${stream} matched ${re}: ${out.stderr}`);
        if (Date.now() > deadline) throw new WaitTimeout(`rdfscout ${args[0]}'s ${stream} to match ${re}`, timeoutMs, out.stderr.slice(-2000));
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async ended(what = `rdfscout ${args[0]} (pid ${child.pid}) to exit`, ms = CLI_DEADLINE_MS) {
      try {
        return await within(what, exited, ms);
      } catch {
        signal('SIGKILL'); // a hung process must not outlive its test
        throw new WaitTimeout(what, ms, out.stderr.slice(-2000));
      }
    },
  };
}
