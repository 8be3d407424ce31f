// **VoID facts**: the VoID access points (void:dataDump, void:sparqlEndpoint) documents announced, in the crawl store.
import type { CrawlState } from '../state/open-state.ts';
import { type Txn, levelTxn } from '../state/txn.ts';

/** One access point and the document that named it. */
export interface VoidPoint {
  url: string;
  foundIn: string;
}

const DUMP = 'void!dump!';
const ENDPOINT = 'void!endpoint!';

/** Stages the dumps and endpoints a document (`foundIn`) announces; each URL is kept once (the latest finder). */
export function stageVoidPoints(state: CrawlState, txn: Txn, points: { dumps: readonly string[]; endpoints: readonly string[] }, foundIn: string): void {
  for (const url of points.dumps) levelTxn(txn).put(state.sub.meta, `${DUMP}${url}`, { url, foundIn } satisfies VoidPoint);
  for (const url of points.endpoints) levelTxn(txn).put(state.sub.meta, `${ENDPOINT}${url}`, { url, foundIn } satisfies VoidPoint);
}

/** Every access point the crawl met, by kind, in URL order. */
export async function readVoidPoints(state: CrawlState): Promise<{ dumps: VoidPoint[]; endpoints: VoidPoint[] }> {
  const out: { dumps: VoidPoint[]; endpoints: VoidPoint[] } = { dumps: [], endpoints: [] };
  for await (const [key, value] of state.sub.meta.iterator({ gte: 'void!', lt: 'void!~' })) {
    (String(key).startsWith(DUMP) ? out.dumps : out.endpoints).push(value as VoidPoint);
  }
  return out;
}
