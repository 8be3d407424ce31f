// **Sink marks**: the documents still to send to the `--sink` store, in the `to-sink` sublevel (key = graph IRI).
import type { CrawlState } from '../state/open-state.ts';
import { type Txn, levelTxn } from '../state/txn.ts';

/** Stages the mark of a stored document in the fetch's own transaction: it is sent to the sink once committed. */
export function stageSinkMark(state: CrawlState, txn: Txn, graph: string): void {
  levelTxn(txn).put(state.sub['to-sink'], graph, 1);
}

/** Up to `limit` marked graphs after `after` (all of them from the start when undefined), in key order. */
export async function readSinkMarks(state: CrawlState, after: string | undefined, limit: number): Promise<string[]> {
  return (await state.sub['to-sink'].keys(after === undefined ? { limit } : { gt: after, limit }).all()) as string[];
}

/** Whether `graph` is still marked (a page of marks read earlier may name one acknowledged since). */
export async function hasSinkMark(state: CrawlState, graph: string): Promise<boolean> {
  return (await state.sub['to-sink'].get(graph)) !== undefined;
}

/** Removes the mark of a document the sink has acknowledged. */
export async function deleteSinkMark(state: CrawlState, graph: string): Promise<void> {
  await state.sub['to-sink'].del(graph);
}

/** How many documents are still marked (O(marks); for the summary). */
export async function countSinkMarks(state: CrawlState): Promise<number> {
  let n = 0;
  for await (const _ of state.sub['to-sink'].keys()) n++;
  return n;
}
