// **cliCrawl** runs `rdfscout crawl …` as a child process, as a user would, and reports its exit, JSON summary, CPU time and peak RSS.
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'bin/rdfscout.js');
const PRELOAD = join(import.meta.dirname, 'cpu-on-exit.ts');

/** What one CLI crawl process did. */
export interface CliCrawl {
  code: number | null;
  /** The `--json` summary it printed (`fetched`, `rdfDocuments`, …), if any. */
  summary: Record<string, unknown> | null;
  stderr: string;
  /** User + system CPU of the process, ms (its start-up included). */
  cpuMs: number;
  maxRssMb: number;
  /** From spawn to exit, ms. */
  wallMs: number;
}

/**
 * Spawns `rdfscout crawl ...args --json --quiet` and resolves when it exits (never rejects on a crawl failure).
 * `root`: the checkout whose `bin/rdfscout.js` runs (default: this one; e.g. an older commit to compare against).
 */
export async function cliCrawl(args: readonly string[], cpuFile: string, root = ROOT): Promise<CliCrawl> {
  const t0 = performance.now();
  const nodeOptions = `${process.env.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim();
  const child = spawn(process.execPath, [root === ROOT ? CLI : join(root, 'bin/rdfscout.js'), 'crawl', ...args, '--json', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: nodeOptions, RDFSCOUT_CPU_FILE: cpuFile },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  const wallMs = performance.now() - t0;
  const line = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  let cpu = { cpuMs: Number.NaN, maxRssMb: Number.NaN };
  try {
    cpu = JSON.parse(await readFile(cpuFile, 'utf8')) as typeof cpu;
    await rm(cpuFile, { force: true });
  } catch {
    // no file: the process died before its exit handler
  }
  return { code, summary: line ? (JSON.parse(line) as Record<string, unknown>) : null, stderr, wallMs, ...cpu };
}
