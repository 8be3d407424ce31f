// **LEVEL_OPTIONS**: how the crawl's LevelDB is opened, and {@link flushMemtable}, which writes its memtable out before a close.
import type { ClassicLevel } from 'classic-level';

/**
 * Options of the crawl's LevelDB (classic-level's `open`).
 *
 * `writeBufferSize` 16 MB (LevelDB's default 4 MB): index keys arrive in no order, so every level-0 file LevelDB writes
 * overlaps all of level 1 and each level-0 compaction rewrites level 1 whole; four times fewer, larger level-0
 * files rewrite it a quarter as often. Measured (bench/large-doc-cost.ts --warmup 2, the third 50,000-triple
 * document into a store that holds two): LevelDB's threads ~420 → ~260 CPU ms, the load ×1.4 faster per CPU second.
 * The cost: up to 2 × 12 MB more RSS (the memtable and the one being written out), and a reopen after a crash
 * replays up to 16 MB of log; after a close there is none to replay ({@link flushMemtable}).
 */
export const LEVEL_OPTIONS = { writeBufferSize: 16 * 1024 * 1024 } as const;

/**
 * Writes LevelDB's memtable to a table file (a compaction of a key range that holds no key: LevelDB writes the
 * memtable out first, then finds nothing to compact), so that the next open has no log to replay: what the writes
 * cost is paid by the process that made them, not by the next command that opens the store.
 */
export async function flushMemtable(db: ClassicLevel<string, string>): Promise<void> {
  await db.compactRange(NO_KEY, NO_KEY);
}

/** No key is this: sublevel keys start with `!`, quadstore's index keys with their index's name. */
const NO_KEY = '\u0000';
