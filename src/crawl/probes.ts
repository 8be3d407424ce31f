// **CrawlProbes**: points of a fetch a test can watch or stop a crawl at; a crawl run by a user has none.

/** The points a crawl can be stopped at (fault tests; `after-commit`: a fetch committed, its WARC records not yet queued). */
export type PausePoint = 'before-fetch' | 'during-fetch' | 'before-release' | 'after-commit';

/**
 * Given to `Crawler.open` (tests that run the CLI as a child process pass them to its main through
 * test/helpers/cli-with-probes.ts): `pause` may stop the process at a point (a test then kills or continues it), `armed`
 * says whether it might (so a caller arms a timer only when it matters), `gatePassed` sees each request that passes
 * the politeness gate (`at`: the gate's clock, Redis's for a worker of a shared crawl).
 */
export interface CrawlProbes {
  pause(point: PausePoint, url: string): void;
  armed(point: PausePoint): boolean;
  gatePassed(url: string, pld: string, at: number): void;
}

/** No probes: what every crawl has unless a test asks. */
export const NO_PROBES: CrawlProbes = { pause: () => {}, armed: () => false, gatePassed: () => {} };
