// **rdfscout links**: browse BeeBot's internal, external and bad links tables of a crawl (BeeBot §2).
import { type ExternalLinkRow, type InternalLinkRow, readBadLinks, readSites } from '../beebot/link-tables.ts';
import { readRecords } from '../crawl/records.ts';
import { ArgumentError } from '../errors.ts';
import type { CrawlState } from '../state/open-state.ts';
import { type FlagSpec, boolFlag, oneOfFlag, parseFlags, requirePositional, strFlag } from './args.ts';
import { withCrawl } from './open-crawl.ts';
import { writeOut } from './stdout.ts';

export const LINKS_USAGE = `Usage: rdfscout links DIR --external|--internal|--bad [--site S] [--grep TEXT] [--format table|csv|json]

BeeBot's link tables of the crawl in DIR (crawled with --reward external-links):
  --external        links to other sites, with the page found on, its level, anchor text and surrounding text
  --internal        links inside a site, with the page found on, its level, whether they were processed, and why not
  --bad             hrefs that are not crawlable URLs (javascript:, mailto:, malformed, …)
  --site S          one site only: its PLD (spbu.ru), short name or number from the site list
  --grep TEXT       rows whose URL, page, anchor or context contain TEXT (case-insensitive)
  --format F        table (default), csv, or json (an array of objects)`;

const FLAGS: FlagSpec = {
  external: { type: 'boolean' },
  internal: { type: 'boolean' },
  bad: { type: 'boolean' },
  site: { type: 'string' },
  grep: { type: 'string' },
  format: { type: 'string' },
};

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

type Table = 'external' | 'internal' | 'bad';

/** Resolves `--site` to a PLD: a short name or number from the site list, else the value itself. */
async function resolveSite(state: CrawlState, site: string | undefined): Promise<string | undefined> {
  if (site === undefined) return undefined;
  for (const row of await readSites(state)) {
    if (row.shortName === site || String(row.number) === site || row.start === site) return row.site;
  }
  return site.toLowerCase();
}

/** The rows of one table, filtered. */
export async function readLinkRows(state: CrawlState, table: Table, filter: { site?: string; grep?: string } = {}): Promise<LinkRowOut[]> {
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
  const range = site === undefined ? {} : { gt: `${site}!`, lt: `${site}!\uffff` };
  if (table === 'external') {
    for await (const v of state.sub.extlinks.values(range)) {
      const r = v as ExternalLinkRow;
      const row: LinkRowOut = { url: r.url, site: r.site, page: r.page, level: r.level, anchor: r.anchor, context: r.context, processed: null };
      if (matches(row)) out.push(row);
    }
    return out;
  }
  // A record for the URL: processed (a robots refusal says so). No record: why it was not queued, or still queued.
  const done = new Map<string, string>();
  for await (const rec of readRecords(state)) {
    const why = rec.outcome === 'denied' ? 'robots' : '';
    done.set(rec.url, why);
    done.set(rec.finalUrl, why);
  }
  for await (const v of state.sub.links.values(range)) {
    const r = v as InternalLinkRow;
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

/** `rdfscout links DIR --external|--internal|--bad …`. */
export async function runLinksCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const { values, positionals } = parseFlags(argv, FLAGS, LINKS_USAGE);
  const dir = requirePositional(positionals, 'the crawl folder DIR');
  const tables = (['external', 'internal', 'bad'] as const).filter((t) => boolFlag(values, t));
  if (tables.length !== 1) throw new ArgumentError(`Give exactly one of --external, --internal, --bad`);
  const table = tables[0]!;
  const format = oneOfFlag(values, 'format', ['table', 'csv', 'json'] as const, 'table');
  const filter: { site?: string; grep?: string } = {};
  const site = strFlag(values, 'site');
  const grep = strFlag(values, 'grep');
  if (site !== undefined) filter.site = site;
  if (grep !== undefined) filter.grep = grep;
  const text = await withCrawl(dir, async (state) => formatLinkRows(await readLinkRows(state, table, filter), table, format));
  await writeOut(text, out);
  return 0;
}
