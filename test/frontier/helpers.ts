// Test helpers: a real crawl state in a temporary folder.
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { makeTempDir as tempDir } from '../helpers/temp-dir.ts';

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

/**
 * Makes the answer of a `getMany` on the state's seen sublevels arrive late, as from a slow disk. Returns `hold()`:
 * the next read runs at once, and its answer is held until the release `hold()` returns is called.
 */
export function holdSeenReads(state: CrawlState): () => () => void {
  let next: Promise<void> | null = null;
  for (const sub of [state.sub.seen, state.sub['seen-rdf']]) {
    const real = sub.getMany.bind(sub) as (keys: string[]) => Promise<unknown[]>;
    // biome-ignore lint/suspicious/noExplicitAny: getMany is overloaded (callback and promise forms); tests use the promise one
    (sub as any).getMany = async (keys: string[]) => {
      const held = next;
      next = null;
      const answer = await real(keys);
      if (held !== null) await held;
      return answer;
    };
  }
  return () => {
    let open = () => {};
    next = new Promise<void>((resolve) => {
      open = resolve;
    });
    return open;
  };
}
