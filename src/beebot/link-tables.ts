// **BeeBot's tables** in the crawl state (BeeBot §2): internal links, external links, bad links and the site list.
import { pldOf } from '../links/normalize-url.ts';
import type { BadLink, LinkFeatures } from '../links/types.ts';
import { readBadLinkRows } from '../crawl-log/record-store.ts';
import type { CrawlState } from '../state/open-state.ts';
import { type Txn, levelTxn } from '../state/txn.ts';

/**
 * A row of BeeBot's Internal Links table, in sublevel `links` under key `SITE!URL` (browsable by site).
 * "Processed" is not stored: it is derived at read time from the crawl records (a record for the URL exists),
 * so it can never disagree with what the crawl did.
 */
export interface InternalLinkRow {
  url: string;
  /** The site (the crawled page's PLD). */
  site: string;
  /** The page the link was first found on. */
  page: string;
  /** That page's level (start page 0; BeeBot §2). */
  level: number;
  /** Why the crawl did not queue it, when it did not (depth, out-of-scope, excluded, filtered, …). */
  notQueued?: string;
}

/**
 * A row of BeeBot's External Links table, in sublevel `extlinks` under key `SITE!URL!PAGE`: one row per page a
 * link is found on, so that every occurrence keeps its own context.
 */
export interface ExternalLinkRow extends InternalLinkRow {
  /** Anchor text ('' when none). */
  anchor: string;
  /** Surrounding text (±20 words). */
  context: string;
}

/** A row of BeeBot's Seeds table (site list), in sublevel `sites` under the zero-padded site number. */
export interface SiteRow {
  number: number;
  /** Full name, e.g. "Saint Petersburg State University". */
  name: string;
  /** Short name, e.g. "spbu". */
  shortName: string;
  /** Start address (an absolute http(s) URL). */
  start: string;
  /** The site's key in the link tables: the PLD of the start address. */
  site: string;
  /** False once the start page could not be fetched (BeeBot §2 "Not Available"). Default: true. */
  available: boolean;
}

/** Internal keys already staged by this process, per state (first occurrence wins: in BFS order, least level). */
const staged = new WeakMap<CrawlState, Set<string>>();

/** Key of a row: `SITE!URL` (internal) or `SITE!URL!PAGE` (external). `!` sorts before URL characters that matter. */
function linkKey(site: string, url: string, page?: string): string {
  return page === undefined ? `${site}!${url}` : `${site}!${url}!${page}`;
}

/**
 * Stages the links of one HTML page into the Internal and External Links tables (BeeBot §2), in `txn`.
 * A link is internal when `isInternal(url)` (the crawler passes: same PLD as the page). An internal link already
 * staged by this process keeps its first row (the least level in breadth-first order); after a resume a link seen
 * again may be rewritten with the page that found it now. External links get one row per page.
 * @returns how many internal and external links the page has (the external count is BeeBot's reward X(i, j)).
 */
export function stageLinkTables(
  state: CrawlState,
  txn: Txn,
  page: { url: string; site: string; level: number },
  links: readonly LinkFeatures[],
  isInternal: (url: string) => boolean,
  notQueued: ReadonlyMap<string, string> = new Map(),
): { internal: number; external: number } {
  let seen = staged.get(state);
  if (seen === undefined) {
    seen = new Set();
    staged.set(state, seen);
  }
  let internal = 0;
  let external = 0;
  for (const link of links) {
    if (isInternal(link.url)) {
      internal++;
      const key = linkKey(page.site, link.url);
      if (seen.has(key)) continue;
      seen.add(key);
      const reason = notQueued.get(link.url);
      const row: InternalLinkRow = { url: link.url, site: page.site, page: page.url, level: page.level, ...(reason === undefined ? {} : { notQueued: reason }) };
      levelTxn(txn).put(state.sub.links, key, row);
    } else {
      external++;
      const row: ExternalLinkRow = { url: link.url, site: page.site, page: page.url, level: page.level, anchor: link.anchor, context: link.context };
      levelTxn(txn).put(state.sub.extlinks, linkKey(page.site, link.url, page.url), row);
    }
  }
  return { internal, external };
}

/** The Internal Links rows of one site (or of every site), in URL order. */
export async function* readInternalLinks(state: CrawlState, site?: string): AsyncGenerator<InternalLinkRow> {
  for await (const v of state.sub.links.values(siteRange(site))) yield v as InternalLinkRow;
}

/** The External Links rows of one site (or of every site), in URL order. */
export async function* readExternalLinks(state: CrawlState, site?: string): AsyncGenerator<ExternalLinkRow> {
  for await (const v of state.sub.extlinks.values(siteRange(site))) yield v as ExternalLinkRow;
}

function siteRange(site: string | undefined): { gt?: string; lt?: string } {
  return site === undefined ? {} : { gt: `${site}!`, lt: `${site}!\uffff` };
}

/** Site-list key: the number, zero-padded so that rows list in number order. */
function siteKey(number: number): string {
  return String(number).padStart(6, '0');
}

/** Writes the site list (BeeBot's Seeds table): staged in `txn` when given, else written at once. */
export async function stageSites(state: CrawlState, txn: Txn | null, sites: readonly SiteRow[]): Promise<void> {
  const t = txn ?? state.txn();
  for (const s of sites) levelTxn(t).put(state.sub.sites, siteKey(s.number), s);
  if (txn === null) await t.commit();
}

/** Every row of the site list, in number order. */
export async function readSites(state: CrawlState): Promise<SiteRow[]> {
  const out: SiteRow[] = [];
  for await (const value of state.sub.sites.values()) out.push(value as SiteRow);
  return out;
}

/**
 * Marks a site Not Available (its start page could not be fetched; BeeBot §2). `site` is a PLD, a start address
 * or a short name. Returns how many rows were marked (0 when the site is not in the list).
 */
export async function markNotAvailable(state: CrawlState, site: string): Promise<number> {
  const pld = site.includes('/') ? pldOf(site) : site.toLowerCase();
  let marked = 0;
  for (const row of await readSites(state)) {
    if (row.site === pld || row.start === site || row.shortName === site) {
      if (row.available) {
        await state.sub.sites.put(siteKey(row.number), { ...row, available: false });
      }
      marked++;
    }
  }
  return marked;
}

/** The bad links of a crawl (BeeBot's Bad Links table: the crawler writes them in sublevel `badlinks`). */
export async function* readBadLinks(state: CrawlState): AsyncGenerator<BadLink & { site: string }> {
  for await (const b of readBadLinkRows(state)) yield { ...b, site: pldOf(b.page) };
}
