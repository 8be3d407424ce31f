import { describe, expect, it } from 'vitest';
import { Politeness } from '../../src/fetch/politeness.ts';

const T0 = 1_700_000_000_000;

describe('Politeness', () => {
  it('spaces request starts to one PLD by delayMs, across its hosts', () => {
    const p = new Politeness({ delayMs: 1000, hostConcurrency: 4 });
    expect(p.readyAt('example.org', 'a.example.org', T0)).toBe(T0);
    p.start('example.org', 'a.example.org', T0);
    expect(p.canStart('example.org', 'b.example.org', T0 + 999)).toBe(false);
    expect(p.readyAt('example.org', 'b.example.org', T0 + 10)).toBe(T0 + 1000);
    expect(p.canStart('example.org', 'b.example.org', T0 + 1000)).toBe(true);
    // another PLD is unaffected
    expect(p.canStart('other.net', 'other.net', T0 + 1)).toBe(true);
  });

  it('holds at most hostConcurrency requests in flight per host', () => {
    const p = new Politeness({ delayMs: 0, hostConcurrency: 2 });
    p.start('x.org', 'x.org', T0);
    expect(p.canStart('x.org', 'x.org', T0)).toBe(true);
    p.start('x.org', 'x.org', T0);
    expect(p.readyAt('x.org', 'x.org', T0 + 5000)).toBe(Number.POSITIVE_INFINITY);
    expect(p.canStart('x.org', 'www.x.org', T0 + 1)).toBe(true); // another host of the PLD
    p.finish('x.org', 'x.org', T0 + 10);
    expect(p.inFlight('x.org')).toBe(1);
    expect(p.canStart('x.org', 'x.org', T0 + 10)).toBe(true);
  });

  it('defaults to 1000 ms and one request per host', () => {
    const p = new Politeness();
    p.start('x.org', 'x.org', T0);
    p.finish('x.org', 'x.org', T0 + 100);
    // the delay counts from the end of the last request (a fetch may make several: robots.txt, redirect hops)
    expect(p.readyAt('x.org', 'x.org', T0 + 100)).toBe(T0 + 1100);
    p.start('x.org', 'x.org', T0 + 1100);
    expect(p.canStart('x.org', 'x.org', T0 + 5000)).toBe(false);
  });

  it('uses the larger of delayMs and a host Crawl-delay', () => {
    const p = new Politeness({ delayMs: 1000 });
    p.setCrawlDelay('slow.org', 5000);
    p.start('slow.org', 'slow.org', T0);
    p.finish('slow.org', 'slow.org', T0 + 50);
    expect(p.readyAt('slow.org', 'slow.org', T0 + 50)).toBe(T0 + 5050);
    p.setCrawlDelay('fast.org', 200);
    p.start('fast.org', 'fast.org', T0);
    p.finish('fast.org', 'fast.org', T0 + 50);
    expect(p.readyAt('fast.org', 'fast.org', T0 + 50)).toBe(T0 + 1050);
    p.setCrawlDelay('slow.org', null);
    expect(p.readyAt('slow.org', 'slow.org', T0 + 50)).toBe(T0 + 1050);
  });

  it('keeps Crawl-delay per host (robots.txt is per host) and spaces a PLD by the largest of its hosts (issue 14 item 5)', () => {
    const p = new Politeness({ delayMs: 100 });
    p.setCrawlDelay('www.a.org', 3000, 'a.org');
    p.setCrawlDelay('data.a.org', 500, 'a.org');
    p.start('a.org', 'a.org', T0);
    p.finish('a.org', 'a.org', T0);
    expect(p.readyAt('a.org', 'a.org', T0)).toBe(T0 + 3000); // the PLD waits for its slowest host
    expect(p.readyAt('b.org', 'b.org', T0)).toBe(T0); // another PLD is not affected
    p.setCrawlDelay('www.a.org', null, 'a.org'); // that host's robots.txt dropped its Crawl-delay
    expect(p.readyAt('a.org', 'a.org', T0)).toBe(T0 + 500);
    p.setCrawlDelay('data.a.org', 0, 'a.org');
    expect(p.readyAt('a.org', 'a.org', T0)).toBe(T0 + 100);
  });

  it('backs a PLD off until Retry-After ends; a shorter back-off does not shorten it', () => {
    const p = new Politeness({ delayMs: 100 });
    p.start('busy.org', 'busy.org', T0);
    p.finish('busy.org', 'busy.org', T0 + 20);
    p.backoff('busy.org', T0 + 30_000);
    p.backoff('busy.org', T0 + 10_000);
    expect(p.readyAt('busy.org', 'www.busy.org', T0 + 20)).toBe(T0 + 30_000);
    expect(p.canStart('busy.org', 'busy.org', T0 + 29_999)).toBe(false);
    expect(p.canStart('busy.org', 'busy.org', T0 + 30_000)).toBe(true);
  });

  it('send gate: requests leave delayMs apart at any host concurrency, after the last end, a Crawl-delay or a back-off (issue 15)', () => {
    const p = new Politeness({ delayMs: 100, hostConcurrency: 2 });
    expect(p.sendAt('a.org', T0)).toBe(T0); // never sent: now
    p.start('a.org', 'a.org', T0);
    p.start('a.org', 'a.org', T0 + 100); // two fetches handed out; their requests leave at the gate
    p.sent('a.org', 'a.org', T0 + 40); // the first leaves late (it waited for robots.txt)
    expect(p.sendAt('a.org', T0 + 100)).toBe(T0 + 140); // the second waits 100 ms after that one left
    expect(p.sendAt('b.org', T0 + 100)).toBe(T0 + 100); // another PLD has its own gate
    p.sent('a.org', 'a.org', T0 + 140);
    p.finish('a.org', 'a.org', T0 + 300); // an end: the next leaves 100 ms after it
    expect(p.sendAt('a.org', T0 + 300)).toBe(T0 + 400);
    p.setCrawlDelay('a.org', 1000);
    p.sent('a.org', 'a.org', T0 + 400);
    expect(p.sendAt('a.org', T0 + 400)).toBe(T0 + 1400); // the Crawl-delay is larger than delayMs
    p.backoff('a.org', T0 + 5000);
    expect(p.sendAt('a.org', T0 + 1400)).toBe(T0 + 5000); // Retry-After
  });

  it('a fetch that sent no request takes no slot: the next start is as if it had not started (unless another started since)', () => {
    const p = new Politeness({ delayMs: 1000, hostConcurrency: 2 });
    p.start('a.org', 'a.org', T0);
    p.finish('a.org', 'a.org', T0 + 100);
    const before = p.start('a.org', 'a.org', T0 + 1100); // e.g. a URL of a dead host whose robots.txt failure is cached
    p.finishUnsent('a.org', 'a.org', T0 + 1100, before);
    expect(p.readyAt('a.org', 'a.org', T0 + 1101)).toBe(T0 + 1101); // not T0 + 2100
    expect(p.sendAt('a.org', T0 + 1101)).toBe(T0 + 1101);
    // Another start after it: that one's slot stays.
    const first = p.start('a.org', 'a.org', T0 + 2000);
    p.start('a.org', 'a.org', T0 + 3000);
    p.finishUnsent('a.org', 'a.org', T0 + 2000, first);
    expect(p.readyAt('a.org', 'a.org', T0 + 3001)).toBe(T0 + 4000);
  });

  it('rejects bad and unknown options', () => {
    expect(() => new Politeness({ delayMs: -1 })).toThrow(/delayMs/);
    expect(() => new Politeness({ hostConcurrency: 0 })).toThrow(/hostConcurrency/);
    expect(() => new Politeness({ delay: 5 } as never)).toThrow(/Unknown politeness option "delay"/);
  });
});
