// **renderReport** writes the crawl report: one self-contained HTML file, charts as inline SVG rendered in Node by
// Observable Plot on a linkedom DOM (the same chart code as the live dashboard), no script and no network.
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import { LABELS } from '../metrics/index.ts';
import { armsChart, barsChart, harvestChart } from './charts.js';
import type { ReportCrawl, ReportData } from './report-data.ts';

const esc = (s: unknown): string => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const pct = (x: number | null): string => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null, digits = 1): string => (x === null ? '–' : x.toFixed(digits));

/** A fresh DOM per chart: Plot appends nothing to it, it only creates elements. */
function dom(): unknown {
  return parseHTML('<!doctype html><html><body></body></html>').document;
}

function table(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>, attrs = ''): string {
  const head = headers.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table ${attrs}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** A chart, its caption, and the plotted values as a table (readable without the picture; the tests compare them). */
function figure(id: string, caption: string, svg: string, data: string): string {
  return `<figure id="${id}"><figcaption>${esc(caption)}</figcaption>${svg}<details><summary>data</summary>${data}</details></figure>`;
}

function harvestSection(data: ReportData): string {
  const series = [...data.crawls.map((c) => ({ name: c.name, points: c.harvestPoints })), ...data.references.map((r) => ({ name: r.name, points: r.harvestPoints }))];
  const svg = harvestChart(Plot, series, { document: dom(), width: 760, height: 340 }).outerHTML;
  const rows = series.flatMap((s) => s.points.map(([k, rdf]) => [s.name, k, rdf]));
  return figure('harvest', 'Harvest: RDF documents found against fetches (thesis Fig. 4-1)', svg, table(['series', 'fetches', 'RDF documents'], rows, 'class="data" data-chart="harvest"'));
}

/** Further curves against fetches (e.g. BeeBot's reward: external links found), one plot per entry. */
function extraCurves(data: ReportData): string {
  return data.curves
    .map((c, i) => {
      const svg = harvestChart(Plot, c.series.map((s) => ({ name: s.name, points: s.harvestPoints })), { document: dom(), width: 760, height: 340, yLabel: c.yLabel }).outerHTML;
      const rows = c.series.flatMap((s) => s.harvestPoints.map(([k, y]) => [s.name, k, y]));
      return figure(`curves-${i}`, c.title, svg, table(['series', 'fetches', c.yLabel], rows, `class="data" data-chart="curves-${i}"`));
    })
    .join('\n');
}

function pldSection(data: ReportData): string {
  const many = data.crawls.length > 1;
  const top = new Set(data.crawls.flatMap((c) => c.plds.slice(0, 20).map((p) => p.pld)));
  const rows = data.crawls.flatMap((c) => c.plds.filter((p) => top.has(p.pld)).map((p) => ({ key: p.pld, value: p.rdfDocuments, ...(many ? { group: c.name } : {}) })));
  const svg = rows.length === 0 ? '<p>No PLD fetched.</p>' : barsChart(Plot, rows, { document: dom(), width: 760, xLabel: 'RDF documents' }).outerHTML;
  const data2 = data.crawls.flatMap((c) => c.plds.map((p) => [c.name, p.pld, p.fetched, p.rdfDocuments, pct(p.fetched === 0 ? null : p.rdfDocuments / p.fetched), p.errors]));
  return figure('plds', 'RDF documents per PLD', svg, table(['crawl', 'PLD', 'fetched (requests sent)', 'RDF documents (not pages with embedded RDF)', 'harvest (RDF documents / fetched)', 'errors'], data2, 'class="data" data-chart="plds"'));
}

function precisionSection(data: ReportData): string {
  const many = data.crawls.length > 1;
  const rows = data.crawls.flatMap((c) =>
    c.metrics.labels.filter((l) => l.precision !== null && l.label !== 'N').map((l) => ({ key: l.label, value: l.precision as number, ...(many ? { group: c.name } : {}) })),
  );
  const svg = rows.length === 0 ? '<p>No labelled fetch.</p>' : barsChart(Plot, rows, { document: dom(), width: 760, xLabel: 'precision (%)', percent: true, marginLeft: 60 }).outerHTML;
  const data2 = data.crawls.flatMap((c) => c.metrics.labels.filter((l) => LABELS.includes(l.label)).map((l) => [c.name, l.label, l.nL, l.nLS, l.nLT, pct(l.precision)]));
  return figure('precision', 'Precision per predicted label R / HR / H (thesis §9, Table 4-6)', svg, table(['crawl', 'label', 'N_L', 'N_LS', 'N_LT', 'precision'], data2, 'class="data" data-chart="precision"'));
}

function rulesSection(data: ReportData): string {
  const rows = data.crawls.flatMap((c) => c.metrics.rules.map((r) => [c.name, r.label, r.rule, r.nRLS, r.nRLT, num(r.support), num(r.confidence)]));
  if (rows.length === 0) return '';
  return `<section id="rules"><h2>Relevance rules: support and confidence (thesis §9, Fig. 4-1)</h2>${table(['crawl', 'label', 'rule', 'N_RLS', 'N_RLT', 'support %', 'confidence %'], rows, 'class="data" data-chart="rules"')}</section>`;
}

function pullsSection(c: ReportCrawl, i: number): string {
  if (c.pulls.length === 0) return '';
  const svg = armsChart(Plot, c.pulls, { document: dom(), width: 760, xLabel: 'fetches', yLabel: c.bandit && c.bandit !== 'none' ? 'pulls' : 'fetches of the PLD' }).outerHTML;
  const title = c.bandit && c.bandit !== 'none' ? `Bandit (${c.bandit}): pulls per arm over the crawl — ${c.name}` : `Fetches per PLD over the crawl — ${c.name}`;
  return figure(`pulls-${i}`, title, svg, table(['fetches', 'arm', 'pulls'], c.pulls.map((p) => [p.x, p.arm, p.value]), `class="data" data-chart="pulls-${i}"`));
}

function errorsSection(data: ReportData): string {
  const many = data.crawls.length > 1;
  const rows = data.crawls.flatMap((c) => c.errorsByKind.map((e) => ({ key: e.kind, value: e.count, ...(many ? { group: c.name } : {}) })));
  if (rows.length === 0) return '<section id="errors"><h2>Errors</h2><p>No errors.</p></section>';
  const svg = barsChart(Plot, rows, { document: dom(), width: 760, xLabel: 'records', marginLeft: 240 }).outerHTML;
  const data2 = data.crawls.flatMap((c) => c.errorsByKind.map((e) => [c.name, e.kind, e.count]));
  return figure('errors', 'Errors by kind', svg, table(['crawl', 'kind', 'records'], data2, 'class="data" data-chart="errors"'));
}

function summary(data: ReportData): string {
  const rows = data.crawls.map((c) => [c.name, c.metrics.fetched, c.metrics.n, c.metrics.nRdf, pct(c.metrics.harvestRate), pct(c.metrics.okHarvestRate), c.metrics.outcomes.error]);
  return table(['crawl', 'fetched', 'N (status 200)', 'N_RDF', 'harvest rate (per fetch)', 'RDF of status 200', 'errors'], rows, 'class="data" id="summary"');
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1rem 2rem 3rem;color:#222;max-width:64rem}
h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:1.6rem}figure{margin:1.4rem 0}figcaption{font-weight:600;margin-bottom:.4rem}
table{border-collapse:collapse;font-size:.85rem}th,td{text-align:left;padding:.1rem .5rem;border-bottom:1px solid #eee}
details{margin-top:.3rem}summary{cursor:pointer;color:#555}svg{max-width:100%;height:auto}`;

/** The whole report as one HTML string. `title` defaults to "rdfscout crawl report". */
export function renderReport(data: ReportData, opts: { title?: string; note?: string } = {}): string {
  const title = opts.title ?? 'rdfscout crawl report';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<style>${STYLE}</style></head>
<body>
<h1>${esc(title)}</h1>
${opts.note ? `<p>${esc(opts.note)}</p>` : ''}
${summary(data)}
${harvestSection(data)}
${extraCurves(data)}
${pldSection(data)}
${precisionSection(data)}
${rulesSection(data)}
${data.crawls.map(pullsSection).join('\n')}
${errorsSection(data)}
<p style="color:#777">Written by rdfscout. Harvest rate = N_RDF / fetched (thesis §9, Table 4-4); charts by Observable Plot, rendered to SVG without JavaScript.</p>
</body></html>
`;
}
