// checkGateSpacing on hand-made logs: gate passes joined to the server's requests, gaps between passes, jitter.
import { describe, expect, it } from 'vitest';
import { checkGateSpacing, type LoggedRequest } from '../../src/simweb/index.ts';

function req(url: string, start: number, end = start + 10): LoggedRequest {
  return { url, pld: new URL(url).hostname.replace(/^www\./, ''), start, end, status: 200 };
}
const pass = (url: string, at: number) => ({ url, pld: new URL(url).hostname.replace(/^www\./, ''), at });

describe('checkGateSpacing', () => {
  it('joins passes to their requests and reports gate gaps, jitter and gap + jitter per PLD', () => {
    const log = [
      req('http://a.org/robots.txt', 1003), // passed at 1000: 3 ms of jitter
      req('http://a.org/1', 1015), // the page after its own robots.txt: no pass of its own
      req('http://a.org/2', 1100.5), // passed at 1100: 0.5 ms
      req('http://a.org/3', 1230), // passed at 1200, arrived 30 ms late
      req('http://b.org/1', 1000),
    ];
    const passes = [pass('http://a.org/robots.txt', 1000), pass('http://a.org/2', 1100), pass('http://a.org/3', 1200), pass('http://b.org/1', 1000)];
    const r = checkGateSpacing(log, passes);
    const a = r.byPld.find((p) => p.pld === 'a.org');
    expect(a).toEqual({ pld: 'a.org', passes: 3, gatedRequests: 3, minGateGapMs: 100, maxJitterMs: 30, minGapPlusJitterMs: 100.5 });
    expect(r).toMatchObject({ passes: 4, gatedRequests: 4, minGateGapMs: 100, maxJitterMs: 30, minGapPlusJitterMs: 100.5 });
  });

  it('shows a late first request shrinking the next gap by its jitter, and never by more', () => {
    // /1 passed at 0 but reached the server at 40; /2 passed at 60 (delay 60) and arrived at once: 20 ms apart.
    const r = checkGateSpacing([req('http://a.org/1', 40), req('http://a.org/2', 60)], [pass('http://a.org/1', 0), pass('http://a.org/2', 60)]);
    expect(r).toMatchObject({ minGateGapMs: 60, maxJitterMs: 40, minGapPlusJitterMs: 60 });
  });

  it('counts a pass that let nothing through, and never joins a request that started before its pass', () => {
    const log = [req('http://a.org/1', 500), req('http://a.org/1', 1000)];
    const r = checkGateSpacing(log, [pass('http://a.org/robots.txt', 400), pass('http://a.org/1', 900)]);
    expect(r).toMatchObject({ passes: 2, gatedRequests: 1, maxJitterMs: 100 }); // /1 at 1000, not the one at 500
    expect(r.minGapPlusJitterMs).toBeUndefined();
  });
});
