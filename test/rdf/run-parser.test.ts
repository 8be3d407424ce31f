// runParserInto: chunks streamed to a real parser, a CPU-time budget (not wall clock), a stall guard.
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Quad } from '@rdfjs/types';
import { StreamParser } from 'n3';
import { describe, expect, it } from 'vitest';
import { BlankNodeRelabeller, BudgetExceededError, createBudget, runParserInto, type StreamingParser } from '../../src/rdf/run-parser.ts';

const line = (i: number) => `<http://a.org/s${i}> <http://a.org/p> "value ${i}" .\n`;

/** `n` chunks of `per` N-Triples lines each, with a pause of `pauseMs` before each: a body arriving slowly. */
async function* slowly(n: number, per: number, pauseMs: number): AsyncGenerator<string> {
  for (let c = 0; c < n; c++) {
    await sleep(pauseMs);
    yield Array.from({ length: per }, (_, k) => line(c * per + k)).join('');
  }
}

function ntriples(): StreamingParser {
  return new StreamParser({ format: 'application/n-triples' }) as unknown as StreamingParser;
}

describe('runParserInto', () => {
  it('hands every quad to the target as it is parsed, waiting for the target between chunks', async () => {
    const seen: Quad[] = [];
    let drains = 0;
    const target = {
      add: (q: Quad) => seen.push(q),
      drained: async () => {
        drains++;
      },
    };
    const r = await runParserInto(ntriples(), slowly(5, 100, 0), new BlankNodeRelabeller('x'), createBudget(1e6, 30_000), target);
    expect(r).toEqual({ count: 500, error: null });
    expect(seen).toHaveLength(500);
    expect(seen[499]?.subject.value).toBe('http://a.org/s499');
    expect(drains).toBe(5);
  });

  it('counts CPU time, not wall time: a document arriving over 600 ms parses under a 100 ms budget', async () => {
    const t0 = performance.now();
    const r = await runParserInto(ntriples(), slowly(12, 20, 50), new BlankNodeRelabeller('x'), createBudget(1e6, 100), { add: () => {} });
    expect(performance.now() - t0).toBeGreaterThan(600); // the old wall-clock deadline would have failed it
    expect(r.error).toBeNull();
    expect(r.count).toBe(240);
  });

  it('fails the document once the CPU clock passes the budget, between chunks', async () => {
    let cpu = 0;
    const clock = () => (cpu += 15); // each reading of the clock: 15 ms more (a chunk costs 15 ms)
    const budget = createBudget(1e6, 50, clock);
    const r = await runParserInto(ntriples(), slowly(10, 10, 0), new BlankNodeRelabeller('x'), budget, { add: () => {} });
    expect(r.error).toBeInstanceOf(BudgetExceededError);
    expect(r.error?.message).toMatch(/more than 50 ms of CPU time/);
    expect(r.count).toBeLessThan(100); // stopped early: not every chunk was parsed
    expect(budget.cpuMs).toBeGreaterThan(50);
  });

  it('fails a parser that stops answering after `timeBudgetMs` of wall time', async () => {
    const stuck = Object.assign(new EventEmitter(), { write: () => true, end: () => undefined, destroy: () => undefined }) as unknown as StreamingParser;
    const t0 = performance.now();
    const r = await runParserInto(stuck, 'text that is never parsed', new BlankNodeRelabeller('x'), createBudget(1e6, 80), { add: () => {} });
    expect(r.error?.message).toMatch(/no progress for 80 ms/);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(75);
  });
});
