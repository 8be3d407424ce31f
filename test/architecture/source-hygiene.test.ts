// Source hygiene: files small enough to read whole, comments that say why (the history of a change is in git).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const MAX_LINES = 350;

/**
 * Files over {@link MAX_LINES} lines today, each being split on another branch where its concept splits. Remove an
 * entry when its file is split: the test fails on an entry that is no longer over the limit.
 */
const OVER_LIMIT = new Set<string>([]);

/**
 * Files whose comments still cite an issue or a session, all being edited on other branches. Remove an entry when
 * its comments are rewritten: the test fails on an entry that no longer cites one.
 */
const CITES_ISSUES = new Set<string>([]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

const ISSUE_CITATION = /\b(?:issues?|sessions?) #?\d+/i;

/** Comment lines (or the comment part of a code line) that cite an issue or a session, as `line: text`. */
function issueCitations(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trimStart();
    const whole = trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*');
    const slash = line.indexOf('// ');
    const comment = whole ? line : slash >= 0 ? line.slice(slash) : '';
    if (ISSUE_CITATION.test(comment)) out.push(`${i + 1}: ${trimmed}`);
  });
  return out;
}

const files = sourceFiles(SRC).map((path) => ({ name: relative(SRC, path), text: readFileSync(path, 'utf8') }));

describe('source hygiene', () => {
  it(`no file under src/ is over ${MAX_LINES} lines (but the listed ones, being split)`, () => {
    const lines = new Map(files.map((f) => [f.name, f.text.split('\n').length - (f.text.endsWith('\n') ? 1 : 0)]));
    const over = [...lines].filter(([name, n]) => n > MAX_LINES && !OVER_LIMIT.has(name)).map(([name, n]) => `${name}: ${n}`);
    expect(over, 'split these where the concept splits').toEqual([]);
    const stale = [...OVER_LIMIT].filter((name) => (lines.get(name) ?? 0) <= MAX_LINES);
    expect(stale, 'no longer over the limit (or gone): remove from OVER_LIMIT').toEqual([]);
  });

  it('no comment under src/ cites an issue or a session (but the listed files, being edited elsewhere)', () => {
    const citing = files.filter((f) => issueCitations(f.text).length > 0);
    const found = citing.filter((f) => !CITES_ISSUES.has(f.name)).flatMap((f) => issueCitations(f.text).map((c) => `${f.name}:${c}`));
    expect(found, 'say why in the comment; the history belongs in git').toEqual([]);
    const names = new Set(citing.map((f) => f.name));
    expect([...CITES_ISSUES].filter((n) => !names.has(n)), 'no longer cites one: remove from CITES_ISSUES').toEqual([]);
  });

  it('finds citations in comments only', () => {
    const text = ["// picks one (issue 17 item 2)", ' * as in session 8', "const s = 'issue 4';", 'f(); // why: it is cheap'].join('\n');
    expect(issueCitations(text)).toEqual(['1: // picks one (issue 17 item 2)', '2: * as in session 8']);
  });
});
