// Workers of a shared crawl as child processes of the real CLI, and the merged reading of their shards (ShardMerger: the later record wins).
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { ShardMerger } from '../../src/crawl-log/shard-merge.ts';
import { openState } from '../../src/state/open-state.ts';
import type { ProbeSpec } from './probes.ts';
import { type CliProcess, runCli, startCli } from './run-cli.ts';

/** A running `rdfscout crawl …` child. */
export interface WorkerProcess extends CliProcess {
  /** Its `--out` folder when started by {@link startRedisWorker}. */
  out: string | undefined;
}

/** Starts `rdfscout crawl ...args`, with crawl probes (stop at a point, log the send gate) if given. */
export function startWorker(args: readonly string[], probes?: ProbeSpec, out?: string): WorkerProcess {
  return { ...startCli(['crawl', ...args], probes === undefined ? {} : { probes }), out };
}

/** Starts `rdfscout crawl ...args --redis URL --out OUT --quiet` (add seeds and options to `args`; none to join). */
export function startRedisWorker(redisUrl: string, out: string, args: readonly string[] = [], probes?: ProbeSpec): WorkerProcess {
  return startWorker([...args, '--redis', redisUrl, '--out', out, '--quiet'], probes, out);
}

/** Waits for every worker (each within `ms`); fails with its output if one did not exit with code 0. */
export async function allExitZero(workers: readonly WorkerProcess[], ms = 120_000): Promise<void> {
  const codes = await Promise.all(workers.map((w, i) => w.ended(`worker ${i} (${w.out}) to exit`, ms)));
  codes.forEach((code, i) => {
    const w = workers[i] as WorkerProcess;
    if (code !== 0) throw new Error(`worker ${i} (${w.out}) ended with ${code ?? w.child.signalCode}:\n${w.stderr().slice(-3000)}`);
  });
}

/** A record and the shard folder it was read from. */
export interface ShardedRecord {
  dir: string;
  record: CrawlRecord;
}

/** Every (non-void) record of each shard, with the shard it came from. */
export async function shardRecords(dirs: readonly string[]): Promise<ShardedRecord[]> {
  const out: ShardedRecord[] = [];
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

/** The merged reading of several shards, as the read commands see it. */
export interface MergedCrawl {
  /** One record per URL: the one `ShardMerger` keeps (the later `fetchedAt` wins). */
  byUrl: Map<string, ShardedRecord>;
  /** Every record of every shard. */
  records: ShardedRecord[];
  /** URLs with more than one record across the shards. */
  repeated: string[];
  /** Records per shard, in the order of the shards. */
  perShard: number[];
}

/**
 * Merges records with `ShardMerger` (src/crawl-log/shard-merge.ts), the merge every read command uses. `dirs`: the
 * shards in order (default: as they first appear in `all`).
 */
export function mergeRecords(all: readonly ShardedRecord[], dirs: readonly string[] = [...new Set(all.map((r) => r.dir))]): MergedCrawl {
  const merger = new ShardMerger(dirs.length);
  const count = new Map<string, number>();
  for (const r of all) {
    merger.add(dirs.indexOf(r.dir), r.record);
    count.set(r.record.url, (count.get(r.record.url) ?? 0) + 1);
  }
  const { dropped } = merger.plan();
  const byUrl = new Map<string, ShardedRecord>();
  for (const r of all) if (!dropped[dirs.indexOf(r.dir)]?.has(r.record.seq)) byUrl.set(r.record.url, r);
  return {
    byUrl,
    records: [...all],
    repeated: [...count].filter(([, n]) => n > 1).map(([u]) => u),
    perShard: dirs.map((d) => all.filter((r) => r.dir === d).length),
  };
}

/** Reads every shard and merges them. */
export async function mergeShards(dirs: readonly string[]): Promise<MergedCrawl> {
  return mergeRecords(await shardRecords(dirs), dirs);
}

/** N-Quads lines of a store by graph (blank node labels made uniform: two stores label them differently). */
async function quadsByGraph(dir: string): Promise<Map<string, string[]>> {
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
export async function mergedQuads(merged: MergedCrawl): Promise<string[]> {
  const stores = new Map<string, Map<string, string[]>>();
  const lines: string[] = [];
  const graphs = new Set<string>();
  for (const { dir, record } of merged.byUrl.values()) {
    if (record.triples === 0 || graphs.has(record.finalUrl)) continue;
    graphs.add(record.finalUrl);
    if (!stores.has(dir)) stores.set(dir, await quadsByGraph(dir));
    lines.push(...(stores.get(dir)?.get(record.finalUrl) ?? []));
  }
  return lines.sort();
}
