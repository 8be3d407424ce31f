// **bench:real** crawls real Linked-Data sites, served locally from their published sources (bench/real-sites/), and
// prints per site and strategy: RDF documents, documents with ≥ 1 triple, triples, share of the site's oracle, and
// rdflib's triple count on the same documents. Not in CI: the sites are laid out from snapshots (see sites.json).
//   node bench/real-sites.ts [--snapshots DIR] [--data DIR] [--clone] [--sites a,b]
//     [--runs bfs:off,fc-r+hr:off,yield:off,fc-r+hr:on] (strategy:rdf-links) [--max-docs N] [--parallel N]
//     [--contexts DIR] [--json FILE] [--label TEXT] [--runs-dir DIR [--reuse]]
// --runs-dir keeps each crawl's records there; with --reuse the figures are made again from those kept (crawling
// only the missing ones)
// (e.g. against another rdflib reference, --contexts).
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import type { ChildResult } from './real-sites/crawl-child.ts';
import { type Oracle, type SiteFigures, ratio, siteFigures } from './real-sites/figures.ts';
import { LAYOUT_OPTIONS, layoutSite, type RealSite, readSites } from './real-sites/layout.ts';
import { serveRealSites } from './real-sites/serve.ts';
import type { ServedSite } from './real-sites/static-host.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values } = parseArgs({
  options: {
    ...LAYOUT_OPTIONS,
    runs: { type: 'string', default: 'bfs:off,fc-r+hr:off,yield:off,fc-r+hr:on' },
    'max-docs': { type: 'string', default: '3000' },
    parallel: { type: 'string', default: '2' },
    contexts: { type: 'string', default: join(root, 'data', 'contexts') },
    json: { type: 'string' },
    label: { type: 'string', default: '' },
    'runs-dir': { type: 'string' },
    reuse: { type: 'boolean', default: false },
  },
});
const maxDocs = Number(values['max-docs']);
/** The crawls of each site: strategy and whether IRIs inside RDF documents are followed. */
const runs = values.runs.split(',').map((r) => {
  const [strategy = '', links = ''] = r.split(':');
  if (links !== 'on' && links !== 'off') throw new Error(`--runs takes strategy:on|off items, got ${r}`);
  return { strategy, rdfLinks: links === 'on' };
});
const strategies = [...new Set(runs.map((r) => r.strategy))];
const linkModes = [...new Set(runs.map((r) => r.rdfLinks))];
const wanted = values.sites?.split(',');
const sites = readSites().filter((s) => !wanted || wanted.includes(s.name));
const excludes = JSON.parse(readFileSync(join(here, 'real-sites', 'sites.json'), 'utf8')).referenceExclude as Record<string, string> | undefined;

const served: ServedSite[] = sites.map((site) => ({ site, dir: layoutSite(site, { dataDir: values.data, snapshots: values.snapshots, clone: values.clone }) }));
const contexts = contextMap(values.contexts);
const oracles = new Map<string, Oracle>();
for (const s of served) oracles.set(s.site.name, oracleOf(s));

const server = await serveRealSites(served);
const workDir = values['runs-dir'] ?? mkdtempSync(join(tmpdir(), 'rdfscout-real-bench-'));
mkdirSync(workDir, { recursive: true });
const rows: { site: RealSite; strategy: string; rdfLinks: boolean; figures: SiteFigures; ms: number; stoppedBy: string }[] = [];
console.log(`# bench:real ${values.label} — rdfscout ${git('rev-parse', '--short', 'HEAD')}, budget ${maxDocs} fetches a crawl, ${new Date().toISOString()}`);
console.log('site            kind            role    strategy  rdf-links fetches  rdfDocs  ≥1triple   triples  html+t  oracle-share (found/oracle)  rdflib: kept/readable  triples kept/ref  rejected  s');
try {
  const jobs = served.flatMap((s) => runs.map((run) => ({ s, ...run })));
  const results = new Map<(typeof jobs)[number], ChildResult>();
  let next = 0;
  let printed = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++] as (typeof jobs)[number];
      results.set(job, await crawl(job.s.site, job.strategy, job.rdfLinks));
      for (; printed < jobs.length && results.has(jobs[printed] as (typeof jobs)[number]); printed++) {
        const j = jobs[printed] as (typeof jobs)[number];
        report(j.s, j.strategy, j.rdfLinks, results.get(j) as ChildResult);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(values.parallel)) }, worker));
} finally {
  await server.close();
  if (values['runs-dir'] === undefined) rmSync(workDir, { recursive: true, force: true });
}
printSummary();

function report(s: ServedSite, strategy: string, rdfLinks: boolean, result: ChildResult): void {
  const oracle = oracles.get(s.site.name) as Oracle;
  const exclude = excludes?.[s.site.name] ? new RegExp(excludes[s.site.name] as string) : null;
  const f = siteFigures(s, oracle, result.records, exclude);
  rows.push({ site: s.site, strategy, rdfLinks, figures: f, ms: result.ms, stoppedBy: result.stoppedBy });
  console.log(
    [
      s.site.name.padEnd(15),
      s.site.kind.padEnd(15),
      s.site.role.padEnd(7),
      strategy.padEnd(9),
      (rdfLinks ? 'on' : 'off').padEnd(9),
      String(f.fetches).padStart(7),
      String(f.rdfDocs).padStart(8),
      String(f.rdfDocsWithTriples).padStart(9),
      String(f.rdfTriples).padStart(9),
      String(f.htmlWithTriples).padStart(7),
      `${ratio(f.oracleFound, f.oracle)} (${f.oracleFound}/${f.oracle})`.padStart(28),
      `${ratio(f.refKept, f.refReadable)} (${f.refKept}/${f.refReadable})`.padStart(22),
      `${ratio(f.keptTriples, f.refTriples)} (${f.keptTriples}/${f.refTriples})`.padStart(17),
      String(f.refRejected).padStart(9),
      `${(result.ms / 1000).toFixed(0)}${result.stoppedBy === 'max-docs' ? 'B' : ''}`.padStart(4),
    ].join(' '),
  );
}
if (values.json) writeFileSync(values.json, JSON.stringify({ label: values.label, commit: git('rev-parse', 'HEAD'), maxDocs, rows: rows.map((r) => ({ ...r, site: r.site.name, kind: r.site.kind, role: r.site.role })) }, null, 1));

async function crawl(site: RealSite, strategy: string, followRdfLinks: boolean): Promise<ChildResult> {
  const out = join(workDir, `${site.name}-${strategy}-${followRdfLinks}.json`);
  const include = site.hosts.flatMap((h) => [`https://${h}${site.path}*`, `http://${h}${site.path}*`]);
  if (values.reuse && existsSync(out)) return JSON.parse(readFileSync(out, 'utf8')) as ChildResult;
  const options = { seeds: site.seeds, strategy, followRdfLinks, proxy: server.proxyUrl, include, maxDocs, delayMs: 0 };
  await promisify(execFile)(process.execPath, [join(here, 'real-sites', 'crawl-child.ts'), JSON.stringify(options), out], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: server.caFile },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(readFileSync(out, 'utf8')) as ChildResult;
}

/** oracle.py's answer for a site, cached by commit, script and contexts. */
function oracleOf(s: ServedSite): Oracle {
  const script = join(here, 'real-sites', 'oracle.py');
  const key = createHash('sha1').update(readFileSync(script)).update(JSON.stringify(contexts)).update(JSON.stringify(s.site)).digest('hex').slice(0, 12);
  const cache = join(values.data, '.cache', `${s.site.name}-${key}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as Oracle;
  const t0 = performance.now();
  const out = execFileSync('/usr/bin/python3', [script], { input: JSON.stringify({ dir: s.dir, site: s.site, contexts }), maxBuffer: 2 ** 30 });
  mkdirSync(dirname(cache), { recursive: true });
  writeFileSync(cache, out);
  console.error(`oracle of ${s.site.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return JSON.parse(out.toString('utf8')) as Oracle;
}

/** URL → local file of every context `dir/index.json` lists (rdflib's reference reads contexts from there only). */
function contextMap(dir: string): Record<string, string> {
  const file = join(dir, 'index.json');
  if (!existsSync(file)) return {};
  // index.json lists either { url: file } or [{ file, urls: [...] }].
  type Entry = string | { file?: string; urls?: string[] };
  const index = JSON.parse(readFileSync(file, 'utf8')) as { contexts?: Record<string, Entry> | Entry[] };
  const map: Record<string, string> = {};
  const contexts = index.contexts ?? {};
  if (Array.isArray(contexts)) {
    for (const e of contexts) if (typeof e !== 'string' && e.file) for (const url of e.urls ?? []) map[url] = join(dir, e.file);
  } else {
    for (const [url, v] of Object.entries(contexts)) {
      const name = typeof v === 'string' ? v : v.file;
      if (name) map[url] = join(dir, name);
    }
  }
  return map;
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: root }).toString().trim();
}

function printSummary(): void {
  const sum = (list: typeof rows, k: keyof SiteFigures) => list.reduce((t, r) => t + (r.figures[k] as number), 0);
  console.log('\n## Per strategy and rdf-links: all sites (tune | held-out)');
  for (const strategy of strategies) {
    for (const rdfLinks of linkModes) {
      if (!runs.some((r) => r.strategy === strategy && r.rdfLinks === rdfLinks)) continue;
      const line = (role: string | null) => {
        const rs = rows.filter((r) => r.strategy === strategy && r.rdfLinks === rdfLinks && (role === null || r.site.role === role));
        return `docs kept ${ratio(sum(rs, 'refKept'), sum(rs, 'refReadable'))}, triples kept ${ratio(sum(rs, 'keptTriples'), sum(rs, 'refTriples'))}, oracle ${ratio(sum(rs, 'oracleFound'), sum(rs, 'oracle'))}, docs with triples / fetch ${ratio(sum(rs, 'rdfDocsWithTriples') + sum(rs, 'htmlWithTriples'), sum(rs, 'fetches'))}`;
      };
      console.log(`${strategy.padEnd(8)} rdf-links ${rdfLinks ? 'on ' : 'off'} | all: ${line(null)} | tune: ${line('tune')} | held-out: ${line('measure')}`);
    }
  }
  console.log('\n## Oracle share by kind of site (documents with ≥ 1 triple ÷ oracle), per strategy and rdf-links');
  const kinds = [...new Set(rows.map((r) => r.site.kind))];
  for (const strategy of strategies) {
    for (const rdfLinks of linkModes) {
      if (!runs.some((r) => r.strategy === strategy && r.rdfLinks === rdfLinks)) continue;
      const parts = kinds.map((k) => {
        const rs = rows.filter((r) => r.strategy === strategy && r.rdfLinks === rdfLinks && r.site.kind === k);
        return `${k} ${ratio(sum(rs, 'oracleFound'), sum(rs, 'oracle'))}`;
      });
      console.log(`${strategy.padEnd(8)} rdf-links ${rdfLinks ? 'on ' : 'off'}: ${parts.join(', ')}`);
    }
  }
  console.log('\n## Documents rdflib reads that rdfscout kept 0 triples from (first run of each site)');
  for (const r of rows.filter((x) => x.strategy === runs[0]?.strategy && x.rdfLinks === runs[0]?.rdfLinks)) {
    if (r.figures.lost.length === 0) continue;
    const byError = new Map<string, number>();
    for (const l of r.figures.lost) {
      const key = (l.error ?? 'no error').replace(/\d+/g, 'N').slice(0, 110);
      byError.set(key, (byError.get(key) ?? 0) + 1);
    }
    console.log(`${r.site.name}: ${r.figures.lost.length} — ${[...byError].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([e, n]) => `${n}× ${e}`).join(' | ')}`);
  }
  console.log('\nSites (repo@commit, served at): ' + served.map((s) => `${s.site.name} ${s.site.repo}@${s.site.commit.slice(0, 12)} ${s.site.scheme}://${s.site.hosts[0]}${s.site.path}`).join('; '));
}
