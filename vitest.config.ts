// Vitest: most test files run two at a time; the files that start several processes at once run one at a time, last.
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that each keep several CPU-hungry processes busy at once (crawl workers on a real redis-server, Virtuoso,
 * Chromium with workers, crawls killed mid-write) or whose outcomes hang on real-time limits (lease expiry, politeness
 * spacing, short fetch timeouts): run alone.
 */
export const SERIAL_FILES = [
  'test/distributed/workers.test.ts',
  'test/distributed/shared-end.test.ts',
  'test/distributed/differential/differential.test.ts',
  'test/distributed/redis/worker-faults.test.ts',
  'test/distributed/redis/politeness-workers.test.ts',
  'test/dashboard/cluster-dashboard.test.ts',
  'test/sink/crawl-sink.test.ts',
  'test/sink/virtuoso-sink.test.ts',
  'test/hostile/slow/**/*.test.ts',
  // Hostile servers read with 1.5-3 s timeouts: a 10 MB page and a 1.3 MB robots.txt missed them at load 30.
  'test/hostile/hostile-crawl.test.ts',
  'test/hostile/http-traps-security.test.ts',
];

export default defineConfig({
  test: {
    // A limit for hangs, not a speed check: on a shared 2-core machine at load 20 a test that starts a CLI process
    // a few times took over 30 s (rdf-links, demo-simweb --copies) while passing alone in seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default on 2 cores is one fork: every file waited for the one before, though most wait on sockets,
    // child processes and timers far more than they compute.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'parallel', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SERIAL_FILES] } },
      // maxWorkers 1: Vitest runs these files one after another, after the others have finished.
      { extends: true, test: { name: 'serial', include: SERIAL_FILES, maxWorkers: 1 } },
    ],
  },
});
