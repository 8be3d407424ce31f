// **Link rows**: BeeBot's internal, external and bad links tables as rows to print (BeeBot §2), filtered by site or text.
import { asShardSet, type CrawlSource, readMergedRecords } from '../crawl-log/shard-merge.ts';
import type { CrawlState } from '../state/open-state.ts';
import { readBadLinks, readExternalLinks, readInternalLinks, readSites } from './link-tables.ts';

/** One output row: every table has these fields (blank where a table has none). */
export interface LinkRowOut {
  url: string;
  site: string;
  page: string;
  level: number | null;
  anchor: string;
  context: string;
  /** Internal links: a record for the URL exists. Null for other tables. */
  processed: boolean | null;
  /**
   * Bad links: why the href is not a URL. Internal links: why it was not fetched (`depth`, `out-of-scope`,
   * `excluded`, `not-included`, `filtered` by the strategy, `robots`, or still queued when the budget ran out).
   */
  reason?: string;
}

/** One of BeeBot's link tables. */
export type Table = 'external' | 'internal' | 'bad';

/** Resolves `--site` to a PLD: a short name or number from the site list, else the value itself. */
async function resolveSite(state: CrawlState, site: string | undefined): Promise<string | undefined> {
  if (site === undefined) return undefined;
  for (const row of await readSites(state)) {
    if (row.shortName === site || String(row.number) === site || row.start === site) return row.site;
  }
  return site.toLowerCase();
}

/**
 * The rows of one table, filtered. Over several shards read as one crawl: each shard's rows, a row that
 * two shards hold (a page fetched in both) once; an internal link is processed when any shard fetched it.
 */
export async function readLinkRows(source: CrawlSource, table: Table, filter: { site?: string; grep?: string } = {}): Promise<LinkRowOut[]> {
  const set = asShardSet(source);
  const done = table === 'internal' ? await processedUrls(source) : new Map<string, string>();
  const seen = new Set<string>();
  const out: LinkRowOut[] = [];
  for (const state of set.states) {
    for (const row of await readShardRows(state, table, filter, done)) {
      const key = JSON.stringify(row);
      if (set.states.length > 1 && seen.has(key)) continue;
      seen.add(key);
      out.push(row);
    }
  }
  return out;
}

/** URL → '' (fetched) or 'robots' (refused), for every URL and final URL of the merged records. */
async function processedUrls(source: CrawlSource): Promise<Map<string, string>> {
  const done = new Map<string, string>();
  for await (const { record: rec } of readMergedRecords(asShardSet(source))) {
    const why = rec.outcome === 'denied' ? 'robots' : '';
    done.set(rec.url, why);
    done.set(rec.finalUrl, why);
  }
  return done;
}

/** One shard's rows of one table, filtered. */
async function readShardRows(state: CrawlState, table: Table, filter: { site?: string; grep?: string }, done: ReadonlyMap<string, string>): Promise<LinkRowOut[]> {
  const site = await resolveSite(state, filter.site);
  const needle = filter.grep?.toLowerCase();
  const matches = (r: LinkRowOut) =>
    needle === undefined || [r.url, r.page, r.anchor, r.context, r.reason ?? ''].some((f) => f.toLowerCase().includes(needle));
  const out: LinkRowOut[] = [];
  if (table === 'bad') {
    for await (const b of readBadLinks(state)) {
      if (site !== undefined && b.site !== site) continue;
      const row: LinkRowOut = { url: b.href, site: b.site, page: b.page, level: null, anchor: '', context: '', processed: null, reason: b.reason };
      if (matches(row)) out.push(row);
    }
    return out;
  }
  if (table === 'external') {
    for await (const r of readExternalLinks(state, site)) {
      const row: LinkRowOut = { url: r.url, site: r.site, page: r.page, level: r.level, anchor: r.anchor, context: r.context, processed: null };
      if (matches(row)) out.push(row);
    }
    return out;
  }
  // A record for the URL: processed (a robots refusal says so). No record: why it was not queued, or still queued.
  for await (const r of readInternalLinks(state, site)) {
    const fetched = done.get(r.url);
    const reason = fetched ?? r.notQueued ?? 'queued (budget or stop came first)';
    const row: LinkRowOut = { url: r.url, site: r.site, page: r.page, level: r.level, anchor: '', context: '', processed: fetched !== undefined, reason };
    if (matches(row)) out.push(row);
  }
  return out;
}

function columnsOf(table: Table): Array<keyof LinkRowOut> {
  if (table === 'external') return ['site', 'url', 'page', 'level', 'anchor', 'context'];
  if (table === 'internal') return ['site', 'url', 'page', 'level', 'processed', 'reason'];
  return ['site', 'url', 'page', 'reason'];
}

function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Formats rows as a text table, CSV, or a JSON array. */
export function formatLinkRows(rows: readonly LinkRowOut[], table: Table, format: 'table' | 'csv' | 'json'): string {
  if (format === 'json') return `${JSON.stringify(rows, null, 2)}\n`;
  const cols = columnsOf(table);
  if (format === 'csv') return `${[cols.join(','), ...rows.map((r) => cols.map((c) => csvCell(r[c])).join(','))].join('\n')}\n`;
  const cell = (r: LinkRowOut, c: keyof LinkRowOut) => {
    const v = r[c];
    const s = v === null || v === undefined ? '' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
    return s.length > 60 ? `${s.slice(0, 59)}…` : s;
  };
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)));
  const line = (cells: string[]) => cells.map((s, i) => s.padEnd(widths[i]!)).join('  ').trimEnd();
  return `${[line(cols), ...rows.map((r) => line(cols.map((c) => cell(r, c)))), `(${rows.length} ${table} link${rows.length === 1 ? '' : 's'})`].join('\n')}\n`;
}

