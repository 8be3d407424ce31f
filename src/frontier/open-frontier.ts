// **openFrontier** opens a crawl's frontier on the chosen backend: crawl code gets the `Frontier` interface, never a class.
import { ArgumentError } from '../errors.ts';
import type { CrawlState } from '../state/open-state.ts';
import { DualFrontier } from './dual-frontier.ts';
import { LevelFrontier } from './level-frontier.ts';
import { MemoryFrontier } from './memory-frontier.ts';
import { forgetSeen } from './seen-load.ts';
import type { Frontier } from './types.ts';

/**
 * The frontier backends of a crawl run by one process. (A crawl shared by worker processes has its frontier in
 * Redis, opened by its coordination: src/distributed/.)
 */
const FRONTIER_BACKENDS = ['level', 'memory'] as const;
export type FrontierBackend = (typeof FRONTIER_BACKENDS)[number];

export interface OpenFrontierOptions {
  /** Where the queue lives: the crawl's LevelDB (persistent), or memory (lost when the process ends). Default: 'level'. */
  backend?: FrontierBackend;
  /** One queue per PLD, or the thesis's two-queue variant (thesis §8.2; LevelDB only). */
  queues: 'one' | 'two';
  /** Fetches in flight at once (the two-queue variant shares them). */
  concurrency: number;
  /** Share of the workers serving the RDF queue (two-queue variant). */
  rdfShare: number;
  /** Keep queued H links for re-judging when C_HR learns a parent (thesis §5). */
  rejudge: boolean;
  /** URLs to make new again before the frontier is restored, so they can be queued again (`--retry-failed`). */
  forget?: readonly string[];
}

/** Opens (and on a resume, restores) the frontier of the crawl in `state`. */
export async function openFrontier(state: CrawlState, o: OpenFrontierOptions): Promise<Frontier> {
  const backend = o.backend ?? 'level';
  if (backend === 'memory') {
    if (o.queues === 'two') throw new ArgumentError('The two-queue frontier (--queues two) needs the LevelDB backend.');
    return new MemoryFrontier({ rejudge: o.rejudge });
  }
  // `--retry-failed`: the URLs made new again before the frontier rebuilds its seen table.
  await forgetSeen(state, o.forget ?? []);
  if (o.queues === 'two') return DualFrontier.open(state, { concurrency: o.concurrency, rdfShare: o.rdfShare, rejudge: o.rejudge });
  return LevelFrontier.open(state, { rejudge: o.rejudge });
}
