// **rdfscout links**: browse BeeBot's internal, external and bad links tables of a crawl (BeeBot §2).
import { formatLinkRows, readLinkRows } from '../beebot/link-rows.ts';
import { ArgumentError } from '../errors.ts';
import { type FlagSpec, boolFlag, oneOfFlag, parseFlags, strFlag } from './args.ts';
import { requireFolders, withShards } from './open-crawl.ts';
import { SHARDS_NOTE } from './read-commands.ts';
import { writeOut } from './stdout.ts';

export const LINKS_USAGE = `Usage: rdfscout links DIR… --external|--internal|--bad [--site S] [--grep TEXT] [--format table|csv|json]

BeeBot's link tables of the crawl in DIR (crawled with --reward external-links):
  --external        links to other sites, with the page found on, its level, anchor text and surrounding text
  --internal        links inside a site, with the page found on, its level, whether they were processed, and why not
  --bad             hrefs that are not crawlable URLs (javascript:, mailto:, malformed, …)
  --site S          one site only: its PLD (spbu.ru), short name or number from the site list
  --grep TEXT       rows whose URL, page, anchor or context contain TEXT (case-insensitive)
  --format F        table (default), csv, or json (an array of objects)
${SHARDS_NOTE} A row two shards hold is shown once.`;

export const LINKS_FLAGS: FlagSpec = {
  external: { type: 'boolean' },
  internal: { type: 'boolean' },
  bad: { type: 'boolean' },
  site: { type: 'string' },
  grep: { type: 'string' },
  format: { type: 'string' },
};

/** `rdfscout links DIR --external|--internal|--bad …`. */
export async function runLinksCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const { values, positionals } = parseFlags(argv, LINKS_FLAGS, LINKS_USAGE);
  const dirs = requireFolders(positionals);
  const tables = (['external', 'internal', 'bad'] as const).filter((t) => boolFlag(values, t));
  if (tables.length !== 1) throw new ArgumentError(`Give exactly one of --external, --internal, --bad`);
  const table = tables[0]!;
  const format = oneOfFlag(values, 'format', ['table', 'csv', 'json'] as const, 'table');
  const filter: { site?: string; grep?: string } = {};
  const site = strFlag(values, 'site');
  const grep = strFlag(values, 'grep');
  if (site !== undefined) filter.site = site;
  if (grep !== undefined) filter.grep = grep;
  const text = await withShards(dirs, async ({ set }) => formatLinkRows(await readLinkRows(set, table, filter), table, format));
  await writeOut(text, out);
  return 0;
}
