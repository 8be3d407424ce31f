// Types of charts.js (plain JavaScript, so that the browser loads it as it is).
type PlotModule = typeof import('@observablehq/plot');
type Chart = (SVGSVGElement | HTMLElement) & { outerHTML: string };
interface ChartOptions {
  width?: number;
  height?: number;
  xLabel?: string;
  yLabel?: string;
  marginLeft?: number;
  percent?: boolean;
  /** A DOM document to render into outside a browser (linkedom). */
  document?: unknown;
}
export function harvestChart(Plot: PlotModule, series: Array<{ name: string; points: Array<[number, number]> }>, opts?: ChartOptions): Chart;
export function queueChart(Plot: PlotModule, points: Array<{ t: number; queued: number; crawled: number }>, opts?: ChartOptions): Chart;
export function armsChart(Plot: PlotModule, points: Array<{ t?: number; x?: number; arm: string; value: number }>, opts?: ChartOptions): Chart;
export function barsChart(Plot: PlotModule, rows: Array<{ key: string; value: number; group?: string }>, opts?: ChartOptions): Chart;
