// **printTable**: a policy × column table of means ± 95% intervals, × a baseline and × the best fixed rule (bench/bandit.ts).

function meanAndInterval(xs: number[]): { mean: number; half: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1);
  return { mean, half: xs.length > 1 ? (1.96 * Math.sqrt(variance)) / Math.sqrt(xs.length) : Number.NaN };
}

/** BeeBot §3's fixed rules (and the frontier's own order): the yardstick of "within a few percent of the best fixed rule". */
const FIXED_RULES = ['none', 'round-robin', 'r1', 'r2', 'r3'];

export function printTable(
  say: (line: string) => void,
  title: string,
  columns: string[],
  labels: string[],
  cell: (label: string, col: string) => number[],
  baseline: string,
): void {
  say(`\n${title}`);
  const fixed = labels.filter((l) => FIXED_RULES.includes(l));
  const yardstick = fixed.length > 0 ? fixed : labels;
  const base = Object.fromEntries(columns.map((c) => [c, meanAndInterval(cell(baseline, c)).mean]));
  const best = Object.fromEntries(columns.map((c) => [c, Math.max(...yardstick.map((l) => meanAndInterval(cell(l, c)).mean))]));
  const rows = labels.map((l) => [
    l,
    ...columns.map((c) => {
      const { mean, half } = meanAndInterval(cell(l, c));
      const pm = Number.isNaN(half) ? '' : ` ± ${half.toFixed(0)}`;
      return `${mean.toFixed(0)}${pm} (×${(mean / base[c]!).toFixed(2)}) [${(mean / best[c]!).toFixed(2)}]`;
    }),
  ]);
  const head = ['policy', ...columns];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  say(line(head));
  say(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) say(line(r));
}

