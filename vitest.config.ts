// Vitest: three tiers (unit, integration, system) as projects; `npm test` runs them all. Within a tier most files run two
// at a time; the files that start several processes at once run one at a time, last.
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The pure tier (`npm run test:unit`, under a minute): code called in-process, no server, no child process, no LevelDB
 * folder. A new test file lands in the integration tier unless it is listed here. Pure tests that compare two
 * implementations over the whole simulated web (page-scan, whole-text, jsonld-fast, html-padding, pattern-oracle: 25-90 s
 * each on a loaded 2-core machine) are in the integration tier for their time; so are the context loader's and the XML
 * entity guard's tests, which start HTTP servers on 127.0.0.1.
 */
export const UNIT_FILES = [
  'test/architecture/source-hygiene.test.ts',
  'test/architecture/test-helpers.test.ts',
  'test/bandit/**/*.test.ts',
  'test/simweb/generated-sets.test.ts',
  'test/fetch/connectivity.test.ts',
  'test/docs/**/*.test.ts',
  'test/links/extract-links.test.ts',
  'test/links/html-variant.test.ts',
  'test/links/normalize-url.test.ts',
  'test/random/**/*.test.ts',
  'test/relevance/**/*.test.ts',
  'test/topical/**/*.test.ts',
  'test/crawl-log/crawl-vocab.test.ts',
  'test/crawl-log/shard-merge.test.ts',
  'test/crawl-log/stop-reason.test.ts',
  'test/crawl/discovery.test.ts',
  'test/crawl/doorbell.test.ts',
  'test/crawl/ready-set.test.ts',
  'test/crawl/scheduler-outage.test.ts',
  'test/dashboard/forecast.test.ts',
  'test/fetch/address-guard.test.ts',
  'test/fetch/body-reader.test.ts',
  'test/fetch/charset.test.ts',
  'test/fetch/outage.test.ts',
  'test/fetch/politeness.test.ts',
  'test/metrics/metrics.test.ts',
  'test/metrics/pattern-ceiling.test.ts',
  'test/rdf/embedded-hints.test.ts',
  'test/rdf/fingerprint-set.test.ts',
  'test/rdf/jsonld-streaming.test.ts',
  'test/rdf/parse-document.test.ts',
  'test/rdf/parse-embedded.test.ts',
  'test/rdf/run-parser.test.ts',
  'test/rdf/sniff.test.ts',
  'test/simweb/bandit-drift.test.ts',
  'test/simweb/beebot.test.ts',
  'test/simweb/bfs-curve.test.ts',
  'test/simweb/gate-spacing.test.ts',
  'test/simweb/politeness-check.test.ts',
  'test/sparql/format-results.test.ts',
  'test/sparql/rdfxml-writer.test.ts',
  'test/sparql/seen-triples.test.ts',
  'test/sparql/union-dedupe.test.ts',
  'test/sparql/union-iterator-repair.test.ts',
  'test/strategies/strategies.test.ts',
  'test/strategies/topical-strategies.test.ts',
  'test/strategies/yield-strategy.test.ts',
];

/**
 * The system tier (`npm run test:system`): real redis-server, Virtuoso or Chromium, processes killed or stopped,
 * hostile servers, waits on real-time limits.
 */
export const SYSTEM_FILES = [
  'test/distributed/**/*.test.ts',
  'test/hostile/**/*.test.ts',
  'test/sink/**/*.test.ts',
  'test/commands/read-while-crawling.test.ts',
  'test/crawl/crawl-e2e.test.ts',
  'test/crawl/reparse-kill.test.ts',
  'test/crawl/parse-threads-kill.test.ts',
  'test/dashboard/cluster-dashboard.test.ts',
  'test/dashboard/dashboard-browser.test.ts',
  'test/dashboard/reference-curves.test.ts',
  'test/frontier/level-frontier-crash.test.ts',
  'test/rdf/document-writer.test.ts',
  'test/report/chart-labels.test.ts',
  'test/report/report-browser.test.ts',
];

/**
 * System files that each keep several CPU-hungry processes busy at once (crawl workers on a real redis-server,
 * Virtuoso, Chromium with workers, crawls killed mid-write) or whose outcomes hang on real-time limits (lease expiry,
 * politeness spacing, short fetch timeouts): run alone.
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

const ALL = ['test/**/*.test.ts'];

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
      // isolate: false: the pure files share one module graph per worker instead of importing it again per file (the
      // tier's CPU time 42 s -> 17 s); a unit file therefore leaves no module state behind that another file reads.
      { extends: true, test: { name: 'unit', include: UNIT_FILES, isolate: false } },
      { extends: true, test: { name: 'integration', include: ALL, exclude: [...configDefaults.exclude, ...UNIT_FILES, ...SYSTEM_FILES] } },
      { extends: true, test: { name: 'system', include: SYSTEM_FILES, exclude: [...configDefaults.exclude, ...SERIAL_FILES] } },
      // maxWorkers 1: Vitest runs these files one after another, after the others have finished.
      { extends: true, test: { name: 'system-serial', include: SERIAL_FILES, maxWorkers: 1 } },
    ],
  },
});
