// **bench/document-memory** measures the memory a crawl needs for large RDF documents (issue 16 item 14): the RSS one
// document adds, as a multiple of its size, and the peak RSS of a crawl of a site with large documents and many pages.
// Run: node_modules/.bin/node bench/document-memory.ts [--pages 300] [--src REPO_ROOT] [--node-flags '--max-semi-space-size=2'] [--json FILE]
//   --src: crawl with the rdfscout sources of another checkout (e.g. an older commit's `git archive`), for before/after.
//   --node-flags: V8 flags of the crawling processes (default: those bin/rdfscout.js starts the CLI with; '' for none).
// Everything is served from 127.0.0.1; each measurement runs in a fresh child process (RSS is per process).
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI_NODE_FLAGS } from '../src/node-flags.ts';
import { Prng } from '../src/random/prng.ts';

const MB = 1024 * 1024;

/** A seeded generator of numbers in [0, 1): every run generates the same documents. */
function seededRandom(seed: number): () => number {
  const g = new Prng(seed);
  return () => g.next();
}

/** The large documents: format, media type and size in bytes (generated at run time, deterministic). */
const LARGE: Array<{ name: string; type: string; bytes: number }> = [
  { name: 'big-1.5mb.ttl', type: 'text/turtle', bytes: 1.5 * MB },
  { name: 'big-5mb.ttl', type: 'text/turtle', bytes: 5 * MB },
  { name: 'big-2mb.rdf', type: 'application/rdf+xml', bytes: 2 * MB },
  { name: 'big-1mb.jsonld', type: 'application/ld+json', bytes: 1 * MB },
];

// ---------------------------------------------------------------- generated documents

function turtle(bytes: number, seed: number): string {
  const rand = seededRandom(seed);
  const out = ['@prefix ex: <http://data.example/> .\n@prefix foaf: <http://xmlns.com/foaf/0.1/> .\n@prefix dct: <http://purl.org/dc/terms/> .\n'];
  let len = out[0]!.length;
  for (let i = 0; len < bytes; i++) {
    const s = `ex:person${i} a foaf:Person ;\n  foaf:name "Person ${i} ${Math.floor(rand() * 1e6)}"@en ;\n  foaf:knows ex:person${Math.floor(rand() * (i + 1))}, ex:person${Math.floor(rand() * 5000)} ;\n  dct:created "2024-0${1 + (i % 9)}-1${i % 10}"^^<http://www.w3.org/2001/XMLSchema#date> ;\n  foaf:account [ foaf:accountName "acct${i}" ] .\n`;
    out.push(s);
    len += s.length;
  }
  return out.join('');
}

function rdfXml(bytes: number, seed: number): string {
  const rand = seededRandom(seed);
  const out = ['<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:foaf="http://xmlns.com/foaf/0.1/">\n'];
  let len = out[0]!.length;
  for (let i = 0; len < bytes; i++) {
    const s = `  <foaf:Person rdf:about="http://data.example/x${i}">\n    <foaf:name xml:lang="en">Person ${i} ${Math.floor(rand() * 1e6)}</foaf:name>\n    <foaf:knows rdf:resource="http://data.example/x${Math.floor(rand() * (i + 1))}"/>\n    <foaf:mbox rdf:resource="mailto:p${i}@data.example"/>\n  </foaf:Person>\n`;
    out.push(s);
    len += s.length;
  }
  out.push('</rdf:RDF>\n');
  return out.join('');
}

function jsonLd(bytes: number, seed: number): string {
  const rand = seededRandom(seed);
  const nodes: string[] = [];
  let len = 0;
  for (let i = 0; len < bytes; i++) {
    const s = JSON.stringify({ '@id': `http://data.example/j${i}`, '@type': 'Person', name: `Person ${i} ${Math.floor(rand() * 1e6)}`, knows: { '@id': `http://data.example/j${Math.floor(rand() * (i + 1))}` } });
    nodes.push(s);
    len += s.length + 1;
  }
  const context = JSON.stringify({ '@vocab': 'http://xmlns.com/foaf/0.1/', knows: { '@type': '@id' } });
  return `{"@context": ${context}, "@graph": [\n${nodes.join(',\n')}\n]}\n`;
}

function generate(name: string, bytes: number, seed: number): string {
  if (name.endsWith('.ttl')) return turtle(bytes, seed);
  if (name.endsWith('.rdf')) return rdfXml(bytes, seed);
  return jsonLd(bytes, seed);
}

function smallPage(i: number, pages: number): string {
  const next = [1, 2, 3].map((k) => `<a href="/page/${(i * 7 + k) % pages}">page ${(i * 7 + k) % pages}</a>`).join(' ');
  const data = JSON.stringify({ '@context': { '@vocab': 'http://schema.org/' }, '@id': `#thing${i}`, '@type': 'Thing', name: `Thing ${i}`, description: `Small page ${i} of the memory benchmark.` });
  return `<!doctype html><html><head><title>Page ${i}</title><script type="application/ld+json">${data}</script></head><body><p>Page ${i}</p>${next}</body></html>`;
}

// ---------------------------------------------------------------- the site

interface Site {
  origin: string;
  close(): Promise<void>;
}

async function startSite(pages: number): Promise<Site> {
  const large = new Map(LARGE.map((d, i) => [`/data/${d.name}`, { body: Buffer.from(generate(d.name, d.bytes, i + 1)), type: d.type }]));
  const index = `<!doctype html><html><body>${LARGE.map((d) => `<a href="/data/${d.name}">${d.name}</a>`).join(' ')} ${Array.from({ length: pages }, (_, i) => `<a href="/page/${i}">${i}</a>`).join(' ')}</body></html>`;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const doc = large.get(path);
    if (doc !== undefined) {
      res.writeHead(200, { 'content-type': doc.type, 'content-length': doc.body.length });
      res.end(doc.body);
    } else if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(index);
    } else if (path.startsWith('/page/')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(smallPage(Number(path.slice(6)), pages));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

// ---------------------------------------------------------------- the child: one crawl, its memory

interface ChildJob {
  src: string;
  seeds: string[];
  warmUp: string;
  maxDocs: number;
  maxDepth: number;
}
interface ChildReport {
  rssBeforeMb: number;
  peakRssMb: number;
  fetched: number;
  /** Records with an error (URL, code, message). */
  errors: string[];
  triples: number;
  ms: number;
}

async function child(job: ChildJob): Promise<ChildReport> {
  const { Crawler } = (await import(join(job.src, 'src/crawl/crawler.ts'))) as typeof import('../src/crawl/crawler.ts');
  const { readRecords } = (await import(join(job.src, 'src/crawl/records.ts'))) as typeof import('../src/crawl/records.ts');
  const crawl = async (seeds: string[], maxDocs: number, maxDepth: number) => {
    const dir = await mkdtemp(join(tmpdir(), 'rdfscout-docmem-'));
    try {
      const crawler = await Crawler.open({ out: dir, seeds, allowPrivate: true, delayMs: 0, maxDocs, maxDepth, strategy: 'bfs', concurrency: 4, hostConcurrency: 4 });
      try {
        const s = await crawler.run();
        const errors: string[] = [];
        for await (const r of readRecords(crawler.state)) if (r.error !== null) errors.push(`${r.url}: ${r.error} ${r.errorMessage ?? ''}`.slice(0, 200));
        return { fetched: s.fetched, triples: s.triples as number, errors };
      } finally {
        await crawler.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  // Warm up (modules loaded, code compiled) on one small page, then measure from the RSS of an idle process.
  await crawl([job.warmUp], 1, 0);
  global.gc?.();
  await new Promise((r) => setTimeout(r, 100));
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const t0 = performance.now();
  const s = await crawl(job.seeds, job.maxDocs, job.maxDepth);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { rssBeforeMb: rssBefore / MB, peakRssMb: peak / MB, fetched: s.fetched, triples: s.triples, errors: s.errors, ms: Math.round(performance.now() - t0) };
}

function runChild(job: ChildJob, nodeFlags: string[]): Promise<ChildReport> {
  return new Promise((resolvePromise, reject) => {
    const p = fork(import.meta.filename, ['--child', JSON.stringify(job)], { execArgv: ['--expose-gc', ...nodeFlags], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    p.once('message', (m) => resolvePromise(m as ChildReport));
    p.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`child exited with ${code}`))));
  });
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pages: { type: 'string', default: '300' }, src: { type: 'string' }, json: { type: 'string' }, child: { type: 'string' }, 'node-flags': { type: 'string', default: CLI_NODE_FLAGS.join(' ') } } });
  if (values.child !== undefined) {
    const report = await child(JSON.parse(values.child) as ChildJob);
    process.send?.(report);
    process.disconnect?.();
    return;
  }
  const pages = Number(values.pages);
  const nodeFlags = (values['node-flags'] ?? '').split(' ').filter(Boolean);
  const src = resolve(values.src ?? join(import.meta.dirname, '..'));
  const site = await startSite(pages);
  const warmUp = `${site.origin}/page/0`;
  const rows: Array<Record<string, string | number>> = [];
  try {
    console.log(`rdfscout sources: ${src}; node flags: ${nodeFlags.join(' ') || 'none'}`);
    console.log('one large document per fresh process (after a warm-up crawl of one small page):');
    console.log('document            size MB  triples   RSS before  peak RSS  added MB  added ÷ size  ms');
    for (const d of LARGE) {
      const r = await runChild({ src, seeds: [`${site.origin}/data/${d.name}`], warmUp, maxDocs: 1, maxDepth: 0 }, nodeFlags);
      const added = r.peakRssMb - r.rssBeforeMb;
      const ratio = added / (d.bytes / MB);
      for (const e of r.errors) console.log(`  error: ${e}`);
      rows.push({ document: d.name, sizeMb: d.bytes / MB, triples: r.triples, rssBeforeMb: r.rssBeforeMb, peakRssMb: r.peakRssMb, addedMb: added, ratio, ms: r.ms });
      console.log(
        `${d.name.padEnd(18)}  ${(d.bytes / MB).toFixed(1).padStart(7)}  ${String(r.triples).padStart(7)}  ${r.rssBeforeMb.toFixed(0).padStart(10)}  ${r.peakRssMb.toFixed(0).padStart(8)}  ${added.toFixed(0).padStart(8)}  ${ratio.toFixed(1).padStart(11)}×  ${r.ms}`,
      );
    }
    const whole = await runChild({ src, seeds: [`${site.origin}/`], warmUp, maxDocs: pages + LARGE.length + 1, maxDepth: 3 }, nodeFlags);
    for (const e of whole.errors) console.log(`  error: ${e}`);
    rows.push({ document: 'whole site', sizeMb: LARGE.reduce((n, d) => n + d.bytes, 0) / MB, triples: whole.triples, rssBeforeMb: whole.rssBeforeMb, peakRssMb: whole.peakRssMb, fetched: whole.fetched, ms: whole.ms });
    console.log(`whole site: ${whole.fetched} documents (${LARGE.length} large, ${pages} small pages), ${whole.triples} triples, peak RSS ${whole.peakRssMb.toFixed(0)} MB (${whole.rssBeforeMb.toFixed(0)} MB before), ${whole.ms} ms`);
  } finally {
    await site.close();
  }
  if (values.json) await writeFile(values.json, `${JSON.stringify({ src, pages, nodeFlags, rows }, null, 2)}\n`);
}

await main();
