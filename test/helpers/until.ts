// Polls a condition until it holds (tests that watch a live crawl or a browser page).

/** Resolves once `test()` is true; after `ms` milliseconds rejects, naming `what` it waited for. */
export async function until(test: () => Promise<boolean>, ms = 30_000, what = 'a condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
