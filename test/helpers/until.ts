// Polls a condition until it holds (tests that watch a live crawl or a browser page).

/** Resolves once `what()` is true; rejects after `ms` milliseconds. */
export async function until(what: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
