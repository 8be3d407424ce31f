// **Shard merge**: several crawl folders (a distributed crawl's shards) read as one crawl: one record per URL, the latest.
import type { CrawlState } from '../state/open-state.ts';
import { countRefetched } from './figures.ts';
import { readRecords } from './record-store.ts';
import type { CrawlRecord } from './record.ts';

/**
 * What the merged reading leaves out of each shard. Small: it names only records and graphs that another copy
 * replaces, so it travels to query workers as it is (structured clone copies Sets).
 */
export interface MergePlan {
  /** Per shard, the seqs of records replaced by a later record of the same URL (in any shard). */
  readonly dropped: readonly ReadonlySet<number>[];
  /** Per shard, the graphs (documents) stored there whose winning copy is another shard's. */
  readonly excluded: readonly ReadonlySet<string>[];
  /** URLs with more than one record (crawl-log/figures.ts `refetched`). */
  readonly refetched: number;
}

/** Crawl folders read as one crawl: their states (in the order given) and what the merge leaves out of each. */
export interface ShardSet {
  readonly states: readonly CrawlState[];
  readonly plan: MergePlan;
}

/** A crawl to read: one state, or several shards read as one. */
export type CrawlSource = CrawlState | ShardSet;

/** The record fields the merge decides on. */
export type MergeKey = Pick<CrawlRecord, 'seq' | 'url' | 'finalUrl' | 'fetchedAt' | 'triples'>;

interface Copy {
  shard: number;
  seq: number;
  at: string;
}

/** Whether copy `a` is later than `b`: by fetch time, then by shard position, then by seq (a total order). */
export function isLater(a: Copy, b: Copy): boolean {
  if (a.at !== b.at) return a.at > b.at; // ISO 8601 UTC times of one format compare as strings
  if (a.shard !== b.shard) return a.shard > b.shard;
  return a.seq > b.seq;
}

/**
 * Decides the merge from the records of every shard, fed in any order (pure; docs/distributed.md):
 * - a URL with several records (in one shard or several) is one record, the latest by fetch time wins;
 * - a document (graph = its final URL) stored in several shards is taken from the shard of its latest storing
 *   record, so the merged dataset holds each document once, as that shard stored it.
 * Memory: one entry per URL and per stored document.
 */
export class ShardMerger {
  readonly #urls = new Map<string, Copy & { count: number }>();
  readonly #graphs = new Map<string, Copy & { holders: number[] }>();
  readonly #dropped: Set<number>[];

  constructor(shards: number) {
    this.#dropped = Array.from({ length: shards }, () => new Set<number>());
  }

  add(shard: number, r: MergeKey): void {
    const copy: Copy = { shard, seq: r.seq, at: r.fetchedAt };
    const prev = this.#urls.get(r.url);
    if (prev === undefined) this.#urls.set(r.url, { ...copy, count: 1 });
    else if (isLater(copy, prev)) {
      this.#dropped[prev.shard]?.add(prev.seq);
      this.#urls.set(r.url, { ...copy, count: prev.count + 1 });
    } else {
      this.#dropped[shard]?.add(r.seq);
      prev.count += 1;
    }
    if (r.triples <= 0) return; // stored nothing (a failure, a page without RDF, a second URL of a stored document)
    const g = this.#graphs.get(r.finalUrl);
    if (g === undefined) this.#graphs.set(r.finalUrl, { ...copy, holders: [shard] });
    else {
      if (!g.holders.includes(shard)) g.holders.push(shard);
      if (isLater(copy, g)) Object.assign(g, copy);
    }
  }

  plan(): MergePlan {
    const excluded = this.#dropped.map(() => new Set<string>());
    for (const [graph, g] of this.#graphs) {
      for (const h of g.holders) if (h !== g.shard) excluded[h]?.add(graph);
    }
    return { dropped: this.#dropped, excluded, refetched: countRefetched([...this.#urls.values()].map((u) => u.count)) };
  }
}

/** The plan of a single crawl: nothing left out. */
function singlePlan(): MergePlan {
  return { dropped: [new Set()], excluded: [new Set()], refetched: 0 };
}

/** Reads every record of every shard once and decides the merge. */
export async function planShardMerge(states: readonly CrawlState[]): Promise<MergePlan> {
  if (states.length === 1) return singlePlan();
  const merger = new ShardMerger(states.length);
  for (const [i, state] of states.entries()) {
    for await (const r of readRecords(state)) merger.add(i, r);
  }
  return merger.plan();
}

/** `source` as a shard set (one state: one shard, nothing left out). */
export function asShardSet(source: CrawlSource): ShardSet {
  return 'states' in source ? source : { states: [source], plan: singlePlan() };
}

/** A record of the merged reading, with the position (0-based) of the shard it comes from. */
export interface ShardRecord {
  shard: number;
  record: CrawlRecord;
}

/**
 * The records of the merged reading (the replaced ones left out) in fetch order: each shard's records in their own
 * order, interleaved by fetch time (a k-way merge; constant memory per shard).
 */
export async function* readMergedRecords(set: ShardSet): AsyncGenerator<ShardRecord> {
  const streams = set.states.map((s) => readRecords(s));
  const heads: Array<CrawlRecord | null> = [];
  const pull = async (i: number): Promise<CrawlRecord | null> => {
    const dropped = set.plan.dropped[i];
    for (;;) {
      const next = await streams[i]!.next();
      if (next.done) return null;
      if (!dropped?.has(next.value.seq)) return next.value;
    }
  };
  for (let i = 0; i < streams.length; i++) heads.push(await pull(i));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i];
      if (h == null) continue;
      const b = best < 0 ? null : heads[best];
      if (b == null || h.fetchedAt < b.fetchedAt) best = i;
    }
    if (best < 0) return;
    const record = heads[best] as CrawlRecord;
    heads[best] = await pull(best);
    yield { shard: best, record };
  }
}
