// The layers of src/, lowest first: a module may import only from layers below its own (and from itself).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layer order (README "How it is built"). Modules in one row are independent of each other; each row may
 * import from the rows above it only. A module is a folder of src/ (or a file at its top, such as errors.ts).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'node-flags', 'hash'],
  ['random', 'links', 'fetch', 'state', 'sink'],
  ['relevance', 'bandit', 'warc'],
  ['topical'],
  ['strategies', 'frontier', 'crawl-log'],
  ['metrics', 'rdf', 'beebot', 'simweb'],
  ['sparql'],
  ['crawl'],
  ['distributed'],
  ['report'],
  ['dashboard'],
  ['commands'],
  ['cli'],
];

const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** Relative specifiers of every static, re-export and dynamic import of a file. */
function importsOf(text: string): string[] {
  const out: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec?.startsWith('.')) out.push(spec);
  }
  return out;
}

/** The module of a file under src/: its first folder, or its own name for a top-level file. */
function moduleOf(file: string): string {
  const rel = relative(SRC, file).split(/[\\/]/);
  return rel.length === 1 ? (rel[0] as string).replace(/\.ts$/, '') : (rel[0] as string);
}

/** Index of a module's row in LAYERS, or -1 when it is in none. */
function layerOf(module: string): number {
  return LAYERS.findIndex((row) => row.includes(module));
}

/** Every import of src/ that goes to the same or a higher layer (another module), as "from → to" lines. */
function layerViolations(files: readonly { path: string; text: string }[]): string[] {
  const bad: string[] = [];
  for (const { path, text } of files) {
    const from = moduleOf(path);
    for (const spec of importsOf(text)) {
      const target = resolve(dirname(path), spec);
      if (!target.startsWith(SRC)) continue;
      const to = moduleOf(target);
      if (to === from) continue;
      if (layerOf(to) >= layerOf(from)) bad.push(`${relative(SRC, path)} → ${relative(SRC, target)} (${from} may not import ${to})`);
    }
  }
  return bad;
}

const files = sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') }));

describe('layers of src/', () => {
  it('places every module of src/ in a layer', () => {
    const unplaced = [...new Set(files.map((f) => moduleOf(f.path)))].filter((m) => layerOf(m) < 0);
    expect(unplaced).toEqual([]);
  });

  it('has no import from a lower layer to a higher one (or between modules of one layer)', () => {
    expect(layerViolations(files)).toEqual([]);
  });

  it('catches an upward import (the check itself works)', () => {
    const path = join(SRC, 'rdf/export.ts');
    expect(layerViolations([{ path, text: "import { Crawler } from '../crawl/crawler.ts';\n" }])).toHaveLength(1);
    expect(layerViolations([{ path, text: "export { x } from '../sparql/index.ts';\nconst m = await import('../commands/crawl.ts');\n" }])).toHaveLength(2);
    expect(layerViolations([{ path, text: "import type { CrawlRecord } from '../crawl-log/record.ts';\n" }])).toEqual([]);
  });

  it('lets no crawl module name a frontier backend (they take the Frontier interface from openFrontier)', () => {
    const named = files
      .filter((f) => moduleOf(f.path) === 'crawl' && /\b(LevelFrontier|DualFrontier|MemoryFrontier)\b|level-frontier|dual-frontier|memory-frontier/.test(f.text))
      .map((f) => relative(SRC, f.path));
    expect(named).toEqual([]);
  });

  it('lets only the typed stores touch the state\'s sublevels (each store builds and parses its own keys)', () => {
    const STORES = [
      'beebot/link-tables.ts',
      'crawl-log/record-store.ts',
      'crawl-log/void-facts.ts',
      'crawl/context-store.ts',
      'crawl/crawl-meta.ts',
      'crawl/learned-store.ts',
      'crawl/sink-marks.ts',
      'frontier/dual-frontier.ts',
      'frontier/level-frontier.ts',
      'frontier/seen-load.ts',
      'rdf/document-store.ts',
      'rdf/document-writer.ts',
    ];
    const touching = files.filter((f) => /\.sub(\.|\[)/.test(f.text)).map((f) => relative(SRC, f.path).replaceAll('\\', '/'));
    expect(touching.filter((f) => !STORES.includes(f) && !f.startsWith('state/'))).toEqual([]);
  });
});
