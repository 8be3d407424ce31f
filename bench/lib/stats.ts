// **Summary statistics** for benchmark figures repeated over seeds or rounds: median, mean, sample standard deviation, min/max.

/** Mean and spread of one figure over repeated runs. */
export interface Spread {
  mean: number;
  /** Sample standard deviation (n − 1); 0 for a single value. */
  sd: number;
  min: number;
  max: number;
  n: number;
}

/** Mean, sd, min and max of `values`; NaN everywhere when empty. */
export function spreadOf(values: readonly number[]): Spread {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, sd: Number.NaN, min: Number.NaN, max: Number.NaN, n };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = n < 2 ? 0 : values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return { mean, sd: Math.sqrt(variance), min: Math.min(...values), max: Math.max(...values), n };
}

/** `mean ± sd` with `digits` decimals (just the mean when there is one value); `–` when there is none. */
export function formatSpread(s: Spread, digits = 0): string {
  if (s.n === 0 || Number.isNaN(s.mean)) return '–';
  return s.n < 2 ? s.mean.toFixed(digits) : `${s.mean.toFixed(digits)} ± ${s.sd.toFixed(digits)}`;
}

/** `a / b` or null when b is 0. */
export function ratioOrNull(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}

/** A percentage with `digits` decimals, `–` for null. */
export function formatPercent(value: number | null, digits = 1): string {
  return value === null || Number.isNaN(value) ? '–' : `${(value * 100).toFixed(digits)}%`;
}

/** The median of `values` (the mean of the middle two when their number is even); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
