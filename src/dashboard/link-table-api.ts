// **readLinkTable** answers `/api/links` and `/api/links.csv`: BeeBot's internal or external link table (BeeBot §2),
// filtered by site, kind (RDF / HTML / other, from the extension) and anchor text.
import { formatLinkRows, type LinkRowOut, readLinkRows } from '../beebot/link-rows.ts';
import type { CrawlState } from '../state/open-state.ts';
import { type LinkKind, linkKind } from './link-kind.ts';

const JSON_LIMIT = 1000;

export interface TableAnswer {
  status: number;
  type: string;
  body: string;
}

/**
 * Query parameters: `table` = external (default) | internal, `site` (PLD or short name), `kind` = rdf | html |
 * other, `anchor` (substring of the anchor text, case-insensitive). JSON holds at most 1000 rows (and the total);
 * CSV holds every row.
 */
export async function readLinkTable(state: CrawlState, params: URLSearchParams, format: 'json' | 'csv'): Promise<TableAnswer> {
  const table = params.get('table') ?? 'external';
  if (table !== 'external' && table !== 'internal') return json(400, { error: `table must be external or internal, not "${table}".` });
  const kind = params.get('kind') || null;
  if (kind !== null && kind !== 'rdf' && kind !== 'html' && kind !== 'other') return json(400, { error: `kind must be rdf, html or other, not "${kind}".` });
  const anchor = params.get('anchor')?.toLowerCase() || null;
  const site = params.get('site') || undefined;
  const rows = (await readLinkRows(state, table, site === undefined ? {} : { site })).filter(
    (r: LinkRowOut) => (kind === null || linkKind(r.url) === (kind as LinkKind)) && (anchor === null || r.anchor.toLowerCase().includes(anchor)),
  );
  if (format === 'csv') return { status: 200, type: 'text/csv; charset=utf-8', body: formatLinkRows(rows, table, 'csv') };
  return json(200, { table, total: rows.length, rows: rows.slice(0, JSON_LIMIT).map((r) => ({ ...r, kind: linkKind(r.url) })) });
}

function json(status: number, value: unknown): TableAnswer {
  return { status, type: 'application/json; charset=utf-8', body: JSON.stringify(value) };
}
