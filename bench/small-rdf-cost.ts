// **small-rdf-cost** prints the CPU time per small RDF document and per HTML page with embedded RDF, streamed in
// chunks (`wholeTextChars: 0`, the path before issue 18's change) against parsed whole (the default), in one process,
// alternated round by round; with `--base DIR` (a checkout of the commit before) that build's parser too, in the same
// rounds; then the per-document fixed costs around them (issue 18).
// Run: node_modules/.bin/node bench/small-rdf-cost.ts [--docs 2000] [--rounds 5] [--base /tmp/base-checkout]
//      [--only TEXT] (the shapes whose name contains TEXT)
import { fork } from 'node:child_process';
import { createHash, hash } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Parser } from 'n3';
import { decodeText } from '../src/fetch/index.ts';
import { detectType, type ParseOptions, parseDocument, parseEmbedded } from '../src/rdf/index.ts';
import { threadCpuMs } from '../src/rdf/run-parser.ts';
import { buildWeb, respond } from '../src/simweb/index.ts';
import { docUrl } from '../src/simweb/web.ts';

const { values } = parseArgs({ options: { docs: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '5' }, base: { type: 'string' }, only: { type: 'string' }, child: { type: 'string' } } });
const N = Number(values.docs);
const gc = (globalThis as { gc?: () => void }).gc;
const ROUNDS = Number(values.rounds);

interface Doc {
  text: string;
  mediaType: string | 'html';
  url: string;
}

// Hand-written shapes, one per format, each made distinct per document (IRIs and literals vary).
const ttl = (i: number) =>
  `@prefix foaf: <http://xmlns.com/foaf/0.1/> .\n@prefix dc: <http://purl.org/dc/terms/> .\n<#me> a foaf:Person ; foaf:name "Person ${i}" ; foaf:mbox <mailto:p${i}@example.org> ; foaf:knows <../p${i + 1}/foaf.ttl#me>, <../p${i + 2}/foaf.ttl#me> ; dc:created "2020-01-01" .\n<> a foaf:PersonalProfileDocument ; foaf:primaryTopic <#me> .\n`;
const nt = (i: number) =>
  Array.from({ length: 10 }, (_, k) => `<http://ex.org/s${i}> <http://ex.org/p${k}> "value ${i} ${k}" .\n`).join('') + `<http://ex.org/s${i}> <http://ex.org/q> _:b0 .\n_:b0 <http://ex.org/r> "x" .\n`;
const xml = (i: number) =>
  `<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:foaf="http://xmlns.com/foaf/0.1/">\n<foaf:Person rdf:about="#me"><foaf:name>Person ${i}</foaf:name><foaf:mbox rdf:resource="mailto:p${i}@example.org"/><foaf:knows rdf:resource="../p${i + 1}#me"/><foaf:knows rdf:resource="../p${i + 2}#me"/></foaf:Person>\n<foaf:PersonalProfileDocument rdf:about=""><foaf:primaryTopic rdf:resource="#me"/></foaf:PersonalProfileDocument>\n</rdf:RDF>\n`;
const filler = `<p>${'Some text of the page, as pages have. '.repeat(20)}</p><ul>${Array.from({ length: 20 }, (_, k) => `<li><a href="/l${k}">link ${k}</a></li>`).join('')}</ul>`;
const rdfaVocab = (i: number) =>
  `<!DOCTYPE html><html><head><title>P ${i}</title></head><body><article vocab="http://schema.org/" typeof="BlogPosting" resource="#post"><h1 property="headline">Post ${i}</h1><span property="author">A ${i}</span><time property="datePublished">2020-01-0${i % 9}</time></article>${filler}</body></html>`;
const rdfaPrefix = (i: number) =>
  `<!DOCTYPE html><html prefix="foaf: http://xmlns.com/foaf/0.1/"><head><title>P ${i}</title></head><body><div about="#me" typeof="foaf:Person"><span property="foaf:name">P ${i}</span><a rel="foaf:knows" href="/p${i + 1}#me">k</a></div>${filler}</body></html>`;
const microdata = (i: number) =>
  `<!DOCTYPE html><html><head><title>P ${i}</title></head><body><div itemscope itemtype="https://schema.org/Person"><span itemprop="name">P ${i}</span><a itemprop="url" href="/p${i}">k</a><div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="addressLocality">Town ${i}</span></div></div>${filler}</body></html>`;

const shapes: Array<[string, (i: number) => Doc]> = [
  ['Turtle, FOAF (8 quads)', (i) => ({ text: ttl(i), mediaType: 'text/turtle', url: `http://ex.org/p${i}/foaf.ttl` })],
  ['N-Triples (12 quads)', (i) => ({ text: nt(i), mediaType: 'application/n-triples', url: `http://ex.org/p${i}.nt` })],
  ['RDF/XML, FOAF (7 quads)', (i) => ({ text: xml(i), mediaType: 'application/rdf+xml', url: `http://ex.org/p${i}/foaf.rdf` })],
  ['RDFa page, vocab (4 quads)', (i) => ({ text: rdfaVocab(i), mediaType: 'html', url: `http://ex.org/blog/${i}` })],
  ['RDFa page, prefix attribute (3 quads)', (i) => ({ text: rdfaPrefix(i), mediaType: 'html', url: `http://ex.org/people/${i}` })],
  ['Microdata page (4 quads)', (i) => ({ text: microdata(i), mediaType: 'html', url: `http://ex.org/m/${i}` })],
];

// The simulated web's own small documents (mixed profiles, as bench:throughput crawls), N of each kind at most. The
// web's model is dropped once they are rendered: its ~100 MB of heap would make every GC of the timed passes dearer.
function simwebDocs(): Map<string, Doc[]> {
  const web = buildWeb({ profiles: 'mixed', seed: 1, scale: 1 });
  const out = new Map<string, Doc[]>();
  for (const site of web.sites) {
    for (const d of site.docs) {
      const kind = d.kind === 'rdf' ? `simweb ${d.format ?? 'rdfxml'}` : d.kind === 'html' && d.embed === 'rdfa' ? 'simweb RDFa page' : null;
      if (kind === null || kind === 'simweb jsonld') continue;
      const list = out.get(kind) ?? [];
      if (list.length >= N) continue;
      const url = docUrl(site, d);
      const res = respond(web, url);
      const detected = detectType(res.body, res.headers['content-type'] ?? null, url);
      const { text } = decodeText(res.body, res.headers['content-type'] ?? null);
      list.push({ text, mediaType: detected.kind === 'rdf' ? detected.mediaType : 'html', url });
      out.set(kind, list);
    }
  }
  return out;
}
const simweb = simwebDocs();

type Rdf = { parseDocument: typeof parseDocument; parseEmbedded: typeof parseEmbedded };
const base = values.base === undefined ? null : ((await import(join(values.base, 'src/rdf/index.ts'))) as Rdf);
/** Options to parse with, or BASE for the --base build (with its defaults). */
const BASE: ParseOptions = {};

async function parseOne(doc: Doc, opts: ParseOptions): Promise<number> {
  const rdf: Rdf = opts === BASE && base !== null ? base : { parseDocument, parseEmbedded };
  const o = opts === BASE ? undefined : opts;
  if (doc.mediaType === 'html') return (await rdf.parseEmbedded(doc.text, doc.url, o)).quads.length;
  return (await rdf.parseDocument(doc.text, { kind: 'rdf', mediaType: doc.mediaType }, doc.url, o)).quads.length;
}

/** CPU µs per document of `docs` parsed with `opts` (after a warm-up pass over a tenth of them). */
async function cpuPerDoc(docs: Doc[], opts: ParseOptions): Promise<{ us: number; quads: number }> {
  gc?.(); // each timed pass starts with a clean heap (run with --expose-gc), so no pass pays for another's garbage
  const t0 = process.cpuUsage();
  let quads = 0;
  for (const d of docs) quads += await parseOne(d, opts);
  const c = process.cpuUsage(t0);
  return { us: (c.user + c.system) / docs.length, quads: quads / docs.length };
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const STREAMED: ParseOptions = { wholeTextChars: 0 };
const MODES: Record<string, ParseOptions> = { base: BASE, streamed: STREAMED, whole: {} };
// The two dear shapes (~3 ms a document) get a fifth of the documents, so that every shape takes about as long.
const dear = (name: string) => name.includes('prefix attribute') || name === 'simweb ntriples';
const all = ([...shapes.map(([name, make]): [string, Doc[]] => [name, Array.from({ length: N }, (_, i) => make(i))]), ...simweb] as Array<[string, Doc[]]>)
  .filter(([name]) => values.only === undefined || name.includes(values.only))
  .map(([name, docs]): [string, Doc[]] => [name, dear(name) ? docs.slice(0, Math.ceil(N / 5)) : docs]);

if (values.child !== undefined) {
  // One mode in a fresh process (no JIT state or garbage shared with another mode): warm up, then time every shape.
  const opts = MODES[values.child] as ParseOptions;
  // Warm-up: every document once (fewer left V8 compiling the parsers during the timed pass: ×2 slower and noisy).
  for (const [, docs] of all) for (const d of docs) await parseOne(d, opts);
  const out: Record<string, { us: number; quads: number; chars: number }> = {};
  for (const [name, docs] of all) out[name] = { ...(await cpuPerDoc(docs, opts)), chars: Math.round(docs.reduce((n, d) => n + d.text.length, 0) / docs.length) };
  process.send?.(out);
  process.exit(0);
}

console.log(`small-rdf-cost: ${N} documents a shape, ${ROUNDS} rounds; each mode of each round in a fresh process, the order reversed every other round; load average ${load()}`);
const modes = [...(base !== null ? ['base'] : []), 'streamed', 'whole'];
const us = new Map<string, Map<string, number[]>>(all.map(([name]) => [name, new Map(modes.map((m) => [m, [] as number[]]))]));
const facts = new Map<string, { quads: number; chars: number }>();
for (let r = 0; r < ROUNDS; r++) {
  for (const mode of r % 2 === 0 ? modes : [...modes].reverse()) {
    const args = [...process.argv.slice(2), '--child', mode];
    const child = fork(import.meta.filename, args, { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const out = await new Promise<Record<string, { us: number; quads: number; chars: number }>>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Record<string, { us: number; quads: number; chars: number }>));
      child.once('exit', (code) => reject(new Error(`child ${mode} exited with ${code}`)));
    });
    for (const [name, m] of Object.entries(out)) {
      us.get(name)?.get(mode)?.push(m.us);
      facts.set(name, { quads: m.quads, chars: m.chars });
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
console.log('\nCPU µs per document (median of the rounds; every round after the table)');
const ref = base !== null ? 'base' : 'streamed';
console.log(`${'shape'.padEnd(40)}${'chars'.padStart(7)}${'quads'.padStart(7)}${modes.map((m) => m.padStart(10)).join('')}${`whole/${ref}`.padStart(15)}`);
for (const [name] of all) {
  const med = (m: string) => median(us.get(name)?.get(m) ?? []);
  const f = facts.get(name) ?? { quads: 0, chars: 0 };
  console.log(`${name.padEnd(40)}${String(f.chars).padStart(7)}${f.quads.toFixed(1).padStart(7)}${modes.map((m) => med(m).toFixed(1).padStart(10)).join('')}${(med('whole') / med(ref)).toFixed(2).padStart(15)}`);
}
console.log('\nrounds:');
for (const [name] of all) console.log(`  ${name.padEnd(40)}${modes.map((m) => `${m} ${(us.get(name)?.get(m) ?? []).map((x) => x.toFixed(0)).join(' ')}`).join(' | ')}`);

// Per-document fixed costs on the path, each alone (µs per call).
async function perCall(label: string, f: (i: number) => unknown, n = 20_000): Promise<void> {
  for (let i = 0; i < n / 10; i++) await f(i);
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await f(i);
  const c = process.cpuUsage(t0);
  console.log(`${label.padEnd(64)}${((c.user + c.system) / n).toFixed(2).padStart(8)} µs`);
}
console.log('\nfixed costs, CPU µs per call');
await perCall('threadCpuMs() (process.threadCpuUsage, read twice a chunk)', () => threadCpuMs());
await perCall('SHA-1 of an IRI, createHash().update().digest() (before)', (i) => createHash('sha1').update(`http://ex.org/p${i}/foaf.ttl`).digest('hex'));
await perCall('SHA-1 of an IRI, crypto.hash() (after; only at a blank node)', (i) => hash('sha1', `http://ex.org/p${i}/foaf.ttl`, 'hex'));
await perCall('setImmediate turn (once a chunk when streamed)', () => new Promise((r) => setImmediate(r)));
await perCall('setTimeout + clearTimeout (stall guard, twice a document)', () => clearTimeout(setTimeout(() => {}, 30_000)));
await perCall("n3 Parser().parse of the FOAF Turtle alone (the floor for 'whole')", (i) => new Parser({ baseIRI: `http://ex.org/p${i}/foaf.ttl` }).parse(ttl(i)));
console.log(`\nload average at the end ${load()}`);
