// **Charts** of rdfscout, written once for Observable Plot: the live dashboard draws them in the page, the report
// renders them to SVG in Node (linkedom). Each takes the Plot module and plain data, and returns a DOM element.

/** Shared look: small, readable, no animation; `opts.document` renders outside a browser (linkedom). */
function frame(opts) {
  return { ...(opts.document ? { document: opts.document } : {}), width: opts.width ?? 640, height: opts.height ?? 260, marginLeft: 56, marginBottom: 36, style: { fontSize: '12px', overflow: 'visible' } };
}

/**
 * The harvest curve (thesis Fig. 4-1): RDF documents found against fetches, one line per series
 * (a crawler, breadth-first, the oracle). `series`: [{ name, points: [[fetches, rdfDocuments], …] }].
 */
export function harvestChart(Plot, series, opts = {}) {
  const rows = [];
  for (const s of series) for (const [x, y] of s.points) rows.push({ name: s.name, x, y });
  return Plot.plot({
    ...frame(opts),
    x: { label: `${opts.xLabel ?? 'fetches'} →`, grid: true },
    y: { label: `↑ ${opts.yLabel ?? 'RDF documents'}`, grid: true, zero: true },
    color: { legend: series.length > 1, domain: series.map((s) => s.name) },
    marks: [Plot.ruleY([0]), Plot.line(rows, { x: 'x', y: 'y', stroke: 'name', strokeWidth: 1.5 })],
  });
}

/** Queued vs crawled over time: `points` [{ t (epoch ms), queued, crawled }]. */
export function queueChart(Plot, points, opts = {}) {
  const rows = points.flatMap((p) => [
    { t: new Date(p.t), n: p.queued, what: 'queued' },
    { t: new Date(p.t), n: p.crawled, what: 'crawled' },
  ]);
  return Plot.plot({
    ...frame(opts),
    x: { label: 'time →', type: 'time' },
    y: { label: '↑ URLs', grid: true, zero: true },
    color: { legend: true, domain: ['queued', 'crawled'] },
    marks: [Plot.line(rows, { x: 't', y: 'n', stroke: 'what' })],
  });
}

/**
 * The bandit's arms over time: `points` [{ t or x, arm, value }]; `xLabel` names the x axis (time or fetches),
 * `yLabel` the value (pulls, mean reward, index).
 */
export function armsChart(Plot, points, opts = {}) {
  const rows = points.map((p) => ({ x: p.t !== undefined ? new Date(p.t) : p.x, arm: p.arm, value: p.value }));
  return Plot.plot({
    ...frame(opts),
    x: { label: `${opts.xLabel ?? 'time'} →`, ...(points[0]?.t !== undefined ? { type: 'time' } : {}) },
    y: { label: `↑ ${opts.yLabel ?? 'pulls'}`, grid: true, zero: true },
    color: { legend: true },
    marks: [Plot.line(rows, { x: 'x', y: 'value', stroke: 'arm' })],
  });
}

/** Longest label shown on a bar chart's axis; longer ones end in an ellipsis (the table under the chart has them whole). */
const MAX_LABEL_CHARS = 34;

/** A label cut to {@link MAX_LABEL_CHARS}. */
function shortLabel(k) {
  const s = String(k);
  return s.length > MAX_LABEL_CHARS ? `${s.slice(0, MAX_LABEL_CHARS - 1)}…` : s;
}

/**
 * Horizontal bars: `rows` [{ key, value, group? }] (per-PLD RDF documents, errors by kind, precision per label);
 * with `group` the bars of one key stand side by side, told apart by colour and the legend (six crawls' names on
 * every key would not fit). The left margin fits the longest key label (cut at {@link MAX_LABEL_CHARS} characters),
 * and each key gets the height its bars need, so no label overlaps another or leaves the chart.
 */
export function barsChart(Plot, rows, opts = {}) {
  const keys = [...new Set(rows.map((r) => r.key))];
  const grouped = rows.some((r) => r.group !== undefined);
  const groups = [...new Set(rows.map((r) => r.group))];
  const longest = Math.max(1, ...keys.map((k) => shortLabel(k).length));
  const marginLeft = Math.max(opts.marginLeft ?? 0, 7 * longest + 20);
  const perKey = grouped ? 10 * groups.length + 8 : 24;
  return Plot.plot({
    ...frame({ ...opts, height: opts.height ?? Math.max(80, perKey * keys.length + 60) }),
    marginLeft,
    x: { label: `${opts.xLabel ?? 'count'} →`, grid: true, ...(opts.percent ? { percent: true } : {}) },
    ...(grouped
      ? { y: { axis: null, domain: groups }, fy: { label: null, axis: 'left', domain: keys, tickFormat: shortLabel, padding: 0.2 }, color: { legend: true, domain: groups } }
      : { y: { label: null, domain: keys, tickFormat: shortLabel } }),
    marks: [
      Plot.barX(rows, { x: 'value', y: grouped ? 'group' : 'key', ...(grouped ? { fy: 'key', fill: 'group' } : { fill: 'steelblue' }) }),
      Plot.ruleX([0]),
    ],
  });
}
