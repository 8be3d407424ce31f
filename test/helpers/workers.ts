// Workers of a shared crawl as child processes of the real CLI, and the merged reading of their shards (later record wins).
import { type ChildProcess, spawn } from 'node:child_process';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { openState } from '../../src/state/open-state.ts';
import { CLI, runCli } from './run-cli.ts';

/** A running `rdfscout crawl --redis …` child. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** Waits until stderr matches `re` (or the process exits first: rejects). */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/** Starts `rdfscout crawl ...args` with extra environment variables (e.g. RDFSCOUT_TEST_PAUSE_AT). */
export function startWorker(args: string[], env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, [CLI, 'crawl', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    stdout: () => out,
    stderr: () => err,
    async waitFor(re, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = re.exec(err);
        if (m !== null) return m;
        if (child.exitCode !== null || child.signalCode === 'SIGKILL') throw new Error(`worker exited (${child.exitCode}) before ${re}: ${err}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${re}: ${err}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

/** Every (non-void) record of each shard, with the shard it came from. */
export async function shardRecords(dirs: readonly string[]): Promise<Array<{ dir: string; record: CrawlRecord }>> {
  const out: Array<{ dir: string; record: CrawlRecord }> = [];
  for (const dir of dirs) {
    const state = await openState(dir, { index: false });
    try {
      for await (const record of readRecords(state)) out.push({ dir, record });
    } finally {
      await state.close();
    }
  }
  return out;
}

/** The merged reading: one record per URL, the one fetched last (`fetchedAt`) winning. */
export function mergeRecords(all: ReadonlyArray<{ dir: string; record: CrawlRecord }>): Map<string, { dir: string; record: CrawlRecord }> {
  const merged = new Map<string, { dir: string; record: CrawlRecord }>();
  for (const r of all) {
    const had = merged.get(r.record.url);
    if (had === undefined || had.record.fetchedAt <= r.record.fetchedAt) merged.set(r.record.url, r);
  }
  return merged;
}

/** N-Quads lines of a store by graph (blank node labels made uniform: two stores label them differently). */
export async function quadsByGraph(dir: string): Promise<Map<string, string[]>> {
  const r = await runCli(['export', dir]);
  if (r.code !== 0) throw new Error(`export ${dir} failed: ${r.stderr}`);
  const byGraph = new Map<string, string[]>();
  for (const line of r.stdout.split('\n')) {
    const m = /<([^>]*)> \.$/.exec(line);
    if (m === null) continue;
    const list = byGraph.get(m[1] as string) ?? [];
    list.push(line.replace(/_:\S+/g, '_:b'));
    byGraph.set(m[1] as string, list);
  }
  return byGraph;
}

/** The quads of the merged reading: each document's graph from the shard whose record of it wins, sorted. */
export async function mergedQuads(merged: Map<string, { dir: string; record: CrawlRecord }>): Promise<string[]> {
  const stores = new Map<string, Map<string, string[]>>();
  const lines: string[] = [];
  const graphs = new Set<string>();
  for (const { dir, record } of merged.values()) {
    if (record.triples === 0 || graphs.has(record.finalUrl)) continue;
    graphs.add(record.finalUrl);
    if (!stores.has(dir)) stores.set(dir, await quadsByGraph(dir));
    lines.push(...(stores.get(dir)?.get(record.finalUrl) ?? []));
  }
  return lines.sort();
}
