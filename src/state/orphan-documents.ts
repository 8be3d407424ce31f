// **cleanOrphanDocuments** deletes the chunks of documents whose fetch never committed.
import { docKeyRange } from './document-keys.ts';
import type { AnySublevel } from './txn.ts';

/**
 * A large document's chunks are written while it is parsed, under a pending mark (rdf/document-writer.ts); the
 * fetch's transaction removes the mark with the record. A mark found at open belongs to a fetch that never
 * committed (a crash): its chunks are an orphan set without a record, deleted here before anything reads the store.
 * The mark goes last, so a crash during the cleaning leaves it for the next open. Returns the documents cleaned.
 */
export async function cleanOrphanDocuments(docs: AnySublevel, pending: AnySublevel): Promise<number> {
  const graphs = (await pending.keys().all()) as string[];
  for (const graph of graphs) {
    await docs.clear(docKeyRange(graph));
    await pending.del(graph);
  }
  return graphs.length;
}
