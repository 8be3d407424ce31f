// **crawlOptionsFromArgs** parses `rdfscout crawl`'s command line into crawl options and this run's settings,
// checking every value before anything is opened.
import { readFile } from 'node:fs/promises';
import type { SiteRow } from '../beebot/index.ts';
import type { ExplicitOptions } from '../crawl/crawl-meta.ts';
import { CRAWL_OPTION_SPECS } from '../crawl/crawl-option-specs.ts';
import { checkOptionValue, type OptionSpec, parseOptionText } from '../crawl/option-spec.ts';
import { formatSeedProblems, parseSeedList } from '../crawl/seed-list.ts';
import { ArgumentError } from '../errors.ts';
import { boolFlag, didYouMean, type FlagSpec, intFlag, parseFlags, strFlag } from './args.ts';
import { RUN_FLAGS } from './crawl-run-flags.ts';
import { crawlUsage } from './option-help.ts';

const SPECS = CRAWL_OPTION_SPECS as readonly OptionSpec[];

/** `rdfscout crawl --help`. */
export const CRAWL_USAGE = crawlUsage();

/** Every flag of `crawl`, from the run flags and the crawl options' specs. */
export const CRAWL_FLAGS: FlagSpec = Object.fromEntries([
  ...RUN_FLAGS.map((f) => [f.flag, { type: f.kind === 'boolean' ? 'boolean' : 'string' }] as const),
  ...SPECS.map((s) => [s.flag, s.kind === 'boolean' ? { type: 'boolean' } : s.kind === 'list' ? { type: 'string', multiple: true } : { type: 'string' }] as const),
]) as FlagSpec;

/** What a `crawl` command line asks for. */
export interface CrawlArgs {
  /** The crawl options given (checked one by one; the stored ones fill the rest on a resume). */
  explicit: ExplicitOptions;
  json: boolean;
  quiet: boolean;
  serve: number | undefined;
  queryMemoryMb: number | undefined;
  serveToken: string | undefined;
  sites: SiteRow[];
  /** The seeds file, when one was given, and whether some of its lines gave no seed. */
  seedsFile: { path: string; problems: number } | undefined;
  redis: string | undefined;
  leaseMs: number | undefined;
  sink: string | undefined;
  warc: { target: string; maxFileBytes: number; gzipLevel?: number } | undefined;
  /** `--no-warc`: stop the archive an earlier run of the crawl asked for. */
  noWarc: boolean;
}

/** A crawl option's value from the command line, checked; undefined when the flag is absent. */
function optionFromFlag(s: OptionSpec, values: Record<string, unknown>): unknown {
  const raw = values[s.flag] as string | boolean | string[] | undefined;
  if (raw === undefined) return undefined;
  try {
    return checkOptionValue(s, parseOptionText(s, raw), raw);
  } catch (err) {
    // a near miss among the choices is named (--strategy fcr: did you mean fc-r?)
    if (s.kind === 'choice' && typeof raw === 'string' && err instanceof ArgumentError) {
      throw new ArgumentError(`${err.message.replace(/\.$/, '')}${didYouMean(raw, s.choices ?? [])}.`);
    }
    throw err;
  }
}

export async function crawlOptionsFromArgs(argv: string[]): Promise<CrawlArgs> {
  const { values, positionals } = parseFlags(argv, CRAWL_FLAGS, CRAWL_USAGE);
  const out = strFlag(values, 'out');
  if (!out) throw new ArgumentError(`--out DIR is required`);
  const seeds = [...positionals].flatMap((p) => p.split(',')).map((p) => p.trim()).filter((p) => p !== '');
  let sites: SiteRow[] = [];
  let seedsFile: CrawlArgs['seedsFile'];
  const seedsPath = strFlag(values, 'seeds-file');
  if (seedsPath) {
    let text: string;
    try {
      text = await readFile(seedsPath, 'utf8');
    } catch (err) {
      throw new ArgumentError(`Cannot read --seeds-file ${seedsPath}: ${(err as Error).message}`);
    }
    // Plain URL lists or BeeBot's site list; each bad line is reported with its number, the rest is crawled.
    const list = parseSeedList(text);
    if (list.problems.length > 0) process.stderr.write(`${formatSeedProblems(seedsPath, list.problems)}\n`);
    sites = list.sites;
    seeds.push(...sites.map((site) => site.start));
    seedsFile = { path: seedsPath, problems: list.problems.length };
  }
  const explicit: ExplicitOptions = { out, seeds };
  for (const s of SPECS) {
    const v = optionFromFlag(s, values);
    if (v !== undefined) (explicit as Record<string, unknown>)[s.key] = v;
  }
  const serveToken = strFlag(values, 'serve-token');
  if (serveToken !== undefined && serveToken.length < 8) throw new ArgumentError('--serve-token must be at least 8 characters.');
  const warcTarget = strFlag(values, 'warc');
  const gzipLevel = intFlag(values, 'warc-gzip-level', 0);
  if (gzipLevel !== undefined && gzipLevel > 9) throw new ArgumentError(`--warc-gzip-level must be a whole number from 0 to 9 (got ${gzipLevel}).`);
  const noWarc = boolFlag(values, 'no-warc') === true;
  if (noWarc && warcTarget !== undefined) throw new ArgumentError('--warc and --no-warc ask for opposite things: give one.');
  const warcFileMb = intFlag(values, 'warc-file-mb', 1);
  const warc = warcTarget === undefined ? undefined : { target: warcTarget, maxFileBytes: (warcFileMb ?? 1024) * 1024 * 1024, ...(gzipLevel === undefined ? {} : { gzipLevel }) };
  const redis = strFlag(values, 'redis');
  const leaseMs = intFlag(values, 'lease-ms', 100);
  if (leaseMs !== undefined && redis === undefined) throw new ArgumentError('--lease-ms goes with --redis URL.');
  return {
    explicit,
    json: values.json === true,
    quiet: values.quiet === true,
    serve: intFlag(values, 'serve', 0),
    queryMemoryMb: intFlag(values, 'max-query-memory', 16),
    serveToken,
    sites,
    seedsFile,
    redis,
    leaseMs,
    sink: strFlag(values, 'sink'),
    warc,
    noWarc,
  };
}
