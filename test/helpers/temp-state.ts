// **useTempState** gives every test of a file its own crawl state (real LevelDB) in a fresh temp folder, closed and removed after the test.
import { afterEach, beforeEach } from 'vitest';
import { type CrawlState, type OpenStateOptions, openState } from '../../src/state/open-state.ts';
import { makeTempDir } from './temp-dir.ts';

/** The current test's folder and crawl state; see {@link useTempState}. */
export interface TempState {
  /** The current test's temp folder (the LevelDB lives in `dir/db`). */
  readonly dir: string;
  /** The open crawl state; throws when none is open. */
  readonly state: CrawlState;
  /** Opens the crawl state of {@link dir} (none may be open). */
  open(opts?: OpenStateOptions): Promise<CrawlState>;
  /** Closes the open crawl state, if any, as a clean shutdown does (the indexer finishes its pass). */
  close(): Promise<void>;
  /**
   * Closes the crawl state and opens it again from the same folder. With `crash: true` the LevelDB handle is closed
   * without the indexer's closing pass, which is what a SIGKILL leaves on disk; the other options are openState's.
   */
  reopen(opts?: { crash?: boolean } & OpenStateOptions): Promise<CrawlState>;
}

/**
 * Registers `beforeEach`/`afterEach` hooks that give each test a fresh temp folder and (unless `open: false`) an open
 * crawl state in it; after the test the state is closed and the folder removed.
 */
export function useTempState(opts: { open?: boolean } = {}): TempState {
  let tmp: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  let current: CrawlState | undefined;
  const handle: TempState = {
    get dir() {
      if (!tmp) throw new Error('useTempState: no temp folder outside a test');
      return tmp.dir;
    },
    get state() {
      if (!current) throw new Error('useTempState: no crawl state is open (call open())');
      return current;
    },
    async open(opened) {
      if (current) throw new Error('useTempState: a crawl state is open already');
      current = await openState(handle.dir, opened);
      return current;
    },
    async close() {
      const s = current;
      current = undefined;
      await s?.close();
    },
    async reopen({ crash = false, ...opened } = {}) {
      const s = handle.state;
      current = undefined;
      if (crash) {
        await s.quadstore.close();
        await s.db.close();
      } else {
        await s.close();
      }
      return handle.open(opened);
    },
  };
  beforeEach(async () => {
    tmp = await makeTempDir();
    if (opts.open ?? true) await handle.open();
  });
  afterEach(async () => {
    await handle.close();
    await tmp?.remove();
    tmp = undefined;
  });
  return handle;
}
