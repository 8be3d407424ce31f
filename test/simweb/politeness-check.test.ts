// checkPoliteness on hand-made request logs: in flight per PLD, start and idle gaps, robots.txt and redirect hops joined to their fetch.
import { describe, expect, it } from 'vitest';
import { checkPoliteness, type LoggedRequest, RequestLog } from '../../src/simweb/index.ts';

/** A request to `http://HOST/PATH` from `start` to `end` ms. */
function req(host: string, path: string, start: number, end: number | undefined, status = 200, location?: string): LoggedRequest {
  const pld = host.replace(/^www\./, '');
  return { url: `http://${host}${path}`, pld, start, end, status, ...(location ? { location } : {}) };
}

describe('checkPoliteness', () => {
  it('reports one request in flight and the gaps of a polite sequence', () => {
    const log = [req('a.org', '/1', 0, 100), req('a.org', '/2', 300, 400), req('a.org', '/3', 650, 700)];
    const r = checkPoliteness(log);
    expect(r).toMatchObject({ requests: 3, fetches: 3, plds: 1, maxInFlight: 1, minStartGapMs: 300, minIdleGapMs: 200, minStartGapPld: 'a.org' });
  });

  it('counts overlapping requests of one PLD, but not of different PLDs', () => {
    const log = [
      req('a.org', '/1', 0, 100),
      req('www.a.org', '/2', 50, 150), // another host, same PLD: overlaps /1
      req('a.org', '/3', 60, 70), // a third one inside both
      req('b.org', '/1', 0, 500),
      req('c.org', '/1', 10, 20),
    ];
    const r = checkPoliteness(log);
    expect(r.maxInFlight).toBe(3);
    expect(r.maxInFlightPld).toBe('a.org');
    const b = r.byPld.find((p) => p.pld === 'b.org');
    expect(b).toMatchObject({ requests: 1, maxInFlight: 1 });
    expect(b?.minStartGapMs).toBeUndefined();
    expect(b?.minIdleGapMs).toBeUndefined();
  });

  it('does not count an end at the very instant of the next start as an overlap', () => {
    const r = checkPoliteness([req('a.org', '/1', 0, 100), req('a.org', '/2', 100, 200)]);
    expect(r.maxInFlight).toBe(1);
    expect(r.minIdleGapMs).toBe(0);
  });

  it('counts a request without an end as in flight for ever', () => {
    const r = checkPoliteness([req('a.org', '/1', 0, undefined), req('a.org', '/2', 5000, 5100)]);
    expect(r.maxInFlight).toBe(2);
    expect(r.minIdleGapMs).toBeUndefined(); // nothing had ended before /2 started
    expect(r.minStartGapMs).toBe(5000);
  });

  it('finds the worst PLD of each figure', () => {
    const log = [
      req('a.org', '/1', 0, 10),
      req('a.org', '/2', 1000, 1010),
      req('b.org', '/1', 0, 100),
      req('b.org', '/2', 130, 140), // idle 30, start gap 130
      req('c.org', '/1', 0, 10),
      req('c.org', '/2', 90, 95), // start gap 90, idle 80
    ];
    const r = checkPoliteness(log);
    expect(r).toMatchObject({ minStartGapMs: 90, minStartGapPld: 'c.org', minIdleGapMs: 30, minIdleGapPld: 'b.org', fetches: 6, plds: 3 });
  });

  it('joins robots.txt and a redirect hop to the fetch they lead to', () => {
    const log = [
      req('a.org', '/robots.txt', 0, 10),
      req('a.org', '/old', 12, 20, 301, 'http://a.org/new'),
      req('a.org', '/new', 21, 40),
      req('a.org', '/next', 540, 560),
    ];
    const r = checkPoliteness(log);
    expect(r.fetches).toBe(2);
    expect(r.requests).toBe(4);
    expect(r.minStartGapMs).toBe(540); // from the robots.txt request's start: the fetch's start
    expect(r.minIdleGapMs).toBe(500); // from the end of /new, the fetch's last request
  });

  it('does not join a request that is not the redirect target, or that comes after the continuation window', () => {
    const log = [
      req('a.org', '/old', 0, 10, 301, 'http://a.org/new'),
      req('a.org', '/other', 12, 20), // not where /old points: a fetch of its own, 2 ms after /old ended
      req('a.org', '/robots.txt', 1000, 1010),
      req('a.org', '/late', 2100, 2110), // 1090 ms after robots.txt: beyond the default 1000 ms
    ];
    const r = checkPoliteness(log);
    expect(r.fetches).toBe(4);
    expect(r.minIdleGapMs).toBe(2);
    expect(checkPoliteness(log, { continuationMs: 1500 }).fetches).toBe(3);
  });

  it('keeps concurrent fetches apart: two workers each following a redirect', () => {
    const log = [
      req('a.org', '/x', 0, 10, 303, 'http://a.org/x.rdf'),
      req('a.org', '/y', 5, 15, 303, 'http://a.org/y.rdf'),
      req('a.org', '/y.rdf', 16, 30),
      req('a.org', '/x.rdf', 17, 25),
    ];
    const r = checkPoliteness(log);
    expect(r.fetches).toBe(2);
    expect(r.maxInFlight).toBe(2);
    expect(r.minStartGapMs).toBe(5);
  });

  it('reads a RequestLog: in-flight counter and times from an injected clock', () => {
    let t = 0;
    const log = new RequestLog(() => t);
    const a = log.begin('http://a.org/1', 'a.org', 'a.org');
    t = 5;
    const b = log.begin('http://a.org/2', 'a.org', 'a.org');
    t = 10;
    log.end(a, 200);
    log.end(a, 500); // a second end is ignored
    t = 20;
    log.end(b, 303, 'http://a.org/3');
    const c = log.begin('http://a.org/3', 'a.org', 'a.org');
    const entries = log.entries();
    expect(entries.map((e) => [e.start, e.end, e.status, e.inFlight])).toEqual([
      [0, 10, 200, 1],
      [5, 20, 303, 2],
      [20, undefined, 0, 1],
    ]);
    expect(c.inFlight).toBe(1);
    expect(checkPoliteness(entries)).toMatchObject({ requests: 3, fetches: 2, maxInFlight: 2 });
  });
});
