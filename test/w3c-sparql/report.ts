// The W3C suite's outcomes as a table (tests passed per category and dataset mode) and as a baseline (the passing tests).
import { CATEGORIES } from './manifest.ts';
import { MODES, type Mode, type Outcome } from './run-suite.ts';

/** The tests that passed, per mode, sorted: what a later run must pass too. */
export type Baseline = Record<Mode, string[]>;

export function baselineOf(outcomes: readonly Outcome[]): Baseline {
  const passed = (mode: Mode): string[] => outcomes.filter((o) => o.mode === mode && o.detail === null).map((o) => o.id).sort();
  return { crawl: passed('crawl'), dataset: passed('dataset') };
}

/** One line per category: its tests, and how many passed in each mode; then the totals. */
export function passTable(outcomes: readonly Outcome[]): string {
  const lines = [`${'category'.padEnd(20)}${'tests'.padStart(6)}${MODES.map((m) => m.padStart(10)).join('')}`];
  const row = (name: string, of: readonly Outcome[]): string => {
    const tests = of.filter((o) => o.mode === 'crawl').length;
    const cells = MODES.map((m) => {
      const passed = of.filter((o) => o.mode === m && o.detail === null).length;
      return `${passed}`.padStart(10);
    });
    return `${name.padEnd(20)}${String(tests).padStart(6)}${cells.join('')}`;
  };
  for (const c of CATEGORIES) lines.push(row(c, outcomes.filter((o) => o.category === c)));
  lines.push(row('total', outcomes));
  return lines.join('\n');
}
