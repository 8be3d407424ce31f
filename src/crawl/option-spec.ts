// **OptionSpec** describes one crawl option once: its flag, type, default, help, and what a resume does with it.
import { ArgumentError } from '../errors.ts';

/** Where an option is listed in `crawl --help` and docs/options.md. */
export type OptionSection = 'scope' | 'strategy' | 'budget' | 'parsing' | 'network' | 'output' | 'distributed';

/**
 * What a resume (`rdfscout crawl --out DIR`) does with an option:
 * - 'identity': it defines what the crawl is; stored, and a resume that gives another value is refused;
 * - 'stored': stored, reused when not given again, and may change on a resume (speed, limits, network);
 * - 'run': this run only (a one-off request such as `--retry-failed`).
 */
type ResumeRule = 'identity' | 'stored' | 'run';

/** The value kinds a flag can carry; the CLI parser, the checks and the help text follow from it. */
type OptionKind = 'int' | 'number' | 'boolean' | 'choice' | 'text' | 'list';

export interface OptionSpec<K extends string = string, V = unknown> {
  /** The key in `CrawlOptions` (camelCase). */
  readonly key: K;
  /** The command-line flag, without `--`. */
  readonly flag: string;
  readonly kind: OptionKind;
  /** The value's placeholder in `--help` (`N`, `URL`, …); none for booleans. */
  readonly placeholder: string;
  readonly default: V;
  /** The default as `--help` and the docs say it, when the value alone would not say it well. */
  readonly defaultText: string;
  /** One paragraph of help, shown by `--help` (wrapped) and in docs/options.md. */
  readonly help: string;
  readonly section: OptionSection;
  readonly resume: ResumeRule;
  /** Needed to reach the network (proxy, private addresses, user agent, timeouts): a resume must not lose it. */
  readonly network: boolean;
  /** 'int': the least value accepted. */
  readonly min?: number;
  /** 'number': the largest value accepted. */
  readonly max?: number;
  /** 'int': also `Infinity` (written `Infinity` or `inf` on the command line) for "no limit". */
  readonly unbounded?: boolean;
  /** 'choice': the values accepted. */
  readonly choices?: readonly string[];
  /** 'boolean': the flag sets the option to false (`--fixed-labels` turns `rejudgeQueued` off). */
  readonly negates?: boolean;
  /**
   * Splits a value into what may be stored and whether a secret was left out (a proxy's password): what is left out
   * must be given again on a resume, which refuses to start without it.
   */
  secret?(value: V): { stored: V; omitted: boolean };
}

type Common = Pick<OptionSpec, 'help' | 'section' | 'resume'> & Partial<Pick<OptionSpec, 'flag' | 'placeholder' | 'defaultText' | 'network'>>;

/** The kebab-case flag of a camelCase key (`maxDocsPerPld` → `max-docs-per-pld`). */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function spec<K extends string, V>(key: K, kind: OptionKind, value: V, c: Common & Partial<OptionSpec<K, V>>, placeholder: string): OptionSpec<K, V> {
  return {
    ...c,
    key,
    kind,
    flag: c.flag ?? kebab(key),
    placeholder: c.placeholder ?? placeholder,
    default: value,
    defaultText: c.defaultText ?? showValue(value),
    network: c.network ?? false,
  };
}

/** A whole number of at least `min` (and Infinity when `unbounded`). */
export function intOption<K extends string>(key: K, value: number, c: Common & { min: number; unbounded?: boolean }): OptionSpec<K, number> {
  return spec(key, 'int', value, c, 'N');
}

/** A number from `min` to `max`. */
export function numberOption<K extends string>(key: K, value: number, c: Common & { min: number; max: number }): OptionSpec<K, number> {
  return spec(key, 'number', value, c, 'X');
}

/** A flag without a value: it sets the option to true (or to false, with `negates`). */
export function booleanOption<K extends string>(key: K, value: boolean, c: Common & { negates?: boolean }): OptionSpec<K, boolean> {
  return spec(key, 'boolean', value, c, '');
}

/** One of `choices`; `V` is their union, or `string` for lists a registry owns. */
export function choiceOption<K extends string, V extends string>(key: K, choices: readonly V[], value: V, c: Common): OptionSpec<K, V> {
  return spec(key, 'choice', value, { ...c, choices }, choices.join('|'));
}

/** Free text, or null for none. */
export function textOption<K extends string>(key: K, value: string | null, c: Common & { secret?: (v: string | null) => { stored: string | null; omitted: boolean } }): OptionSpec<K, string | null> {
  return spec(key, 'text', value, c, 'TEXT');
}

/** A repeatable flag: every value given, in order. */
export function listOption<K extends string>(key: K, c: Common): OptionSpec<K, string[]> {
  return spec(key, 'list', [] as string[], c, 'PATTERN');
}

/** How a value is written in help and messages (`Infinity` as "none", booleans as on/off). */
function showValue(v: unknown): string {
  if (v === Number.POSITIVE_INFINITY) return 'none';
  if (v === null) return 'none';
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.join(', ');
  return String(v);
}

/** How a value reads on a command line, for messages: `--scope open`, `--allow-private`, `without --allow-private`. */
export function showFlag(s: OptionSpec, v: unknown): string {
  if (s.kind === 'boolean') return (v === true) !== (s.negates === true) ? `--${s.flag}` : `no --${s.flag}`;
  if (Array.isArray(v)) return v.length === 0 ? `no --${s.flag}` : v.map((x) => `--${s.flag} ${String(x)}`).join(' ');
  return `--${s.flag} ${v === Number.POSITIVE_INFINITY ? 'Infinity' : v === null ? '(none)' : String(v)}`;
}

/** The value of `s` from its command-line text (after the parser's own checks); throws an ArgumentError naming the flag. */
export function parseOptionText(s: OptionSpec, raw: string | boolean | string[]): unknown {
  switch (s.kind) {
    case 'boolean':
      return s.negates ? raw !== true : raw === true;
    case 'list':
      return Array.isArray(raw) ? raw.map(String) : [String(raw)];
    case 'int':
      if (s.unbounded && (raw === 'Infinity' || raw === 'inf')) return Number.POSITIVE_INFINITY;
      if (typeof raw === 'string' && /^\s*$/.test(raw)) return Number.NaN;
      return Number(raw);
    case 'number':
      return typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    default:
      return raw;
  }
}

/** Checks a value against `s` (`given`: as the user wrote it, for the message); returns it, or throws an ArgumentError that names the flag and what it takes. */
export function checkOptionValue(s: OptionSpec, v: unknown, given: unknown = v): unknown {
  const bad = (takes: string): never => {
    throw new ArgumentError(`--${s.flag} must be ${takes} (got ${Array.isArray(given) ? given.join(' ') : String(given)}).`);
  };
  switch (s.kind) {
    case 'int': {
      if (s.unbounded && v === Number.POSITIVE_INFINITY) return v;
      const min = s.min ?? 0;
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) bad(`a whole number ≥ ${min}`);
      return v;
    }
    case 'number':
      if (typeof v !== 'number' || !(v >= (s.min ?? 0) && v <= (s.max ?? Number.POSITIVE_INFINITY))) bad(`a number from ${s.min ?? 0} to ${s.max}`);
      return v;
    case 'boolean':
      if (typeof v !== 'boolean') throw new ArgumentError(`--${s.flag} takes no value.`);
      return v;
    case 'choice':
      if (typeof v !== 'string' || !(s.choices ?? []).includes(v)) bad(`one of ${(s.choices ?? []).join(', ')}`);
      return v;
    case 'text':
      if (v !== null && (typeof v !== 'string' || v === '')) bad('a non-empty text');
      return v;
    case 'list':
      if (!Array.isArray(v) || v.some((p) => typeof p !== 'string' || p === '')) bad('given a non-empty value each time');
      return v;
  }
}
