// **openCrawlForReading**: how read commands open a crawl folder: never creating one, and while a crawl runs too.
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planShardMerge, type ShardSet } from '../crawl-log/shard-merge.ts';
import { ArgumentError, RdfscoutError } from '../errors.ts';
import { describeHolder, readHolderNote } from '../state/holder-note.ts';
import { type CrawlState, openState } from '../state/open-state.ts';
import { snapshotLevelDb } from '../state/snapshot.ts';

/** A crawl opened for reading; `snapshot` is the time of the copy read when a crawl held the store. */
interface ReadableCrawl {
  state: CrawlState;
  snapshot: Date | null;
  close(): Promise<void>;
}

/** Fails with RDFSCOUT_NO_CRAWL unless `dir` holds a crawl store (its LevelDB's CURRENT file); creates nothing. */
async function assertCrawlFolder(dir: string): Promise<void> {
  try {
    await access(join(dir, 'db', 'CURRENT'));
  } catch {
    throw new RdfscoutError('RDFSCOUT_NO_CRAWL', `no crawl in ${dir} (give the --out folder of a crawl)`);
  }
}

/**
 * Opens the crawl in `dir` for a read command (12). A folder without a crawl is refused and left
 * as it was. When a running crawl holds the store (LevelDB admits one process), a snapshot is read instead: a copy
 * of the store as it was at that instant (`snapshotLevelDb`), removed again by `close()`; `note` is told so.
 */
async function openCrawlForReading(dir: string, note: (text: string) => void = (t) => process.stderr.write(`${t}\n`)): Promise<ReadableCrawl> {
  await assertCrawlFolder(dir);
  try {
    const state = await openState(dir);
    return { state, snapshot: null, close: () => state.close() };
  } catch (err) {
    if (!(err instanceof RdfscoutError) || err.code !== 'RDFSCOUT_STORE_LOCKED') throw err;
  }
  const holder = describeHolder(await readHolderNote(dir));
  const copy = await mkdtemp(join(tmpdir(), 'rdfscout-snapshot-'));
  try {
    await snapshotLevelDb(join(dir, 'db'), join(copy, 'db'));
    const state = await openState(copy);
    const taken = new Date();
    note(`(${holder} holds ${dir}: reading a snapshot of it taken at ${taken.toISOString()})`);
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

/** Several crawl folders opened for reading as one crawl; `close()` closes them all. */
export interface ReadableShards {
  readonly set: ShardSet;
  readonly dirs: readonly string[];
  close(): Promise<void>;
}

/**
 * Opens crawl folders for reading as one crawl: every folder is checked first (`no crawl in DIR` names the first
 * that holds none, and nothing is opened), each is opened as {@link openCrawlForReading} does (a snapshot while a
 * crawl writes to it), and the merge is planned (shard-merge.ts). One folder reads exactly as before.
 */
export async function openShardsForReading(dirs: readonly string[]): Promise<ReadableShards> {
  const seen = new Set<string>();
  for (const dir of dirs) {
    if (seen.has(resolve(dir))) throw new ArgumentError(`the crawl folder ${dir} is given twice`);
    seen.add(resolve(dir));
  }
  for (const dir of dirs) await assertCrawlFolder(dir);
  const opened: ReadableCrawl[] = [];
  const close = async (): Promise<void> => {
    for (const c of opened.splice(0)) await c.close();
  };
  try {
    for (const dir of dirs) opened.push(await openCrawlForReading(dir));
    const states = opened.map((c) => c.state);
    return { set: { states, plan: await planShardMerge(states) }, dirs, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Runs `fn` over the crawl folders `dirs` read as one crawl, and closes them (and their snapshots) after. */
export async function withShards<T>(dirs: readonly string[], fn: (shards: ReadableShards) => Promise<T>): Promise<T> {
  const shards = await openShardsForReading(dirs);
  try {
    return await fn(shards);
  } finally {
    await shards.close();
  }
}

/** The crawl folders among a command's positional arguments (at least one). */
export function requireFolders(positionals: readonly string[]): string[] {
  if (positionals.length === 0) throw new ArgumentError('missing the crawl folder DIR');
  return [...positionals];
}
