// Crawl workers of the Redis mode as real CLI child processes (`rdfscout crawl … --redis URL --out DIR`), and the merged reading of their shards.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { CLI } from './run-cli.ts';

const run = promisify(execFile);

/** How a worker ended. */
export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running worker. */
export interface Worker {
  child: ChildProcess;
  pid: number;
  out: string;
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<WorkerExit>;
  /** Whether the process is still running. */
  running(): boolean;
  /** Sends a signal by PID (SIGKILL, SIGSTOP, SIGCONT, SIGTERM). */
  signal(sig: NodeJS.Signals): void;
}

/** Starts `rdfscout crawl ...args --redis URL --out OUT` (add seeds and options to `args`; none to join). */
export function startWorker(redisUrl: string, out: string, args: readonly string[] = []): Worker {
  const child = spawn(process.execPath, [CLI, 'crawl', ...args, '--redis', redisUrl, '--out', out, '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const exited = new Promise<WorkerExit>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.once('error', (err) => resolve({ code: null, signal: null, stdout, stderr: `${stderr}\n${String(err)}` }));
  });
  return {
    child,
    pid: child.pid ?? -1,
    out,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    signal: (sig) => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, sig);
    },
  };
}

/** Waits for every worker; fails with their output if one did not exit with code 0. */
export async function allExitZero(workers: readonly Worker[]): Promise<WorkerExit[]> {
  const exits = await Promise.all(workers.map((w) => w.exited));
  exits.forEach((e, i) => {
    if (e.code !== 0) throw new Error(`worker ${i} (${workers[i]?.out}) ended with ${e.code ?? e.signal}:\n${e.stderr.slice(-3000)}`);
  });
  return exits;
}

/** A crawl record as `rdfscout docs DIR` prints it (the fields these tests read). */
export interface ShardRecord {
  url: string;
  status?: number;
  triples?: number;
  fetchedAt: string;
}

/** The records (`docs`) and quads (`export`, one N-Quads line each) of one worker's shard, through the CLI. */
export async function readShard(dir: string): Promise<{ records: ShardRecord[]; quads: string[] }> {
  const opts = { maxBuffer: 256 << 20 };
  const docs = await run(process.execPath, [CLI, 'docs', dir], opts);
  const nq = await run(process.execPath, [CLI, 'export', dir], opts);
  const records = docs.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as ShardRecord);
  const quads = nq.stdout.split('\n').filter((l) => l.trim() !== '');
  return { records, quads };
}

/** The merged reading of several shards: every record, the URLs fetched more than once, the union of the quads. */
export interface MergedCrawl {
  /** One record per URL (the later `fetchedAt` wins, as in the README's guarantee). */
  byUrl: Map<string, ShardRecord>;
  /** Every record of every shard. */
  records: ShardRecord[];
  /** URLs with more than one record across the shards. */
  repeated: string[];
  /** Distinct quads, sorted. */
  quads: string[];
  /** Records per shard, in the order given. */
  perShard: number[];
}

/** Reads every shard and merges them. */
export async function mergeShards(dirs: readonly string[]): Promise<MergedCrawl> {
  const shards = await Promise.all(dirs.map((d) => readShard(d)));
  const byUrl = new Map<string, ShardRecord>();
  const count = new Map<string, number>();
  const quads = new Set<string>();
  for (const s of shards) {
    for (const r of s.records) {
      count.set(r.url, (count.get(r.url) ?? 0) + 1);
      const prev = byUrl.get(r.url);
      if (!prev || prev.fetchedAt < r.fetchedAt) byUrl.set(r.url, r);
    }
    for (const q of s.quads) quads.add(q);
  }
  return {
    byUrl,
    records: shards.flatMap((s) => s.records),
    repeated: [...count].filter(([, n]) => n > 1).map(([u]) => u),
    quads: [...quads].sort(),
    perShard: shards.map((s) => s.records.length),
  };
}

/** Resolves once `check()` is true (polled every `everyMs`, after `refresh()` if given), or rejects after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean, timeoutMs = 60_000, everyMs = 20, refresh?: () => Promise<void>): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await refresh?.();
    if (check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
