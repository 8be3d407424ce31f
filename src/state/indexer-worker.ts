// **Indexer worker** (worker thread entry): the crawl state's Indexer on its own thread, driven by indexer-thread.ts.
import { parentPort, workerData } from 'node:worker_threads';
import type { FromIndexer, ToIndexer } from './indexer-thread.ts';
import { openIndexingHandle } from './open-state.ts';

const port = parentPort;
if (port === null) throw new Error('indexer-worker.ts runs as a worker thread (see indexer-thread.ts).');

const handle = await openIndexingHandle((workerData as { dir: string }).dir);
const { indexer } = handle;

function answer(id: number, error?: unknown): void {
  const msg: FromIndexer = { t: 'done', id, indexedQuads: indexer.indexedQuads, indexedFromMemory: indexer.indexedFromMemory, recentDocuments: indexer.recentDocuments };
  if (error !== undefined) msg.error = { message: (error as Error).message };
  port?.postMessage(msg);
}

port.on('message', (msg: ToIndexer) => {
  if (msg.t === 'offer') indexer.offer(msg.graph, msg.values);
  else if (msg.t === 'notify') indexer.notify();
  else if (msg.t === 'flush') {
    indexer.flush().then(
      () => answer(msg.id),
      (err: unknown) => answer(msg.id, err),
    );
  } else {
    // What cannot be indexed now stays marked for the next open, as on one thread (open-state.ts).
    indexer
      .close()
      .catch(() => {})
      .then(() => handle.quadstore.close())
      .then(
        () => answer(msg.id),
        (err: unknown) => answer(msg.id, err),
      );
  }
});
port.postMessage({ t: 'ready' } satisfies FromIndexer);
