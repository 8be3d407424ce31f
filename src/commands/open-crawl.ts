// **openCrawlForReading**: how read commands open a crawl folder: never creating one, and while a crawl runs too.
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RdfscoutError } from '../errors.ts';
import { type CrawlState, openState } from '../state/open-state.ts';
import { snapshotLevelDb } from '../state/snapshot.ts';

/** A crawl opened for reading; `snapshot` is the time of the copy read when a crawl held the store. */
export interface ReadableCrawl {
  state: CrawlState;
  snapshot: Date | null;
  close(): Promise<void>;
}

/** Fails with RDFSCOUT_NO_CRAWL unless `dir` holds a crawl store (its LevelDB's CURRENT file); creates nothing. */
export async function assertCrawlFolder(dir: string): Promise<void> {
  try {
    await access(join(dir, 'db', 'CURRENT'));
  } catch {
    throw new RdfscoutError('RDFSCOUT_NO_CRAWL', `no crawl in ${dir} (give the --out folder of a crawl)`);
  }
}

/**
 * Opens the crawl in `dir` for a read command (issue 16 items 11, 12). A folder without a crawl is refused and left
 * as it was. When a running crawl holds the store (LevelDB admits one process), a snapshot is read instead: a copy
 * of the store as it was at that instant (`snapshotLevelDb`), removed again by `close()`; `note` is told so.
 */
export async function openCrawlForReading(dir: string, note: (text: string) => void = (t) => process.stderr.write(`${t}\n`)): Promise<ReadableCrawl> {
  await assertCrawlFolder(dir);
  try {
    const state = await openState(dir);
    return { state, snapshot: null, close: () => state.close() };
  } catch (err) {
    if (!(err instanceof RdfscoutError) || err.code !== 'RDFSCOUT_STORE_LOCKED') throw err;
  }
  const copy = await mkdtemp(join(tmpdir(), 'rdfscout-snapshot-'));
  try {
    await snapshotLevelDb(join(dir, 'db'), join(copy, 'db'));
    const state = await openState(copy);
    const taken = new Date();
    note(`(a crawl is running in ${dir}: reading a snapshot of it taken at ${taken.toISOString()})`);
    return {
      state,
      snapshot: taken,
      close: async () => {
        try {
          await state.close();
        } finally {
          await rm(copy, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    await rm(copy, { recursive: true, force: true });
    throw err;
  }
}

/** Runs `fn` over the crawl in `dir` opened for reading, and closes it (and its snapshot) after. */
export async function withCrawl<T>(dir: string, fn: (state: CrawlState) => Promise<T>): Promise<T> {
  const crawl = await openCrawlForReading(dir);
  try {
    return await fn(crawl.state);
  } finally {
    await crawl.close();
  }
}
