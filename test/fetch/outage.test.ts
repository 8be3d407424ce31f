// OutageDetector: pure, on an explicit clock.
import { describe, expect, it } from 'vitest';
import { OutageDetector } from '../../src/fetch/outage.ts';

const fail = (host: string, activeHosts = 3, probe = false) => ({ host, connectionFailure: true, probe, activeHosts });
const ok = (host: string, probe = false) => ({ host, connectionFailure: false, probe, activeHosts: 3 });

describe('OutageDetector', () => {
  it('pauses after `threshold` connection failures in a row across two hosts, not on one host among many', () => {
    const d = new OutageDetector({ threshold: 3, firstPauseMs: 1000 });
    expect(d.observe(fail('a'), 0)).toBeNull();
    expect(d.observe(fail('a'), 1)).toBeNull();
    expect(d.observe(fail('a'), 2)).toBeNull(); // 3 failures, but one host while 3 have work: that host's problem
    expect(d.offline).toBe(false);
    expect(d.observe(fail('b'), 3)).toEqual({ kind: 'paused', until: 1003, pauseMs: 1000, failures: 4, hosts: 2, since: 3 });
    expect(d.offline).toBe(true);
    expect(d.canStart(500)).toBe(false);
  });

  it('a success in between resets the streak', () => {
    const d = new OutageDetector({ threshold: 3 });
    d.observe(fail('a'), 0);
    d.observe(fail('b'), 1);
    expect(d.observe(ok('c'), 2)).toBeNull();
    d.observe(fail('a'), 3);
    expect(d.observe(fail('b'), 4)).toBeNull();
    expect(d.offline).toBe(false);
  });

  it('with one host that has work, that host failing is enough', () => {
    const d = new OutageDetector({ threshold: 2 });
    d.observe(fail('a', 1), 0);
    expect(d.observe(fail('a', 1), 1)?.kind).toBe('paused');
  });

  it('probes once per pause, doubles the pause on a failed probe (capped), and resumes on success', () => {
    const d = new OutageDetector({ threshold: 1, minHosts: 1, firstPauseMs: 100, maxPauseMs: 300 });
    d.observe(fail('a'), 0); // paused until 100
    expect(d.canStart(99)).toBe(false);
    expect(d.canStart(100)).toBe(true);
    expect(d.start()).toBe(true); // the probe
    expect(d.canStart(100)).toBe(false); // one probe at a time
    expect(d.observe(fail('b'), 150)).toBeNull(); // a fetch started before the pause, failing late: no news
    expect(d.observe(fail('a', 3, true), 110)).toMatchObject({ kind: 'paused', until: 310, pauseMs: 200 });
    d.start();
    expect(d.observe(fail('a', 3, true), 310)).toMatchObject({ pauseMs: 300 }); // capped
    d.start();
    expect(d.observe(fail('a', 3, true), 610)).toMatchObject({ pauseMs: 300 });
    expect(d.offlineFor(700)).toBe(700);
    d.start();
    expect(d.observe(ok('a', true), 910)).toEqual({ kind: 'resumed', offlineMs: 910 });
    expect(d.offline).toBe(false);
    expect(d.canStart(910)).toBe(true);
    expect(d.start()).toBe(false); // online: not a probe
  });
});
