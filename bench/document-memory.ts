// **bench/document-memory** measures the memory a crawl needs for large RDF documents: the RSS one
// document adds, as a multiple of its size, and the peak RSS of a crawl of a site with large documents and many pages.
// Run: node_modules/.bin/node bench/document-memory.ts [--pages 300] [--scale 1] [--src REPO_ROOT] [--node-flags '…'] [--json FILE] [--repeat 3] [--only A,B]
//   --repeat: fresh processes per large document (default 3): the median is the headline, the range is printed too
//     (one run varies by ±3 MB on a loaded machine, as garbage collections fall differently).
//   --only: the measurements to run, by name (a large document's file name, `site`, `five`); default all.
//   --src: crawl with the rdfscout sources of another checkout (e.g. an older commit's `git archive`), for before/after.
//   --node-flags: V8 flags of the crawling processes (default: those the CLI of the --src checkout runs with; '' for
//     none); the processes also get the environment that CLI sets (CLI_ENV, if the checkout has one).
//   --scale: size of the five-site crawl (1: ~2,500 documents, 8 MB of them in three large files); 0 skips it.
// Everything is served from 127.0.0.1; each measurement runs in a fresh child process (RSS is per process).
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LARGE, startFiveSites, startSite } from './memory-sites.ts';

const MB = 1024 * 1024;

// ---------------------------------------------------------------- the child: one crawl, its memory

interface ChildJob {
  src: string;
  seeds: string[];
  /** Crawled first, one document each (modules loaded, parser code compiled): a small HTML page and a small Turtle file. */
  warmUp: string[];
  maxDocs: number;
  maxDepth: number;
  /** A forward proxy for every request (the five sites), or none. */
  proxy?: string;
}
interface ChildReport {
  rssBeforeMb: number;
  /** The V8 heap (committed) before the measured crawl: the rest of RSS is outside the heap. */
  heapBeforeMb: number;
  peakRssMb: number;
  /** The V8 heap (committed, used) and the memory outside it when RSS peaked: where the peak's memory was. */
  atPeak: { heapTotalMb: number; heapUsedMb: number; otherMb: number; levelDbMb: number; phase: string };
  fetched: number;
  /** Records with an error (URL, code, message). */
  errors: string[];
  triples: number;
  ms: number;
  /** CPU time of the process (user + system, all threads: LevelDB's compactions too) during the measured crawl. */
  cpuMs: number;
}

async function child(job: ChildJob): Promise<ChildReport> {
  const { Crawler } = (await import(join(job.src, 'src/crawl/crawler.ts'))) as typeof import('../src/crawl/crawler.ts');
  // Records moved to crawl-log/: an older --src checkout has them in crawl/records.ts.
  const recordsPath = existsSync(join(job.src, 'src/crawl-log/record-store.ts')) ? 'src/crawl-log/record-store.ts' : 'src/crawl/records.ts';
  const { readRecords } = (await import(join(job.src, recordsPath))) as typeof import('../src/crawl-log/record-store.ts');
  // The crawl's LevelDB, while it is open: its memtables and block cache are part of RSS (a per-process cost).
  let db: { status: string; getProperty(name: string): string } | null = null;
  let levelDbPeakMb = 0;
  // Whether the peak came while documents were fetched and parsed, or once the indexer had begun loading them.
  let indexer: { indexedQuads?: number } | undefined;
  const crawl = async (seeds: string[], maxDocs: number, maxDepth: number, proxy?: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'rdfscout-docmem-'));
    try {
      const options = { out: dir, seeds, allowPrivate: true, delayMs: 0, maxDocs, maxDepth, strategy: 'bfs' as const, concurrency: 4, hostConcurrency: 4 };
      const crawler = await Crawler.open(proxy === undefined ? options : { ...options, proxy });
      db = crawler.state.db;
      indexer = (crawler.state as { indexer?: { indexedQuads?: number } }).indexer;
      try {
        const s = await crawler.run();
        const errors: string[] = [];
        for await (const r of readRecords(crawler.state)) if (r.error !== null) errors.push(`${r.url}: ${r.error} ${r.errorMessage ?? ''}`.slice(0, 200));
        return { fetched: s.fetched, triples: s.triples as number, errors };
      } finally {
        await crawler.close();
        db = null;
        indexer = undefined;
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  // Warm up (modules loaded, code compiled) on small documents, then measure from the RSS of an idle process.
  for (const url of job.warmUp) await crawl([url], 1, 0);
  global.gc?.();
  await new Promise((r) => setTimeout(r, 100));
  const { rss: rssBefore, heapTotal: heapBefore } = process.memoryUsage();
  let peak = rssBefore;
  let atPeak = { heapTotalMb: 0, heapUsedMb: 0, otherMb: 0, levelDbMb: 0, phase: '' };
  const sample = () => {
    const m = process.memoryUsage();
    if (m.rss <= peak) return;
    peak = m.rss;
    const levelDbMb = db?.status === 'open' ? Number(db.getProperty('leveldb.approximate-memory-usage')) / MB : levelDbPeakMb;
    levelDbPeakMb = Math.max(levelDbPeakMb, levelDbMb);
    const phase = (indexer?.indexedQuads ?? 0) > 0 ? 'indexing began' : 'before indexing';
    atPeak = { heapTotalMb: m.heapTotal / MB, heapUsedMb: m.heapUsed / MB, otherMb: (m.rss - m.heapTotal) / MB, levelDbMb, phase };
  };
  const sampler = setInterval(sample, 5);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const s = await crawl(job.seeds, job.maxDocs, job.maxDepth, job.proxy);
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  sample();
  return { rssBeforeMb: rssBefore / MB, heapBeforeMb: heapBefore / MB, peakRssMb: peak / MB, atPeak, fetched: s.fetched, triples: s.triples, errors: s.errors, ms: Math.round(performance.now() - t0), cpuMs: Math.round((cpu.user + cpu.system) / 1000) };
}

function runChild(job: ChildJob, nodeFlags: string[], env: Record<string, string>): Promise<ChildReport> {
  return new Promise((resolvePromise, reject) => {
    const execArgv = ['--expose-gc', ...nodeFlags];
    const p = fork(import.meta.filename, ['--child', JSON.stringify(job)], { execArgv, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    p.once('message', (m) => resolvePromise(m as ChildReport));
    p.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`child exited with ${code}`))));
  });
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { pages: { type: 'string', default: '300' }, scale: { type: 'string', default: '1' }, src: { type: 'string' }, json: { type: 'string' }, child: { type: 'string' }, 'node-flags': { type: 'string' }, only: { type: 'string' }, repeat: { type: 'string', default: '3' } },
  });
  if (values.child !== undefined) {
    const report = await child(JSON.parse(values.child) as ChildJob);
    process.send?.(report);
    process.disconnect?.();
    return;
  }
  const pages = Number(values.pages);
  const only = values.only === undefined ? null : new Set(values.only.split(','));
  const wanted = (name: string) => only === null || only.has(name);
  const src = resolve(values.src ?? join(import.meta.dirname, '..'));
  // The flags and environment the CLI of that checkout runs with (node-flags.ts; CLI_ENV is newer than the flags).
  const cli = (await import(join(src, 'src/node-flags.ts'))) as { CLI_NODE_FLAGS?: readonly string[]; CLI_ENV?: Record<string, string> };
  const nodeFlags = (values['node-flags'] ?? (cli.CLI_NODE_FLAGS ?? []).join(' ')).split(' ').filter(Boolean);
  const env = cli.CLI_ENV ?? {};
  const run = (job: ChildJob) => runChild(job, nodeFlags, env);
  const site = await startSite(pages);
  const warmUp = [`${site.origin}/page/0`, `${site.origin}/data/small.ttl`];
  const rows: Array<Record<string, string | number>> = [];
  try {
    console.log(`rdfscout sources: ${src}; node flags: ${nodeFlags.join(' ') || 'none'}; environment: ${JSON.stringify(env)}`);
    console.log('one large document per fresh process (after a warm-up crawl of a small page and a small Turtle file):');
    console.log('(LevelDB: its memtables and block cache at the peak, part of "added": they fill once per process, whatever the document)');
    const repeat = Math.max(1, Number(values.repeat));
    console.log(`each document ${repeat}× (the run with the median "added" is shown, and the range of "added" over the runs)`);
    console.log('document            size MB  triples   RSS before  peak RSS  added MB  added ÷ size  range MB  LevelDB MB  ms');
    for (const d of LARGE) {
      if (!wanted(d.name)) continue;
      const runs: ChildReport[] = [];
      for (let i = 0; i < repeat; i++) runs.push(await run({ src, seeds: [`${site.origin}/data/${d.name}`], warmUp, maxDocs: 1, maxDepth: 0 }));
      const addedOf = (x: ChildReport) => x.peakRssMb - x.rssBeforeMb;
      runs.sort((a, b) => addedOf(a) - addedOf(b));
      const r = runs[Math.floor((runs.length - 1) / 2)]!;
      const added = addedOf(r);
      const ratio = added / (d.bytes / MB);
      const range = `${addedOf(runs[0]!).toFixed(0)}–${addedOf(runs.at(-1)!).toFixed(0)}`;
      for (const e of r.errors) console.log(`  error: ${e}`);
      rows.push({ document: d.name, sizeMb: d.bytes / MB, triples: r.triples, rssBeforeMb: r.rssBeforeMb, peakRssMb: r.peakRssMb, addedMb: added, ratio, addedRangeMb: range, levelDbMb: r.atPeak.levelDbMb, ms: r.ms });
      console.log(
        `${d.name.padEnd(18)}  ${(d.bytes / MB).toFixed(1).padStart(7)}  ${String(r.triples).padStart(7)}  ${r.rssBeforeMb.toFixed(0).padStart(10)}  ${r.peakRssMb.toFixed(0).padStart(8)}  ${added.toFixed(0).padStart(8)}  ${ratio.toFixed(1).padStart(11)}×  ${range.padStart(8)}  ${r.atPeak.levelDbMb.toFixed(1).padStart(10)}  ${r.ms}`,
      );
      console.log(`  ${describePeak(r)}`);
    }
    if (wanted('site')) {
      const whole = await run({ src, seeds: [`${site.origin}/`], warmUp, maxDocs: pages + LARGE.length + 1, maxDepth: 3 });
      for (const e of whole.errors) console.log(`  error: ${e}`);
      rows.push({ document: 'whole site', sizeMb: LARGE.reduce((n, d) => n + d.bytes, 0) / MB, triples: whole.triples, rssBeforeMb: whole.rssBeforeMb, peakRssMb: whole.peakRssMb, fetched: whole.fetched, ms: whole.ms });
      console.log(`whole site: ${whole.fetched} documents (${LARGE.length} large, ${pages} small pages), ${whole.triples} triples, peak RSS ${whole.peakRssMb.toFixed(0)} MB (${whole.rssBeforeMb.toFixed(0)} MB before; ${describePeak(whole)}), ${whole.ms} ms`);
    }
    const scale = Number(values.scale);
    if (scale > 0 && wanted('five')) {
      const five = await startFiveSites(scale);
      try {
        const r = await run({ src, seeds: five.seeds, warmUp, maxDocs: five.documents + 50, maxDepth: 10, proxy: five.origin });
        const errors = r.errors.filter((e) => !/HTTP_STATUS/.test(e)); // 404s of the sitemap and VoID probes, if any
        for (const e of errors.slice(0, 10)) console.log(`  error: ${e}`);
        rows.push({ document: 'five sites', sizeMb: five.largeBytes / MB, triples: r.triples, rssBeforeMb: r.rssBeforeMb, peakRssMb: r.peakRssMb, fetched: r.fetched, ms: r.ms, cpuMs: r.cpuMs });
        console.log(
          `five sites (issue 16 in miniature: ${five.documents} documents: thousands of small RDF/XML files, three large documents, HTML pages): ${r.fetched} fetched, ${r.triples} triples, peak RSS ${r.peakRssMb.toFixed(0)} MB (${r.rssBeforeMb.toFixed(0)} MB before; ${describePeak(r)}), ${r.ms} ms, CPU ${r.cpuMs} ms (${(r.cpuMs / Math.max(1, r.fetched)).toFixed(1)} ms a fetch)`,
        );
      } finally {
        await five.close();
      }
    }
  } finally {
    await site.close();
  }
  if (values.json) await writeFile(values.json, `${JSON.stringify({ src, pages, nodeFlags, env, rows }, null, 2)}\n`);
}

function describePeak(r: ChildReport): string {
  const p = r.atPeak;
  return `before: V8 heap ${r.heapBeforeMb.toFixed(0)} MB committed, outside it ${(r.rssBeforeMb - r.heapBeforeMb).toFixed(0)} MB; at the peak (${p.phase}): V8 heap ${p.heapTotalMb.toFixed(0)} MB committed, ${p.heapUsedMb.toFixed(0)} MB used; outside the heap ${p.otherMb.toFixed(0)} MB, of which LevelDB's memtables and block cache ${p.levelDbMb.toFixed(0)} MB`;
}

await main();
