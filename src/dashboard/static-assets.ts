// **Static assets** of the dashboard: its own pages from src/dashboard/assets and the browser builds of Observable
// Plot, d3 and YASGUI from node_modules (no CDN). Read once, then served from memory.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** Where a vendored browser build lives, resolved through the package (works wherever npm put it). */
function vendor(specifier: string, relative: string): string {
  return fileURLToPath(new URL(relative, import.meta.resolve(specifier)));
}

/** Served path (relative to the dashboard's root) → file. */
function assetFiles(): Record<string, string> {
  const own = (name: string) => fileURLToPath(new URL(`./assets/${name}`, import.meta.url));
  return {
    '': own('dashboard.html'),
    'index.html': own('dashboard.html'),
    'query.html': own('query.html'),
    'assets/dashboard.js': own('dashboard.js'),
    'assets/charts.js': fileURLToPath(new URL('../report/charts.js', import.meta.url)), // shared with the HTML report
    'assets/query.js': own('query.js'),
    'assets/dashboard.css': own('dashboard.css'),
    'assets/vendor/d3.min.js': vendor('d3', './d3.min.js'), // d3 resolves to dist/d3.mjs
    'assets/vendor/plot.umd.min.js': vendor('@observablehq/plot', '../dist/plot.umd.min.js'), // resolves to src/index.js
    'assets/vendor/yasgui.min.js': vendor('@zazuko/yasgui/package.json', './build/yasgui.min.js'),
    'assets/vendor/yasgui.min.css': vendor('@zazuko/yasgui/package.json', './build/yasgui.min.css'),
  };
}

export interface Asset {
  type: string;
  body: Buffer;
}

/** Loads the assets lazily on first use; `get(path)` returns null for an unknown path. */
export class StaticAssets {
  #cache = new Map<string, Promise<Asset>>();
  readonly #files = assetFiles();

  has(path: string): boolean {
    return Object.hasOwn(this.#files, path);
  }

  get(path: string): Promise<Asset> | null {
    const file = this.#files[path];
    if (file === undefined) return null;
    let hit = this.#cache.get(path);
    if (hit === undefined) {
      const ext = file.slice(file.lastIndexOf('.') + 1);
      hit = readFile(file).then((body) => ({ type: TYPES[ext] ?? 'application/octet-stream', body }));
      this.#cache.set(path, hit);
    }
    return hit;
  }
}
