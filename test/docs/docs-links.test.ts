// The user documentation holds together: every relative link in README.md and docs/ resolves (file and heading), and
// every `rdfscout …` command shown in them is accepted by the command line's argument parsers.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FlagSpec, parseFlags } from '../../src/commands/args.ts';
import { crawlOptionsFromArgs } from '../../src/commands/crawl.ts';
import { DEMO_FLAGS, DEMO_USAGE } from '../../src/commands/demo.ts';
import { LINKS_FLAGS, LINKS_USAGE } from '../../src/commands/links.ts';
import { METRICS_FLAGS, METRICS_USAGE } from '../../src/commands/metrics.ts';
import { DOCS_FLAGS, DOCS_USAGE, EXPORT_FLAGS, EXPORT_USAGE, STATS_FLAGS, STATS_USAGE } from '../../src/commands/read-commands.ts';
import { REPARSE_FLAGS, REPARSE_USAGE } from '../../src/commands/reparse.ts';
import { REPORT_FLAGS, REPORT_USAGE } from '../../src/commands/report.ts';
import { SIMWEB_FLAGS, SIMWEB_SUBCOMMANDS, SIMWEB_USAGE } from '../../src/commands/simweb.ts';
import { QUERY_FLAGS, QUERY_USAGE, SERVE_FLAGS, SERVE_USAGE } from '../../src/commands/sparql.ts';
import { STATUS_FLAGS, STATUS_USAGE } from '../../src/commands/status.ts';
import { resolveCrawlOptions, stripUndefined } from '../../src/crawl/options.ts';
import { extractCommands, extractLinks, headingSlugs, type DocCommand } from '../helpers/markdown.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** README.md and every markdown file under docs/. */
function documentationFiles(): string[] {
  const files = [join(ROOT, 'README.md'), join(ROOT, 'bench/README.md')];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(ROOT, 'docs'));
  return files;
}

const FILES = documentationFiles();

/** Each command's flags and usage, as its module parses them (crawl: its own parser, below). */
const PARSERS: Record<string, { flags: FlagSpec; usage: string }> = {
  export: { flags: EXPORT_FLAGS, usage: EXPORT_USAGE },
  docs: { flags: DOCS_FLAGS, usage: DOCS_USAGE },
  stats: { flags: STATS_FLAGS, usage: STATS_USAGE },
  metrics: { flags: METRICS_FLAGS, usage: METRICS_USAGE },
  links: { flags: LINKS_FLAGS, usage: LINKS_USAGE },
  query: { flags: QUERY_FLAGS, usage: QUERY_USAGE },
  serve: { flags: SERVE_FLAGS, usage: SERVE_USAGE },
  report: { flags: REPORT_FLAGS, usage: REPORT_USAGE },
  reparse: { flags: REPARSE_FLAGS, usage: REPARSE_USAGE },
  status: { flags: STATUS_FLAGS, usage: STATUS_USAGE },
  demo: { flags: DEMO_FLAGS, usage: DEMO_USAGE },
};

/** Parses one documented command line as `rdfscout` would, without running it; throws what the CLI would report. */
async function parseCommand(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new Error('no command');
  if (rest.includes('--help') || rest.includes('-h')) {
    if (name !== 'crawl' && name !== 'simweb' && PARSERS[name] === undefined) throw new Error(`unknown command ${name}`);
    return;
  }
  if (name === 'crawl') {
    // --seeds-file names a file of the reader's; the parser reads it, so give it one with a seed.
    const args = rest.map((a, i) => (rest[i - 1] === '--seeds-file' ? join(ROOT, 'test/fixtures/docs-seeds.csv') : a));
    const { explicit } = await crawlOptionsFromArgs(args);
    resolveCrawlOptions({ ...stripUndefined(explicit), out: explicit.out });
    return;
  }
  if (name === 'simweb') {
    const [sub, ...flags] = rest;
    if (!SIMWEB_SUBCOMMANDS.includes(sub as (typeof SIMWEB_SUBCOMMANDS)[number])) throw new Error(`simweb needs serve or truth, got ${sub}`);
    parseFlags(flags, SIMWEB_FLAGS, SIMWEB_USAGE);
    return;
  }
  const parser = PARSERS[name];
  if (parser === undefined) throw new Error(`unknown command ${name}`);
  parseFlags([...rest], parser.flags, parser.usage);
}

describe('the documentation', () => {
  it('is found: README.md, bench/README.md and docs/', () => {
    expect(FILES.length).toBeGreaterThan(10);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of FILES) {
      for (const link of extractLinks(readFileSync(file, 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue; // http:, https:, mailto:
        const [path = '', anchor] = link.target.split('#');
        const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        const where = `${relative(ROOT, file)}:${link.line} → ${link.target}`;
        if (!target.startsWith(ROOT)) broken.push(`${where} (outside the repository)`);
        else if (!existsSync(target)) broken.push(`${where} (no such file)`);
        else if (anchor !== undefined && anchor !== '') {
          if (!target.endsWith('.md') || statSync(target).isDirectory()) broken.push(`${where} (an anchor into a file that is not markdown)`);
          else if (!headingSlugs(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${where} (no heading #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('shows only rdfscout commands that the argument parsers accept', async () => {
    const commands: Array<DocCommand & { file: string }> = FILES.flatMap((file) => extractCommands(readFileSync(file, 'utf8')).map((c) => ({ ...c, file: relative(ROOT, file) })));
    expect(commands.length).toBeGreaterThan(30);
    const refused: string[] = [];
    for (const c of commands) {
      try {
        await parseCommand(c.argv);
      } catch (err) {
        refused.push(`${c.file}:${c.line}: rdfscout ${c.argv.join(' ')} — ${(err as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
