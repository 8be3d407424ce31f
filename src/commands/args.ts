// **Argument helpers** shared by the commands: typed flag parsing with messages that name the flag.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ArgumentError } from '../errors.ts';

export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

/** Parses `argv` strictly; unknown flags become an ArgumentError (exit code 2) with the command's usage. */
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
    throw new ArgumentError(`${(err as Error).message}\n\n${usage}`);
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
export function requirePositional(positionals: string[], what: string, usage: string): string {
  const v = positionals[0];
  if (v === undefined) throw new ArgumentError(`Missing ${what}.\n\n${usage}`);
  return v;
}
