// **crawlUsage** and **optionsMarkdown**: `crawl --help` and docs/options.md, both made from the option specs.
import { CRAWL_OPTION_SPECS } from '../crawl/crawl-option-specs.ts';
import type { OptionSection, OptionSpec } from '../crawl/option-spec.ts';
import { RUN_FLAGS, type RunFlag } from './crawl-run-flags.ts';

/** One flag as both outputs show it. */
interface Row {
  flag: string;
  placeholder: string;
  defaultText: string;
  help: string;
  onResume: string;
  network: boolean;
  section: OptionSection | 'start';
}

const SECTIONS: readonly { id: OptionSection | 'start'; title: string }[] = [
  { id: 'start', title: '' },
  { id: 'scope', title: 'Scope: which URLs the crawl may fetch' },
  { id: 'strategy', title: 'Strategy: in which order' },
  { id: 'budget', title: 'Budgets and politeness' },
  { id: 'parsing', title: 'RDF parsing' },
  { id: 'network', title: 'Network' },
  { id: 'output', title: 'Output, archives and serving' },
  { id: 'distributed', title: 'Distributed (one crawl over many processes and machines)' },
];

const ON_RESUME: Record<OptionSpec['resume'], string> = {
  identity: 'fixed: cannot change',
  stored: 'kept; may change',
  run: 'this run only',
};

function specRow(s: OptionSpec): Row {
  const choices = s.kind === 'choice' && s.placeholder !== s.choices?.join('|') ? ` Choices: ${s.choices?.join(' | ')}.` : '';
  return { flag: s.flag, placeholder: s.placeholder, defaultText: s.defaultText, help: `${s.help}${choices}`, onResume: ON_RESUME[s.resume], network: s.network, section: s.section };
}

function runRow(f: RunFlag): Row {
  return { flag: f.flag, placeholder: f.placeholder, defaultText: f.defaultText, help: f.help, onResume: f.onResume, network: false, section: f.section };
}

/** The sections that have flags, in help order; in each, the run flags first (`--out` leads), then the crawl options. */
function sectionsWithRows(): { title: string; rows: Row[] }[] {
  const rows = [...RUN_FLAGS.map(runRow), ...(CRAWL_OPTION_SPECS as readonly OptionSpec[]).map(specRow)];
  return SECTIONS.map(({ id, title }) => ({ title, rows: rows.filter((r) => r.section === id) })).filter((s) => s.rows.length > 0);
}

const WIDTH = 118;
const COLUMN = 28;

/** Wraps `text` into lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

function helpLines(r: Row): string[] {
  const left = `  --${r.flag}${r.placeholder ? ` ${r.placeholder}` : ''}`;
  const resume = r.onResume === ON_RESUME.identity ? '; fixed once the crawl exists' : r.onResume === ON_RESUME.run ? '; this run only' : '';
  const text = wrap(`${r.help} (${r.defaultText === 'required' ? 'required' : `default: ${r.defaultText}`}${resume})`, WIDTH - COLUMN);
  const pad = ' '.repeat(COLUMN);
  const first = left.length < COLUMN ? `${left.padEnd(COLUMN)}${text[0]}` : `${left}\n${pad}${text[0]}`;
  return [first, ...text.slice(1).map((l) => `${pad}${l}`)];
}

/** The text of `rdfscout crawl --help`. */
export function crawlUsage(): string {
  const parts = [
    'Usage: rdfscout crawl [SEED_URL|PLD …] [--seeds-file FILE] --out DIR [options]',
    '',
    'Crawls from the seeds, predicting before each fetch whether a link leads to RDF, and stores every RDF document as',
    'quads in DIR (LevelDB; graph = document URL). Run it again with --out DIR to resume: the crawl keeps its options',
    '(those that define it cannot change; the others may be given again with new values). docs/options.md has this',
    'list as a table.',
  ];
  for (const { title, rows } of sectionsWithRows()) parts.push('', ...(title ? [`${title}:`] : []), ...rows.flatMap(helpLines));
  return parts.join('\n');
}

const cell = (s: string) => s.replaceAll('|', '\\|');

/** docs/options.md: every flag of `rdfscout crawl` in one table per section (`npm run docs:options` writes it). */
export function optionsMarkdown(): string {
  const out = [
    '# Options of the crawl command',
    '',
    '<!-- Generated from src/crawl/crawl-option-specs.ts and src/commands/crawl-run-flags.ts by `npm run docs:options`; do not edit. -->',
    '',
    'Every flag of the crawl command, as `rdfscout crawl --help` lists them. **On resume** says what `rdfscout crawl --out DIR`',
    'does with a flag given to an earlier run: *fixed* options define the crawl (a resume that gives another value is',
    'refused, naming the flag and both values); *kept* ones are stored and reused when not given again, and may change;',
    'the rest apply to the run they are given to. **Network** marks what a resume needs to reach the same web: all of it',
    'is stored, except a proxy password, which a resume asks for again.',
  ];
  for (const { title, rows } of sectionsWithRows()) {
    out.push('', `## ${title || 'Where and from what'}`, '', '| flag | default | on resume | network | meaning |', '|---|---|---|---|---|');
    for (const r of rows) {
      const flag = `\`--${r.flag}${r.placeholder ? ` ${r.placeholder}` : ''}\``;
      out.push(`| ${cell(flag)} | ${cell(r.defaultText)} | ${r.onResume} | ${r.network ? 'yes' : ''} | ${cell(r.help)} |`);
    }
  }
  return `${out.join('\n')}\n`;
}
