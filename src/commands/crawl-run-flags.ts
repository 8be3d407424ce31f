// **RUN_FLAGS**: the flags of `rdfscout crawl` that are not crawl options (where the state goes, serving, archives,
// output, Redis), described once like the crawl options, for the parser, `--help` and docs/options.md.
import type { OptionSection } from '../crawl/option-spec.ts';

export interface RunFlag {
  flag: string;
  /** 'string' and 'int' take a value; 'int' is checked by the command with its own bounds. */
  kind: 'string' | 'int' | 'boolean';
  placeholder: string;
  defaultText: string;
  help: string;
  section: OptionSection | 'start';
  /** What a resume does with it, in the docs' words. */
  onResume: string;
}

const THIS_RUN = 'this run only';

export const RUN_FLAGS: readonly RunFlag[] = [
  { flag: 'out', kind: 'string', placeholder: 'DIR', defaultText: 'required', section: 'start', onResume: 'names the crawl', help: 'where the crawl state is kept; run the same command (or just --out DIR) again to resume.' },
  {
    flag: 'seeds-file',
    kind: 'string',
    placeholder: 'FILE',
    defaultText: 'none',
    section: 'start',
    onResume: 'seeds are added',
    help: "seeds: URLs or PLDs, one or more per line (comma-separated), or BeeBot's site list as CSV (number, full name, short name, start address); bad lines are reported by number and skipped; fragments (#…) are dropped.",
  },
  { flag: 'serve', kind: 'int', placeholder: 'PORT', defaultText: 'none', section: 'output', onResume: THIS_RUN, help: 'serve a live dashboard at http://127.0.0.1:PORT/ and a read-only SPARQL endpoint at /sparql while crawling (0: a free port).' },
  {
    flag: 'serve-token',
    kind: 'string',
    placeholder: 'TOKEN',
    defaultText: 'none: controls answer on the loopback bind without one',
    section: 'output',
    onResume: THIS_RUN,
    help: 'let dashboard controls (pause, stop, seeds, block) through only with this token (at least 8 characters).',
  },
  { flag: 'max-query-memory', kind: 'int', placeholder: 'MB', defaultText: '512', section: 'output', onResume: THIS_RUN, help: 'memory limit of each query of that endpoint.' },
  {
    flag: 'warc',
    kind: 'string',
    placeholder: 'FILE|DIR',
    defaultText: 'none',
    section: 'output',
    onResume: 'kept: a resume goes on writing there',
    help: 'also write every response (request and response records, each redirect hop and robots.txt too, raw bytes as received) as WARC 1.1, one gzip member per record: to FILE (appended to), or to rotating files in DIR (an existing folder, or a path ending with /); rdfscout reparse rebuilds a store from them.',
  },
  { flag: 'warc-file-mb', kind: 'int', placeholder: 'N', defaultText: '1024', section: 'output', onResume: 'kept with --warc', help: 'in a --warc DIR, begin a new file past N MB.' },
  {
    flag: 'warc-gzip-level',
    kind: 'int',
    placeholder: 'N',
    defaultText: '1',
    section: 'output',
    onResume: 'kept with --warc',
    help: 'deflate level of response records of 1 kB or more (request and metadata records are stored), 0 (gzip framing only: least CPU, largest files) to 9.',
  },
  { flag: 'no-warc', kind: 'boolean', placeholder: '', defaultText: 'off', section: 'output', onResume: THIS_RUN, help: 'on a resume, stop writing the WARC an earlier run asked for.' },
  {
    flag: 'sink',
    kind: 'string',
    placeholder: 'URL',
    defaultText: 'none',
    section: 'output',
    onResume: 'give it again: unsent documents are sent then',
    help: "also send every stored document to this SPARQL 1.1 Graph Store Protocol endpoint (e.g. Virtuoso's http://HOST:8890/sparql-graph-crud; user:password@ for Basic auth), one named graph per document (HTTP PUT), in the background, with retries; what the sink did not acknowledge is reported and sent again when the crawl is resumed with --sink.",
  },
  { flag: 'json', kind: 'boolean', placeholder: '', defaultText: 'off', section: 'output', onResume: THIS_RUN, help: 'print one JSON summary at the end.' },
  { flag: 'quiet', kind: 'boolean', placeholder: '', defaultText: 'off', section: 'output', onResume: THIS_RUN, help: 'no progress output (network pauses are still reported).' },
  {
    flag: 'redis',
    kind: 'string',
    placeholder: 'URL',
    defaultText: 'none',
    section: 'distributed',
    onResume: 'give it again to rejoin',
    help: "redis://[:password@]HOST:PORT[/DB]: create the crawl there (with seeds) or join it as one more worker (no seeds, no options: the crawl's stored ones); this worker's records and documents go to its own --out DIR (a shard). rdfscout status --redis URL shows progress.",
  },
  {
    flag: 'lease-ms',
    kind: 'int',
    placeholder: 'N',
    defaultText: '30000',
    section: 'distributed',
    onResume: 'fixed when the crawl is created',
    help: "with --redis, when creating the crawl: how long a worker's lease on a PLD lasts unrenewed; a dead worker's fetches go back to the queue after it.",
  },
];
