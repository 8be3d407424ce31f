// OriginHealth and Connectivity (fetch/connectivity.ts): a dead origin's failures are its own, an outage is when
// origins that answered fail too; pure, on an explicit clock.
import { describe, expect, it } from 'vitest';
import { Connectivity, type FetchSeen } from '../../src/fetch/connectivity.ts';
import { OriginHealth } from '../../src/fetch/origin-health.ts';

describe('OriginHealth', () => {
  it("an origin that never answered fails on its own; one that answered is suspect until a healthy origin answers after it began failing", () => {
    const h = new OriginHealth();
    h.answered('http://a', 0);
    h.failed('http://dead', 0, 'ECONNREFUSED');
    expect(h.isOwnFailure('http://dead')).toBe(true);
    h.answered('http://a', 1);
    h.answered('http://b', 2);
    h.failed('http://a', 3, 'ECONNRESET');
    expect(h.isOwnFailure('http://a')).toBe(false); // b answered before a began failing: says nothing
    expect(h.probeTarget('http://a')).toBe('http://b');
    h.answered('http://b', 4);
    expect(h.isOwnFailure('http://a')).toBe(true); // b answered after: the network works, a is the problem
    h.answered('http://a', 5);
    expect(h.isOwnFailure('http://a')).toBe(false); // not failing any more
  });

  it('before any origin answered, no failure is an origin\'s own: the network (or proxy) may be down from the start', () => {
    const h = new OriginHealth();
    h.failed('http://dead', 0, 'ECONNREFUSED');
    expect(h.isOwnFailure('http://dead')).toBe(false);
    h.answered('http://live', 1);
    expect(h.isOwnFailure('http://dead')).toBe(true);
  });

  it('an origin that answered but is failing now witnesses nothing, and is no probe target unless asked for', () => {
    const h = new OriginHealth();
    h.answered('http://a', 1);
    h.answered('http://b', 2);
    h.failed('http://a', 3, 'x');
    h.answered('http://b', 4);
    h.failed('http://b', 5, 'x'); // b answered after a began failing, but b fails now too
    expect(h.isOwnFailure('http://a')).toBe(false);
    expect(h.probeTarget('http://a')).toBeNull();
    expect(h.probeTarget('http://a', true)).toBe('http://b');
  });

  it('lists the failing origins, most failures first, saying whether they answered before', () => {
    const h = new OriginHealth();
    h.answered('http://gone', 0);
    for (let i = 1; i <= 3; i++) h.failed('http://dead', i, `refused ${i}`);
    h.failed('http://gone', 4, 'reset');
    h.answered('http://fine', 5);
    expect(h.failing()).toEqual([
      { origin: 'http://dead', failures: 3, answeredBefore: false, reason: 'refused 3' },
      { origin: 'http://gone', failures: 1, answeredBefore: true, reason: 'reset' },
    ]);
  });
});

const seen = (origin: string, outcome: FetchSeen['outcome'], probe = false): FetchSeen => ({ origin, outcome, reason: 'ECONNREFUSED', probe, activeHosts: 3 });

describe('OriginHealth: origins that answered in an earlier run (a resume)', () => {
  it('are probe targets before anything answers now, but no witness that the network works', () => {
    const h = new OriginHealth();
    h.answeredEarlier(['http://old.example', 'http://site.example']);
    h.failed('http://dead.example', 1000, 'ECONNREFUSED');
    expect(h.isOwnFailure('http://dead.example')).toBe(false); // nothing answered in this run: still suspect
    expect(h.probeTarget('http://dead.example')).toBe('http://site.example'); // the most recent earlier one
    h.failed('http://site.example', 1100, 'ECONNREFUSED');
    expect(h.probeTarget('http://dead.example')).toBe('http://old.example'); // not one failing now
    expect(h.probeTarget('http://dead.example', true)).toBe('http://site.example'); // a pause's probe: failing or not
    h.answered('http://old.example', 1200); // it answered: the network works, the dead origin's failures are its own
    expect(h.isOwnFailure('http://dead.example')).toBe(true);
  });
});

describe('Connectivity', () => {
  it('never pauses for origins that never answered, however many fail', () => {
    const c = new Connectivity({ threshold: 3 });
    c.observe(seen('http://live', 'answered'), 0);
    for (let i = 1; i < 50; i++) expect(c.observe(seen(`http://dead${i % 3}`, 'connection'), i)).toEqual({ kind: 'own', event: null, dead: false });
    expect(c.offline).toBe(false);
  });

  it('asks the origin that answered last when one that answered fails: its answer makes the failure the origin\'s own', () => {
    const c = new Connectivity({ threshold: 2 });
    c.observe(seen('http://a', 'answered'), 0);
    c.observe(seen('http://b', 'answered'), 1);
    const v = c.observe(seen('http://a', 'connection'), 2);
    expect(v).toEqual({ kind: 'check', target: 'http://b' });
    expect(c.checked(seen('http://a', 'connection'), 'http://b', true, 3)).toEqual({ kind: 'own', event: null, dead: false });
    // From now on a's failures are its own, without asking again.
    expect(c.observe(seen('http://a', 'connection'), 4)).toEqual({ kind: 'own', event: null, dead: false });
    expect(c.offline).toBe(false);
  });

  it('pauses when the origin asked fails too (a real outage), and a probe that reaches anything resumes', () => {
    const c = new Connectivity({ threshold: 3, firstPauseMs: 100 });
    c.observe(seen('http://a', 'answered'), 0);
    c.observe(seen('http://b', 'answered'), 1);
    expect(c.observe(seen('http://a', 'connection'), 2)).toEqual({ kind: 'check', target: 'http://b' });
    expect(c.checked(seen('http://a', 'connection'), 'http://b', false, 3)).toMatchObject({ kind: 'network', offline: false, event: null });
    const v = c.observe(seen('http://b', 'connection'), 4); // no healthy origin left to ask: counted at once
    expect(v).toMatchObject({ kind: 'network', offline: true, event: { kind: 'paused', failures: 3, hosts: 2 } });
    expect(c.observe(seen('http://dead', 'connection'), 5)).toEqual({ kind: 'network', offline: true, event: null }); // in flight before the pause
    expect(c.canStart(50)).toBe(false);
    expect(c.canStart(104)).toBe(true);
    expect(c.start()).toBe(true);
    // The probe went to an origin that never answered: the origin that answered last is asked before concluding.
    expect(c.observe(seen('http://dead', 'connection', true), 110)).toEqual({ kind: 'check', target: 'http://b' });
    expect(c.checked(seen('http://dead', 'connection', true), 'http://b', true, 111)).toEqual({ kind: 'own', event: { kind: 'resumed', offlineMs: 107 }, dead: false });
    expect(c.offline).toBe(false);
  });

  it('an origin whose own failures went on for 3 failures and 10 s is dead: its URLs are not retried', () => {
    const c = new Connectivity();
    c.observe(seen('http://live', 'answered'), 0);
    expect(c.observe(seen('http://dead', 'connection'), 1_000)).toMatchObject({ kind: 'own', dead: false });
    expect(c.observe(seen('http://dead', 'connection'), 1_001)).toMatchObject({ kind: 'own', dead: false });
    expect(c.observe(seen('http://dead', 'connection'), 1_002)).toMatchObject({ kind: 'own', dead: false }); // 3 failures, but within a moment
    expect(c.observe(seen('http://dead', 'connection'), 11_000)).toMatchObject({ kind: 'own', dead: true });
  });

  it('one check at a time: a suspect failure while another is checked counts at once', () => {
    const c = new Connectivity({ threshold: 10 });
    c.observe(seen('http://a', 'answered'), 0);
    c.observe(seen('http://b', 'answered'), 1);
    c.observe(seen('http://c', 'answered'), 2);
    expect(c.observe(seen('http://a', 'connection'), 3).kind).toBe('check');
    expect(c.observe(seen('http://b', 'connection'), 4)).toMatchObject({ kind: 'network', offline: false });
  });
});
