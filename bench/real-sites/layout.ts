// **layoutSites** lays each real site of sites.json out as it is served: the served folder of the listed commit,
// taken from a folder of bare git snapshots (`owner+name/repo`) or, where the internet is reachable, from a clone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One site of sites.json. */
export interface RealSite {
  name: string;
  kind: string;
  /** 'tune': may inform defaults; 'measure': only measured (held out). */
  role: 'tune' | 'measure';
  repo: string;
  ref: string;
  commit: string;
  /** Subfolder of the commit's tree that is served ('' = the whole tree). */
  folder: string;
  hosts: string[];
  /** URL path the folder is served at, with leading and trailing slash. */
  path: string;
  scheme: 'http' | 'https';
  seeds: string[];
}

const SITES_FILE = join(dirname(fileURLToPath(import.meta.url)), 'sites.json');
const DEFAULT_DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'data');
const DEFAULT_SNAPSHOTS = '/work/.mirror';

export function readSites(file = SITES_FILE): RealSite[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { sites: RealSite[] }).sites;
}

/** The folder a site is laid out in; a `.commit` file inside names the commit it holds. */
function siteDir(dataDir: string, site: RealSite): string {
  return join(dataDir, site.name);
}

/**
 * Lays `site` out under `dataDir` unless it already holds that commit. From `snapshots/owner+name/repo` (a bare git
 * directory) when present; else, with `clone`, from a shallow fetch of the commit from GitHub. Returns the folder.
 */
export function layoutSite(site: RealSite, options: { dataDir: string; snapshots: string; clone: boolean }): string {
  const dir = siteDir(options.dataDir, site);
  const mark = join(dir, '.commit');
  if (existsSync(mark) && readFileSync(mark, 'utf8').trim() === site.commit) return dir;
  let gitDir = join(options.snapshots, site.repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) {
    if (!options.clone) throw new Error(`No snapshot of ${site.repo} at ${gitDir}: fetch it there, give --snapshots DIR, or --clone where GitHub is reachable.`);
    gitDir = join(options.dataDir, '.clones', `${site.repo.replace('/', '+')}.git`);
    if (!existsSync(gitDir)) execFileSync('git', ['init', '--bare', '-q', gitDir]);
    execFileSync('git', ['--git-dir', gitDir, 'fetch', '-q', '--depth', '1', `https://github.com/${site.repo}.git`, site.commit], { stdio: 'inherit' });
  }
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const missing = extractTree(gitDir, site.folder === '' ? site.commit : `${site.commit}:${site.folder}`, tmp);
  // Snapshots lack files of 4 MiB and more (and Git LFS content): they are listed, and served as missing.
  writeFileSync(join(tmp, '.missing'), missing.map((m) => `${m}\n`).join(''));
  writeFileSync(join(tmp, '.commit'), `${site.commit}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return dir;
}

/** The flags that say where the sites come from and which (`bench/real-sites.ts` takes them too). */
export const LAYOUT_OPTIONS = {
  snapshots: { type: 'string', default: DEFAULT_SNAPSHOTS },
  data: { type: 'string', default: DEFAULT_DATA_DIR },
  clone: { type: 'boolean', default: false },
  sites: { type: 'string' },
} as const;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({
    options: LAYOUT_OPTIONS,
  });
  const wanted = values.sites?.split(',');
  for (const site of readSites()) {
    if (wanted && !wanted.includes(site.name)) continue;
    const dir = layoutSite(site, { dataDir: values.data, snapshots: values.snapshots, clone: values.clone });
    console.log(`${site.name}: ${site.repo}@${site.commit.slice(0, 10)} → ${dir}`);
  }
}

/** Writes every blob of `tree` under `dest` (symlinks and submodules skipped); returns the paths whose blob is absent. */
function extractTree(gitDir: string, tree: string, dest: string): string[] {
  const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', tree], { maxBuffer: 2 ** 30 }).toString('utf8');
  const entries: { sha: string; path: string }[] = [];
  for (const row of listing.split('\0')) {
    const m = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(row);
    if (m === null || m[2] !== 'blob' || m[1] === '120000') continue;
    entries.push({ sha: m[3] as string, path: m[4] as string });
  }
  const out = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { input: entries.map((e) => `${e.sha}\n`).join(''), maxBuffer: 2 ** 31 - 1 });
  const missing: string[] = [];
  let at = 0;
  for (const e of entries) {
    const nl = out.indexOf(10, at);
    const header = out.subarray(at, nl).toString('latin1');
    at = nl + 1;
    if (header.endsWith(' missing')) {
      missing.push(e.path);
      continue;
    }
    const size = Number(header.split(' ')[2]);
    const file = join(dest, e.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, out.subarray(at, at + size));
    at += size + 1;
  }
  return missing;
}
