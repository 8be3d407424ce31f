// **Metric tables** as text (like the thesis's Tables 4-3, 4-5, 4-6 and Figure 4-1) and the harvest curve as CSV.
import type { CrawlMetrics } from './compute-metrics.ts';

/** Renders rows as an aligned text table (first column left-aligned, the rest right-aligned). */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const pct = (value: number | null, digits = 2): string => (value === null ? '–' : `${value.toFixed(digits)}%`);
const share = (count: number, total: number): string => (total === 0 ? `${count}` : `${count} (${Math.round((count / total) * 100)}%)`);

/** The metrics as the thesis prints them: summary, Table 4-3, Table 4-5, Table 4-6, Figure 4-1. */
export function formatMetricsTables(m: CrawlMetrics): string {
  const o = m.outcomes;
  const parts = [
    `Harvest rate: ${m.nRdf} RDF documents / ${m.fetched} fetched = ${pct(m.harvestRate * 100)}` +
      ` (${pct(m.okHarvestRate === null ? null : m.okHarvestRate * 100)} of the ${m.n} documents fetched with status 200)`,
    `Errors: ${m.figures.errors}; refused by robots.txt (not fetched): ${m.figures.denied}; unreadable content: ${m.figures.parseFailures}`,
    `Kept: ${m.nRdf} of ${m.figures.rdfDetected} documents detected as RDF kept ≥ 1 triple; ${m.figures.triples} triples; ${m.figures.statementsDropped} statements dropped in ${m.figures.documentsWithDrops} documents; ${m.figures.termsRepaired} terms repaired`,
    `True labels from: ${m.truthSource === 'truth' ? 'the truth file (records for unlisted URLs)' : 'the crawl records (HR = parent of a fetched RDF document)'}`,
    '',
    'Fetch outcomes (like Table 4-3)',
    renderTable(['docs', 'success', 'redirect', 'not allowed', 'error'], [
      [`${o.docs}`, share(o.success, o.docs), share(o.redirect, o.docs), share(o.notAllowed, o.docs), share(o.error, o.docs)],
    ]),
    '',
    'Documents and RDF per depth (like Table 4-5)',
    renderTable(
      ['depth', 'N', 'N_RDF'],
      [...m.depths.map((d) => [`${d.depth}`, `${d.n}`, `${d.rdf}`]), ['total', `${m.fetched}`, `${m.nRdf}`]],
    ),
    '',
    'Precision per predicted label (like Table 4-6)',
    renderTable(
      ['label', 'N_L', 'N_LS', 'N_LT', 'precision'],
      m.labels.map((l) => [l.label, `${l.nL}`, `${l.nLS}`, `${l.nLT}`, pct(l.precision === null ? null : l.precision * 100)]),
    ),
    '',
    'Rule support / confidence (like Figure 4-1)',
    m.rules.length === 0
      ? '(no rule fired on a fetched document)'
      : renderTable(
          ['rule', 'label', 'N_RLS', 'N_RLT', 'support', 'confidence'],
          m.rules.map((r) => [r.rule, r.label, `${r.nRLS}`, `${r.nRLT}`, pct(r.support), pct(r.confidence)]),
        ),
  ];
  return `${parts.join('\n')}\n`;
}

/** The harvest curve as CSV: `fetches,rdf_documents,harvest_rate` for k = 1 … fetched (harvest_rate = rdf / k). */
export function formatHarvestCsv(m: Pick<CrawlMetrics, 'harvestCurve'>): string {
  const lines = ['fetches,rdf_documents,harvest_rate'];
  for (const [i, rdf] of m.harvestCurve.entries()) lines.push(`${i + 1},${rdf},${(rdf / (i + 1)).toFixed(6)}`);
  return `${lines.join('\n')}\n`;
}
