// What ended a crawl, from the run loop's facts: an operator's stop is told apart from a signal.
import { describe, expect, it } from 'vitest';
import { describeStop } from '../../src/commands/summary-text.ts';
import { type StopFacts, stopReason } from '../../src/crawl-log/tally.ts';

const facts = (f: Partial<StopFacts>): StopFacts => ({ offline: false, aborted: false, budgetLeft: 10, queued: 0, pldBudgetReached: false, depthDropped: 0, ...f });
const opts = { maxDocs: 10, maxDocsPerPld: 5, maxDepth: 3, maxOfflineMs: 1000 };

describe('stopReason', () => {
  it('says "stopped" for the dashboard\'s stop and "signal" for Ctrl-C, before any budget reason', () => {
    expect(stopReason(facts({ aborted: true, stopped: true, budgetLeft: 0 }))).toBe('stopped');
    expect(stopReason(facts({ aborted: true }))).toBe('signal');
    expect(stopReason(facts({ aborted: true, stopped: false }))).toBe('signal');
    expect(stopReason(facts({ budgetLeft: 0 }))).toBe('max-docs');
    expect(stopReason(facts({}))).toBe('frontier-empty');
    expect(describeStop({ stoppedBy: 'stopped' }, opts)).toMatch(/from the dashboard/);
  });
});
