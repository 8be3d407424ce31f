// The Scheduler's outage pause and per-host Crawl-delay, on an injected clock.
import { describe, expect, it } from 'vitest';
import { CrawlTally } from '../../src/crawl-log/tally.ts';
import { Scheduler } from '../../src/crawl/scheduler.ts';
import type { FetchResult } from '../../src/fetch/types.ts';
import { MemoryFrontier } from '../../src/frontier/memory-frontier.ts';
import type { FrontierEntry, NewEntry } from '../../src/frontier/types.ts';

const entry = (url: string): NewEntry => ({ url, parent: null, depth: 0, priority: 1, label: null, rules: [], link: null });

/** A fetch that got no HTTP response (connection refused), or one that got an answer. */
const refused = (url: string): FetchResult =>
  ({ kind: 'failed', url, finalUrl: url, redirects: [], status: null, error: 'RDFSCOUT_CONNECTION_FAILED', message: 'ECONNREFUSED', retryable: true, connection: true }) as unknown as FetchResult;
const answered = (url: string): FetchResult => ({ kind: 'http-error', url, finalUrl: url, redirects: [], status: 404, contentType: null, headers: {}, error: 'RDFSCOUT_HTTP_STATUS', retryAfterMs: null }) as unknown as FetchResult;

function setup(delayMs = 0) {
  const clock = { t: 5_000_000 };
  const frontier = new MemoryFrontier({ now: () => clock.t });
  const scheduler = new Scheduler({ frontier, policy: null, tally: new CrawlTally(), maxDocs: 1000, maxDocsPerPld: 1000, delayMs, hostConcurrency: 10, now: () => clock.t });
  const start = (): FrontierEntry | null => {
    const e = scheduler.pick();
    if (e !== null) {
      scheduler.requestStarted(e);
      scheduler.changed(e.pld);
    }
    return e;
  };
  /** Ends a fetch; a `check` verdict is answered by `probeAnswers` (the other origin's robots.txt answers or not). */
  const end = (e: FrontierEntry, result: FetchResult, probeAnswers = false) => {
    scheduler.requestEnded(e, null);
    let seen = scheduler.observe(e, result);
    const checked = seen.kind === 'check' ? seen.target : null;
    if (seen.kind === 'check') seen = scheduler.checked(e, result, seen.target, probeAnswers);
    scheduler.landed(e);
    return { ...seen, event: 'event' in seen ? seen.event : null, offline: seen.kind === 'network' && seen.offline, checked };
  };
  /** Every host of `hosts` answers one fetch (they are known to work before the network goes). */
  const answerAll = async (hosts: string[]) => {
    await frontier.add(hosts.map((h) => entry(`http://${h}/home`)));
    for (let i = 0; i < hosts.length; i++) {
      const e = start() as FrontierEntry;
      end(e, answered(e.url));
    }
  };
  return { clock, frontier, scheduler, start, end, answerAll };
}

describe('Scheduler outage pause', () => {
  it('pauses after connection failures on two hosts that answered before, serves one probe after the pause, and resumes when it is answered', async () => {
    const { clock, frontier, scheduler, start, end, answerAll } = setup();
    await answerAll(['a.org', 'b.org']);
    await frontier.add([...Array.from({ length: 5 }, (_, i) => entry(`http://a.org/${i}`)), ...Array.from({ length: 5 }, (_, i) => entry(`http://b.org/${i}`))]);
    for (const pld of ['a.org', 'b.org']) scheduler.changed(pld);
    const started = Array.from({ length: 5 }, () => start() as FrontierEntry);
    const seen = started.map((e) => end(e, refused(e.url)));
    // The first failure asks the other origin, which fails too: two failures; the others are counted as they come.
    expect(seen[0]?.checked).toBe(started[0]?.pld === 'a.org' ? 'http://b.org' : 'http://a.org');
    expect(seen.slice(1).every((s) => s.checked === null)).toBe(true);
    expect(seen.slice(0, 4).every((s) => s.event === null && !s.offline && s.kind === 'network')).toBe(true);
    expect(seen[4]?.event).toMatchObject({ kind: 'paused', pauseMs: 1000, failures: 6, hosts: 2 });
    expect(seen[4]?.offline).toBe(true); // failed while paused: the crawler requeues it without spending an attempt
    expect(scheduler.pausedUntil).toBe(clock.t + 1000);

    expect(start()).toBeNull(); // work is queued and due, but nothing starts during the pause
    expect(scheduler.nextWake()).toBe(clock.t + 1000);
    clock.t += 400;
    expect(scheduler.offlineFor()).toBe(400);
    expect(start()).toBeNull();
    clock.t += 600;
    const probe = start() as FrontierEntry;
    expect(probe).not.toBeNull();
    expect(start()).toBeNull(); // one probe at a time
    expect(end(probe, answered(probe.url)).event).toEqual({ kind: 'resumed', offlineMs: 1000 });
    expect(scheduler.pausedUntil).toBe(0);
    expect(start()).not.toBeNull();
  });

  it('doubles the pause when the probe fails too', async () => {
    const { clock, frontier, scheduler, start, end, answerAll } = setup();
    await answerAll(['a.org', 'b.org', 'c.org']);
    await frontier.add(['a.org', 'b.org', 'c.org'].flatMap((h) => Array.from({ length: 4 }, (_, i) => entry(`http://${h}/${i}`))));
    for (const pld of ['a.org', 'b.org', 'c.org']) scheduler.changed(pld);
    for (const e of Array.from({ length: 6 }, () => start() as FrontierEntry)) end(e, refused(e.url));
    clock.t = scheduler.pausedUntil;
    const probe = start() as FrontierEntry;
    expect(end(probe, refused(probe.url)).event).toMatchObject({ kind: 'paused', pauseMs: 2000 });
    expect(scheduler.nextWake()).toBe(clock.t + 2000);
  });
});

describe('Scheduler Crawl-delay', () => {
  it('spaces a PLD by the largest Crawl-delay among its hosts (robots.txt is per host)', async () => {
    const { clock, frontier, scheduler, start } = setup(100);
    await frontier.add([entry('http://www.a.org/1'), entry('http://data.a.org/2'), entry('http://data.a.org/3')]);
    const first = start() as FrontierEntry;
    expect(first.url).toBe('http://www.a.org/1');
    scheduler.requestEnded(first, 3000); // www.a.org's robots.txt: Crawl-delay 3
    scheduler.landed(first);
    expect(scheduler.nextWake()).toBe(clock.t + 3000); // not the 100 ms delay: data.a.org waits for www.a.org's pace
    clock.t += 2999;
    expect(start()).toBeNull();
    clock.t += 1;
    const second = start() as FrontierEntry;
    expect(second.url).toBe('http://data.a.org/2');
    scheduler.requestEnded(second, null); // data.a.org has none: the PLD keeps its slowest host's delay
    scheduler.landed(second);
    expect(scheduler.nextWake()).toBe(clock.t + 3000);
  });
});
