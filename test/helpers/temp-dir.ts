// **Temp folders** of the tests: under the OS temp dir, named after the test file and test that made them, removed after
// the test (or the file). The only place a test makes one (test/architecture/test-helpers.test.ts keeps it so).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, onTestFinished } from 'vitest';

/** `rdfscout-<file>-<label>-<test>-`: which test (and helper) made a folder that a killed run left behind. */
function prefix(label?: string): string {
  let state: { testPath?: string | undefined; currentTestName?: string | undefined } = {};
  try {
    const { testPath, currentTestName } = expect.getState();
    state = { testPath, currentTestName };
  } catch {
    // outside a Vitest worker (a script such as test/distributed/differential/cli.ts): the label alone
  }
  const file = state.testPath === undefined ? undefined : basename(state.testPath).replace(/\.test\.ts$|\.ts$/, '');
  const parts = [file, label, state.currentTestName].filter((p): p is string => p !== undefined && p !== '');
  const slug = (parts.length > 0 ? parts : ['script'])
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
  return join(tmpdir(), `rdfscout-${slug}-`);
}

/**
 * A fresh folder and how to remove it, for code that decides itself when it goes (scripts, helpers that hand back a
 * `dispose()` or `stop()`). Its name says which test made it, and `label` what for (a server's data, a profile).
 */
export async function makeTempDir(label?: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(prefix(label));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A fresh folder for the running test, removed when the test has finished (after its `afterEach` hooks: a crawl they
 * close is closed before its folder goes). Call it inside a test or a `beforeEach`; a folder for a whole file is
 * {@link useTempDir}`({ per: 'file' })`.
 */
export async function tempDir(): Promise<string> {
  if (expect.getState().currentTestName === undefined) throw new Error('tempDir() makes a folder for the running test: call it in a test or beforeEach (in beforeAll: useTempDir({ per: "file" }))');
  const { dir, remove } = await makeTempDir();
  onTestFinished(remove);
  return dir;
}

/** A folder made by {@link useTempDir}. */
export interface TempDirHandle {
  /** The folder (throws outside the hooks that made it). */
  readonly dir: string;
}

/**
 * Registers hooks that make a folder before each test (`per: 'test'`, the default) or once before the file's (or the
 * enclosing `describe`'s) tests (`per: 'file'`), and remove it after. Call it before the hooks that use it: Vitest
 * runs `before*` hooks in order and `after*` hooks in reverse, so the folder outlives whatever those hooks open in it.
 */
export function useTempDir(opts: { per?: 'test' | 'file' } = {}): TempDirHandle {
  let made: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  const [before, after] = opts.per === 'file' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    made = await makeTempDir();
  });
  after(async () => {
    await made?.remove();
    made = undefined;
  });
  return {
    get dir() {
      if (made === undefined) throw new Error('useTempDir: no folder outside the tests it was made for');
      return made.dir;
    },
  };
}
