// **Argument helpers** shared by the commands: typed flag parsing with messages that name the flag.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { closest, distance } from 'fastest-levenshtein';
import { ArgumentError } from '../errors.ts';

export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

/**
 * ` (did you mean X?)` when one of `candidates` is near `word` (an edit distance of at most a third of its length,
 * and at least 2), else ''.
 */
export function didYouMean(word: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  const best = closest(word, [...candidates]);
  return distance(word, best) <= Math.max(2, Math.floor(word.length / 3)) ? ` (did you mean ${best}?)` : '';
}

/**
 * Parses `argv` strictly. A bad flag is an ArgumentError (exit code 2) of one line: an unknown flag names the
 * nearest known one; `--help` prints `usage` and exits.
 */
export function parseFlags(argv: string[], options: FlagSpec, usage: string): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    if (values.help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    return { values: values as Record<string, string | boolean | string[] | undefined>, positionals };
  } catch (err) {
    if (err instanceof ArgumentError) throw err;
    const { code, message } = err as { code?: string; message: string };
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /'([^']+)'/.exec(message)?.[1] ?? message;
      const known = [...Object.keys(options), 'help'].map((name) => `--${name}`);
      throw new ArgumentError(`unknown option ${flag}${didYouMean(flag.split('=')[0] ?? flag, known)}`);
    }
    const missing = /^Option '(-[^ ']+)(?: <value>)?' argument missing/.exec(message);
    if (missing) throw new ArgumentError(`${missing[1]} needs a value`);
    throw new ArgumentError(message.split('\n')[0] ?? message);
  }
}

/** A whole number flag (or 'Infinity'); undefined when absent. */
export function intFlag(values: Record<string, unknown>, name: string, min = 0): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (raw === 'Infinity' || raw === 'inf') return Number.POSITIVE_INFINITY;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ArgumentError(`--${name} must be a whole number ≥ ${min} (got ${String(raw)}).`);
  return n;
}

export function strFlag(values: Record<string, unknown>, name: string): string | undefined {
  const raw = values[name];
  return typeof raw === 'string' ? raw : undefined;
}

export function boolFlag(values: Record<string, unknown>, name: string): boolean | undefined {
  return values[name] === true ? true : undefined;
}

export function oneOfFlag<T extends string>(values: Record<string, unknown>, name: string, choices: readonly T[], fallback: T): T {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (!choices.includes(raw as T)) throw new ArgumentError(`--${name} must be one of ${choices.join(', ')} (got ${String(raw)}).`);
  return raw as T;
}

/** The one required positional argument (an output folder, usually). */
export function requirePositional(positionals: string[], what: string): string {
  const v = positionals[0];
  if (v === undefined) throw new ArgumentError(`missing ${what}`);
  return v;
}
