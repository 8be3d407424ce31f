// Test helpers: a real crawl state in a temporary folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CrawlState, openState } from '../../src/state/open-state.ts';

export async function tempDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'rdfscout-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

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
