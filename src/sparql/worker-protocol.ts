// **Worker protocol**: the messages between the main thread (query-engine.ts) and a query worker (query-worker.ts).
import type { MergePlan } from '../crawl-log/shard-merge.ts';
import type { Batch, EvaluateOptions, Evaluation } from './evaluate.ts';
import type { WireError } from './query-errors.ts';
import type { WireQuad, WireRow } from './term-codec.ts';

/**
 * Main → worker. One query at a time: `run`, then `pull` until a batch says `done` (or an error), or `close`.
 * The worker answers each `pull` with exactly one batch: results flow only as fast as the main thread asks.
 * `dirs` are the crawl folders (several: shards read as one crawl, with the merge `plan`).
 */
export type ToWorker =
  | { t: 'run'; dirs: string[]; plan: MergePlan; sparql: string; options: EvaluateOptions }
  | { t: 'pull'; max: number }
  | { t: 'close' };

/** Worker → main. `ready` once, when the engine is loaded; then per query: `head`, `batch`es, `error` or `closed`. */
export type FromWorker =
  | { t: 'ready' }
  | { t: 'head'; head: Evaluation['head'] }
  | ({ t: 'batch' } & Batch<WireRow | WireQuad>)
  | { t: 'error'; error: WireError }
  | { t: 'closed' };
