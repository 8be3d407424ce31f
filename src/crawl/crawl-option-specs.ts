// **CRAWL_OPTION_SPECS**: every crawl option, once. The defaults, the CLI parser, `crawl --help` and docs/options.md
// are made from this list.
import { POLICY_NAMES } from '../bandit/index.ts';
import { FETCHER_DEFAULTS } from '../fetch/options.ts';
import { STRATEGY_NAMES } from '../strategies/index.ts';
import { booleanOption, choiceOption, intOption, listOption, numberOption, textOption } from './option-spec.ts';

/** Every strategy `--strategy` accepts (the registry's names). */
const STRATEGY_CHOICES: readonly string[] = STRATEGY_NAMES;
/** Every PLD scheduler `--bandit` accepts: 'none' and the bandit policies. */
const BANDIT_CHOICES: readonly string[] = ['none', ...POLICY_NAMES];
const REWARD_CHOICES = ['rdf-docs', 'triples', 'external-links'] as const;

/** A proxy URL without its password (kept out of the crawl's folder, WARC files and reports). */
function withoutPassword(proxy: string | null): { stored: string | null; omitted: boolean } {
  if (proxy === null) return { stored: null, omitted: false };
  let url: URL;
  try {
    url = new URL(proxy);
  } catch {
    return { stored: proxy, omitted: false };
  }
  if (url.password === '') return { stored: proxy, omitted: false };
  url.password = '';
  return { stored: url.href, omitted: true };
}

export const CRAWL_OPTION_SPECS = [
  // Scope: which URLs the crawl may fetch.
  choiceOption('scope', ['seeds', 'open'] as const, 'seeds', {
    section: 'scope',
    resume: 'identity',
    help: "seeds: only the seeds' PLDs (and --offsite-hops); open: any PLD.",
  }),
  intOption('offsiteHops', 0, {
    section: 'scope',
    resume: 'identity',
    min: 0,
    help: "with --scope seeds, also follow up to N links in a row outside the seeds' PLDs (the thesis, §11: 1).",
  }),
  listOption('include', {
    section: 'scope',
    resume: 'identity',
    help: 'crawl only URLs matching PATTERN (repeatable): a glob over the whole URL where * is any text (https://example.org/data/*), or /regex/ (JavaScript syntax).',
  }),
  listOption('exclude', { section: 'scope', resume: 'identity', help: 'never crawl URLs matching PATTERN (repeatable; wins over --include).' }),
  intOption('maxDepth', Number.POSITIVE_INFINITY, { section: 'scope', resume: 'stored', min: 0, unbounded: true, help: 'do not queue links deeper than N (seeds are depth 0).' }),
  booleanOption('followRdfLinks', false, { section: 'scope', resume: 'identity', help: 'also follow the IRIs inside RDF documents (the thesis\'s framework 2, §8.2).' }),
  booleanOption('stayOnSite', false, {
    section: 'scope',
    resume: 'stored',
    defaultText: 'off; on with --reward external-links',
    help: "crawl only links within the page's own PLD; links to other PLDs are recorded, not crawled (BeeBot §2).",
  }),
  booleanOption('probeWellKnown', false, {
    section: 'scope',
    resume: 'stored',
    help: "also fetch /sitemap.xml and /.well-known/void of every seed's origin (sitemaps that robots.txt names are always used).",
  }),
  choiceOption('normalize', ['standard', 'beebot'] as const, 'standard', {
    section: 'scope',
    resume: 'identity',
    placeholder: 'MODE',
    help: 'URL normalisation: standard (WHATWG) or beebot (lower-case, no trailing slash; BeeBot §2).',
  }),

  // Strategy: in which order.
  choiceOption<'strategy', string>('strategy', STRATEGY_CHOICES, 'fc-r+hr', {
    section: 'strategy',
    resume: 'identity',
    placeholder: 'NAME',
    help: "link-scoring strategy (thesis §10): bfs is the thesis's breadth-first BC, fc-r+hr the proposed crawler; fc-r2 [Umb09], fc-r+hr2 [Hat10], topical, topical+hr, yield (learned link yield).",
  }),
  choiceOption<'bandit', string>('bandit', BANDIT_CHOICES, 'auto', {
    section: 'strategy',
    resume: 'identity',
    placeholder: 'NAME',
    help: "PLD scheduler (BeeBot §3): none is the frontier's global priority order; r3 is UCB1. Defaults chosen by npm run bench:bandit.",
  }),
  choiceOption('reward', REWARD_CHOICES, 'rdf-docs', { section: 'strategy', resume: 'identity', placeholder: 'KIND', help: "what the bandit counts as reward; external-links is BeeBot mode." }),
  booleanOption('rejudgeQueued', true, {
    section: 'strategy',
    resume: 'stored',
    flag: 'fixed-labels',
    negates: true,
    defaultText: 'off',
    help: 'a queued link keeps the label it was extracted with (by default, when C_HR learns an RDF parent, queued links similar to it are judged again and may become HR; thesis §5).',
  }),
  choiceOption('queues', ['one', 'two'] as const, 'one', {
    section: 'strategy',
    resume: 'identity',
    help: "two: the thesis's two-queue variant (§8.2, Figure 3-5), predicted-RDF links in an RDF queue, HTML links in an HTML queue.",
  }),
  numberOption('rdfShare', 0.5, { section: 'strategy', resume: 'stored', min: 0, max: 1, help: 'with --queues two, the share of --concurrency serving the RDF queue (a queue with nothing to do lends its workers).' }),
  booleanOption('linkTables', false, {
    section: 'strategy',
    resume: 'stored',
    defaultText: 'off; on with --reward external-links',
    help: "keep BeeBot's internal/external link tables, with anchor text and context (BeeBot §2).",
  }),
  intOption('seed', 1, { section: 'strategy', resume: 'identity', min: 0, help: 'seed of every random choice (bandit sampling).' }),

  // Budgets and speed.
  intOption('maxDocs', 1000, {
    section: 'budget',
    resume: 'stored',
    min: 1,
    unbounded: true,
    defaultText: '1000; none when only --max-docs-per-pld is given',
    help: 'total fetch budget, in requests sent (robots.txt refusals spend none).',
  }),
  intOption('maxDocsPerPld', Number.POSITIVE_INFINITY, { section: 'budget', resume: 'stored', min: 1, unbounded: true, help: 'fetch budget per PLD (the thesis, §11: 2000).' }),
  intOption('maxLinksPerDoc', 500, { section: 'budget', resume: 'identity', min: 0, help: 'only the first N links of a document count (the thesis, §11: 500).' }),
  intOption('concurrency', 5, { section: 'budget', resume: 'stored', min: 1, help: 'fetches in flight at once (the thesis, §11: 5 threads).' }),
  intOption('hostConcurrency', 1, { section: 'budget', resume: 'stored', min: 1, help: 'fetches in flight at once to one PLD, all its hosts together.' }),
  intOption('delayMs', 1000, {
    section: 'budget',
    resume: 'stored',
    min: 0,
    help: "minimum delay between request starts to one PLD, ms; a host's robots.txt Crawl-delay applies to its whole PLD, and Retry-After is honoured.",
  }),

  intOption('threads', 0, {
    section: 'budget',
    resume: 'run',
    min: 0,
    help: "worker threads that parse fetched documents (sniffing, links, RDF) off the crawl's own thread, started at the first document that needs one (see --thread-min-kb); 0: every document is parsed on the crawl's thread. The same records and quads either way.",
  }),
  intOption('threadMinKb', 256, {
    section: 'budget',
    resume: 'run',
    min: 0,
    help: "with --threads, documents smaller than N kB are still parsed on the crawl's own thread (on small pages the hand-over costs about what it saves); 0: every document goes to the worker threads.",
  }),

  // RDF parsing.
  booleanOption('remoteContexts', true, {
    section: 'parsing',
    resume: 'stored',
    flag: 'no-remote-contexts',
    negates: true,
    defaultText: 'off: contexts are fetched',
    help: "do not fetch JSON-LD contexts rdfscout does not ship: documents that need one fail with RDFSCOUT_REMOTE_CONTEXT (by default each is fetched once per crawl, within the fetch limits, and kept in the crawl's store).",
  }),

  booleanOption('strictRdf', false, {
    section: 'parsing',
    resume: 'stored',
    help: 'an RDF document (or embedded block) with any syntax error, undefined prefix or term that is not valid RDF keeps no triple (by default only the failing statements are dropped, and counted in the record).',
  }),

  // Network: what a resume needs to reach the same web.
  textOption('proxy', null, {
    section: 'network',
    resume: 'stored',
    network: true,
    placeholder: 'URL',
    secret: withoutPassword,
    help: "send every request through this HTTP forward proxy (http://HOST:PORT). A password in it (http://user:password@HOST:PORT) is not stored: a resume asks for --proxy again.",
  }),
  booleanOption('allowPrivate', false, {
    section: 'network',
    resume: 'stored',
    network: true,
    help: 'allow private, loopback and link-local targets and seeds; by default they are refused, so a public page cannot steer the crawler into your network.',
  }),
  textOption('userAgent', null, {
    section: 'network',
    resume: 'stored',
    network: true,
    defaultText: FETCHER_DEFAULTS.userAgent,
    help: 'the User-Agent header sent; its first word is the agent matched in robots.txt.',
  }),
  intOption('connectTimeoutMs', FETCHER_DEFAULTS.connectTimeoutMs, { section: 'network', resume: 'stored', network: true, min: 1, help: 'how long a connection may take to open, ms.' }),
  intOption('headersTimeoutMs', FETCHER_DEFAULTS.headersTimeoutMs, { section: 'network', resume: 'stored', network: true, min: 1, help: "how long a response's headers may take, ms." }),
  intOption('bodyTimeoutMs', FETCHER_DEFAULTS.bodyTimeoutMs, { section: 'network', resume: 'stored', network: true, min: 1, help: 'the longest pause while a body arrives, ms.' }),
  intOption('totalTimeoutMs', FETCHER_DEFAULTS.totalTimeoutMs, { section: 'network', resume: 'stored', network: true, min: 1, help: 'how long one fetch may take in all, redirects included, ms.' }),
  intOption('maxBodyBytes', FETCHER_DEFAULTS.maxBodyBytes, { section: 'network', resume: 'stored', network: true, min: 1, help: 'the largest body read, bytes (a larger one is a failed fetch).' }),
  intOption('maxRetries', 2, {
    section: 'network',
    resume: 'stored',
    min: 0,
    help: 'retries of a connection failure, robots.txt 5xx, or 429/503 (after Retry-After), with exponential back-off; a connection failure or rate limit backs off the whole PLD.',
  }),
  intOption('maxOfflineMs', 600_000, {
    section: 'network',
    resume: 'stored',
    min: 0,
    unbounded: true,
    help: 'when every request fails at the connection level, the crawl pauses (and says so), probing with back-off; after N ms offline it stops (exit 1), and a resume retries what failed.',
  }),
  booleanOption('retryFailed', false, { section: 'network', resume: 'run', help: 'on a resume, queue again the URLs whose last fetch failed (after all its retries).' }),
] as const;
