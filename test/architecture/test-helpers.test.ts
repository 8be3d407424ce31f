// One set of test helpers: temp folders, the CLI runner and the worker spawner live in test/helpers/ and nowhere
// else; and production code reads no switch meant for tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** The code of a file, comments blanked (a comment may name what it must not do). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** What a file under test/ must not do, the helper that does it instead, and the one place it is done. */
const RULES: ReadonlyArray<{ what: string; re: RegExp; use: string; home: readonly string[] }> = [
  { what: 'makes a temp folder itself', re: /\bmkdtemp(?:Sync)?\s*\(/, use: 'tempDir() / useTempDir() / makeTempDir() from test/helpers/temp-dir.ts', home: ['test/helpers/temp-dir.ts'] },
  { what: 'starts the CLI itself', re: /bin\/rdfscout\.js|src\/cli\.ts/, use: 'runCli / runCliOk / runCliPiped / startCli from test/helpers/run-cli.ts', home: ['test/helpers/run-cli.ts'] },
  {
    what: 'defines its own CLI runner or worker spawner',
    re: /\b(?:function|const|let)\s+(?:runCli\w*|startCli|startWorker|startRedisWorker|startChild)\b/,
    use: 'test/helpers/run-cli.ts and test/helpers/workers.ts',
    home: ['test/helpers/run-cli.ts', 'test/helpers/workers.ts'],
  },
];

/** `file:line: what (use …)` for each rule a file's text breaks outside the rule's home. */
function breaches(name: string, text: string): string[] {
  const lines = code(text).split('\n');
  return RULES.filter((rule) => !rule.home.includes(name)).flatMap((rule) =>
    lines.flatMap((line, i) => (rule.re.test(line) ? [`${name}:${i + 1}: ${rule.what} (use ${rule.use})`] : [])),
  );
}

describe('one set of test helpers', () => {
  it('only test/helpers/temp-dir.ts makes temp folders, only run-cli.ts starts the CLI, only it and workers.ts define runners', () => {
    const found = tsFiles(join(ROOT, 'test'))
      .map((path) => relative(ROOT, path))
      .filter((name) => name !== 'test/architecture/test-helpers.test.ts')
      .flatMap((name) => breaches(name, readFileSync(join(ROOT, name), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the check catches each thing it forbids, in code and not in comments', () => {
    const bad = [
      "const dir = await mkdtemp(join(tmpdir(), 'x-'));",
      "spawn(process.execPath, [join(import.meta.dirname, '../../bin/rdfscout.js'), 'crawl']);",
      "await execFile(process.execPath, ['src/cli.ts', 'stats', dir]);",
      'async function runCli(args: string[]) {}',
      'const startWorker = (args: string[]) => spawn(NODE, args);',
    ];
    for (const line of bad) expect(breaches('t.ts', line), line).toHaveLength(1);
    expect(breaches('t.ts', "// not mkdtemp(), nor bin/rdfscout.js\n/** function runCli */\nconst dir = await tempDir();")).toEqual([]);
  });
});

describe('no test hooks in production code', () => {
  it('nothing under src/ reads an RDFSCOUT_TEST_* variable or imports from test/', () => {
    const found = tsFiles(join(ROOT, 'src')).flatMap((path) => {
      const lines = code(readFileSync(path, 'utf8')).split('\n');
      return lines.flatMap((line, i) => (/RDFSCOUT_TEST_|from '(?:\.\.\/)+test\//.test(line) ? [`${relative(ROOT, path)}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(found, 'inject probes and switches through options (src/crawl/probes.ts, test/helpers/cli-with-probes.ts)').toEqual([]);
  });

  it('module-level state under src/ is a cache that says so (or a worker thread\'s own state)', () => {
    const found = tsFiles(join(ROOT, 'src'))
      .filter((path) => !path.endsWith('query-worker.ts')) // a worker thread's module is that thread's state
      .flatMap((path) => {
        const lines = readFileSync(path, 'utf8').split('\n');
        return lines.flatMap((line, i) => {
          if (!/^(?:export )?let /.test(line)) return [];
          const near = lines.slice(Math.max(0, i - 2), i + 3).join('\n');
          return /\bcache|\bonce\b/i.test(near) ? [] : [`${relative(ROOT, path)}:${i + 1}: ${line.trim()}`];
        });
      });
    expect(found, 'pass state in through options or constructor arguments; a cache says it is one').toEqual([]);
  });
});
