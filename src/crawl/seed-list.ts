// **parseSeedList** reads a seeds file leniently: plain URL lists or BeeBot's CSV site list, each bad line reported by number.
import type { SiteRow } from '../beebot/link-tables.ts';
import { ArgumentError, RdfscoutError } from '../errors.ts';
import { checkIpLiteral } from '../fetch/address-guard.ts';
import { pldOf } from '../links/normalize-url.ts';
import { seedToUrl } from './options.ts';

/** A line of a seeds file that gave no seed, and why. Lines are 1-based. */
export interface SeedProblem {
  line: number;
  text: string;
  message: string;
}

/** What a seeds file holds: one site row per seed (BeeBot §2 Seeds table), and the lines that were skipped. */
export interface SeedList {
  sites: SiteRow[];
  problems: SeedProblem[];
}

/** An address field: an http(s) URL, or a domain name optionally followed by a path (`example.org/data/`). */
const ADDRESS_RE = /^(?:https?:\/\/\S+|[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?(?:\/\S*)?)$/i;
/** A first line naming columns rather than giving a site. */
const HEADER_RE = /\b(?:start|address|url|name|number|site)\b/i;

/** Splits one CSV line (separators `,` `;` or tab; double quotes with `""` escapes). */
function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',' || c === ';' || c === '\t') {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

/**
 * Parses a seeds file, leniently: a line that gives no seed is reported with its number and the
 * rest is read. Two shapes, line by line:
 * - a plain list: one or more URLs or domains per line (`http://a.org/thebes, http://a.org/sparta` gives both);
 * - BeeBot's site list (BeeBot §2): CSV rows `number, full name, short name, start address` (a header row is
 *   skipped; separators `,` `;` or tab; quotes allowed). Rows without a number are numbered after the largest so far;
 *   missing names come from the host (`www.spbu.ru` → short name `spbu`).
 * Blank lines and `#` comments are skipped; fragments are dropped (a seed's `#part` is not part of the document).
 */
export function parseSeedList(text: string): SeedList {
  const sites: SiteRow[] = [];
  const problems: SeedProblem[] = [];
  const numbers = new Set<number>();
  let seenContent = false;
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const first = !seenContent;
    seenContent = true;
    const problem = (message: string) => problems.push({ line: i + 1, text: line.slice(0, 200), message });
    const fields = splitCsv(line).filter((f) => f !== '');
    const addresses = fields.filter((f) => ADDRESS_RE.test(f));
    if (addresses.length === 0) {
      if (first && HEADER_RE.test(line)) continue;
      problem('no URL or domain name on this line');
      continue;
    }
    // A plain list line: every field is an address. A CSV row: number, names, and one address (the last).
    const plain = addresses.length === fields.length;
    const rowAddresses = plain ? addresses : [addresses[addresses.length - 1] as string];
    const rest = plain ? [] : fields.filter((f) => f !== rowAddresses[0]);
    for (const address of rowAddresses) {
      let start: string;
      try {
        start = seedToUrl(address);
      } catch (err) {
        problem((err as Error).message);
        continue;
      }
      const host = new URL(start).hostname;
      const site = pldOf(host);
      const explicitNumber = rest.length > 0 && /^\d+$/.test(rest[0] as string);
      const num = explicitNumber ? Number(rest.shift()) : Math.max(0, ...numbers) + 1;
      if (numbers.has(num)) {
        problem(`site number ${num} is used twice`);
        continue;
      }
      numbers.add(num);
      const name = rest[0] || host;
      const shortName = rest[1] || site.split('.')[0] || site;
      sites.push({ number: num, name, shortName, start, site, available: true });
    }
  }
  return { sites, problems };
}

/** One line per problem: `FILE:LINE: message ("text")`, as compilers report. */
export function formatSeedProblems(file: string, problems: readonly SeedProblem[]): string {
  return problems.map((p) => `${file}:${p.line}: ${p.message} ("${p.text}")`).join('\n');
}

/** Parses a site list strictly: every problem (with its line number) is an ArgumentError. For callers that want all or nothing. */
export function parseSiteList(text: string): SiteRow[] {
  const { sites, problems } = parseSeedList(text);
  if (problems.length > 0) throw new ArgumentError(problems.map((p) => `Seed list line ${p.line}: ${p.message} ("${p.text}")`).join('\n'));
  return sites;
}

/** A seed the crawl will not fetch, and why. */
export interface RefusedSeed {
  url: string;
  reason: string;
}

/**
 * Splits seed URLs into those the crawl may fetch and those it refuses before any request: a
 * private, loopback or link-local address literal, or a `localhost` name (also through `--proxy`, where no name is
 * resolved by us), unless `allowPrivate`. Refused seeds are never queued, so they never count as fetched.
 */
export function screenSeeds(urls: readonly string[], allowPrivate: boolean): { accepted: string[]; refused: RefusedSeed[] } {
  const accepted: string[] = [];
  const refused: RefusedSeed[] = [];
  for (const url of urls) {
    const refusal = allowPrivate ? null : checkIpLiteral(new URL(url));
    if (refusal === null) accepted.push(url);
    else refused.push({ url, reason: refusal.message });
  }
  return { accepted, refused };
}

/**
 * The error of a crawl none of whose seeds may be fetched: each seed with its reason (one per line), and what to
 * do. An RDFSCOUT_INVALID_ARGUMENT (exit code 2).
 */
export function noUsableSeed(refused: readonly RefusedSeed[]): RdfscoutError {
  const reasons = refused.map((r) => `\n  ${r.reason}`).join('');
  return new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `No usable seed: every seed was refused, so nothing would be crawled:${reasons}`);
}
