// **Control hooks**: an operator's commands (dashboard) applied to a running crawl, its live view, and idle waits.
import { setTimeout as sleep } from 'node:timers/promises';
import type { BanditPolicy } from '../bandit/types.ts';
import type { CrawlTally } from '../crawl-log/tally.ts';
import type { Frontier, NewEntry } from '../frontier/types.ts';
import { pldOf } from '../links/normalize-url.ts';
import type { Strategy } from '../relevance/types.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { CrawlControl, CrawlView } from './control.ts';
import { stageSeedPlds } from './crawl-meta.ts';
import type { Scheduler } from './scheduler.ts';

/** Reason of the run loop's internal timer cancellations. */
export const WAKE = Symbol('wake');

/** What the control hooks read and change of one crawl. */
export interface ControlledCrawl {
  state: CrawlState;
  frontier: Frontier;
  strategy: Strategy;
  scheduler: Scheduler;
  tally: CrawlTally;
  policy: BanditPolicy | null;
  maxDocs: number;
  /** The seeds' PLDs, shared with the crawl's scope: a seed added now widens it. */
  seedPlds: Set<string>;
}

/** Takes the operator's new seeds (queued like seeds given at the start, their PLDs in scope) and blocked PLDs. */
export async function applyControl(control: CrawlControl, crawl: ControlledCrawl): Promise<void> {
  const { seeds, blocked } = control.take();
  for (const pld of blocked) crawl.scheduler.block(pld);
  if (seeds.length === 0) return;
  const entries: NewEntry[] = seeds.map((url) => {
    crawl.seedPlds.add(pldOf(url));
    return { url, parent: null, depth: 0, priority: crawl.strategy.seedPriority, label: null, rules: [], link: null };
  });
  const txn = crawl.state.txn();
  stageSeedPlds(crawl.state, txn, crawl.seedPlds);
  await crawl.frontier.add(entries, txn);
  await txn.commit();
  for (const e of entries) crawl.scheduler.changed(pldOf(e.url));
}

/** The live view a dashboard reads (CrawlView): cheap, synchronous reads of in-memory state. */
export function crawlView(crawl: ControlledCrawl, control: CrawlControl): CrawlView {
  return {
    tally: () => crawl.tally,
    queued: () => crawl.frontier.size().queued,
    inFlight: () => crawl.scheduler.inFlight,
    maxDocs: () => crawl.maxDocs,
    plds: (now) => crawl.frontier.queues().map((q) => ({ pld: q.pld, queued: q.queued, ...crawl.scheduler.pldView(q.pld, now), blocked: control.isBlocked(q.pld) })),
    arms: () => crawl.policy?.stats() ?? null,
    learned: () => crawl.strategy.snapshot(),
    network: () => {
      const until = crawl.scheduler.pausedUntil;
      return { paused: until > 0, offlineMs: crawl.scheduler.offlineFor(), nextProbeAt: until > 0 ? until : null };
    },
  };
}

/** Sleeps until `when` (epoch ms) or an abort of `signal`. */
export async function sleepUntil(when: number, signal: AbortSignal): Promise<void> {
  const ms = Math.max(0, when - Date.now());
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    // aborted: the caller checks the signal
  }
}

/** Sleeps until `when` or an abort; with a control, also until the operator's next command (listener removed after). */
export async function idleUntil(when: number, signal: AbortSignal, control: CrawlControl | null): Promise<void> {
  if (control === null) return sleepUntil(when, signal);
  const idle = new AbortController();
  const wake = () => idle.abort(WAKE);
  signal.addEventListener('abort', wake, { once: true });
  const off = control.onChange(wake);
  try {
    await sleepUntil(when, idle.signal);
  } finally {
    off();
    signal.removeEventListener('abort', wake);
  }
}
