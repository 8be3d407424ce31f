// Test helpers: a real crawl state in a temporary folder.
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { makeTempDir as tempDir } from '../helpers/temp-state.ts';

export { tempDir };

/** Opens a crawl state in a new temporary folder; `dispose()` closes it and removes the folder. */
export async function tempState(): Promise<{ state: CrawlState; dir: string; dispose(): Promise<void> }> {
  const { dir, remove } = await tempDir();
  const state = await openState(dir);
  return {
    state,
    dir,
    dispose: async () => {
      await state.close();
      await remove();
    },
  };
}
