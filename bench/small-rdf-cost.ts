// **small-rdf-cost** prints the CPU time per small RDF document and per HTML page with embedded RDF, streamed in
// chunks (`wholeTextChars: 0`, the path before issue 18's change) against parsed whole (the default), in one process,
// the two alternated round by round; and the per-document fixed costs around them (issue 18).
// Run: node_modules/.bin/node bench/small-rdf-cost.ts [--docs 2000] [--rounds 3]
import { createHash, hash } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Parser } from 'n3';
import { decodeText } from '../src/fetch/index.ts';
import { detectType, type ParseOptions, parseDocument, parseEmbedded } from '../src/rdf/index.ts';
import { threadCpuMs } from '../src/rdf/run-parser.ts';
import { buildWeb, respond } from '../src/simweb/index.ts';
import { docUrl } from '../src/simweb/web.ts';

const { values } = parseArgs({ options: { docs: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '3' } } });
const N = Number(values.docs);
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

// The simulated web's own small documents (mixed profiles, as bench:throughput crawls), N of each kind at most.
const web = buildWeb({ profiles: 'mixed', seed: 1, scale: 1 });
const simweb = new Map<string, Doc[]>();
for (const site of web.sites) {
  for (const d of site.docs) {
    const kind = d.kind === 'rdf' ? `simweb ${d.format ?? 'rdfxml'}` : d.kind === 'html' && d.embed === 'rdfa' ? 'simweb RDFa page' : null;
    if (kind === null || kind === 'simweb jsonld') continue;
    const list = simweb.get(kind) ?? [];
    if (list.length >= N) continue;
    const url = docUrl(site, d);
    const res = respond(web, url);
    const detected = detectType(res.body, res.headers['content-type'] ?? null, url);
    const { text } = decodeText(res.body, res.headers['content-type'] ?? null);
    list.push({ text, mediaType: detected.kind === 'rdf' ? detected.mediaType : 'html', url });
    simweb.set(kind, list);
  }
}

async function parseOne(doc: Doc, opts: ParseOptions): Promise<number> {
  if (doc.mediaType === 'html') return (await parseEmbedded(doc.text, doc.url, opts)).quads.length;
  return (await parseDocument(doc.text, { kind: 'rdf', mediaType: doc.mediaType }, doc.url, opts)).quads.length;
}

/** CPU µs per document of `docs` parsed with `opts` (after a warm-up pass over a tenth of them). */
async function cpuPerDoc(docs: Doc[], opts: ParseOptions): Promise<{ us: number; quads: number }> {
  for (const d of docs.slice(0, Math.ceil(docs.length / 10))) await parseOne(d, opts);
  const t0 = process.cpuUsage();
  let quads = 0;
  for (const d of docs) quads += await parseOne(d, opts);
  const c = process.cpuUsage(t0);
  return { us: (c.user + c.system) / docs.length, quads: quads / docs.length };
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`small-rdf-cost: ${N} documents a shape, ${ROUNDS} rounds (streamed, then whole, then whole, then streamed, …); load average ${load()}`);
const STREAMED: ParseOptions = { wholeTextChars: 0 };
const rows: Array<{ shape: string; streamed: number[]; whole: number[]; quads: number; chars: number }> = [];
const all: Array<[string, Doc[]]> = [...shapes.map(([name, make]): [string, Doc[]] => [name, Array.from({ length: N }, (_, i) => make(i))]), ...simweb];
// Warm-up of both paths over every shape before any clock, so that neither is timed while V8 still compiles it.
for (let k = 0; k < 2; k++) for (const [, docs] of all) for (const d of docs.slice(0, 200)) for (const opts of [STREAMED, {}]) await parseOne(d, opts);
for (const [name, docs] of all) {
  const row = { shape: name, streamed: [] as number[], whole: [] as number[], quads: 0, chars: Math.round(docs.reduce((n, d) => n + d.text.length, 0) / docs.length) };
  for (let r = 0; r < ROUNDS; r++) {
    const order: Array<[ParseOptions, number[]]> = r % 2 === 0 ? [[STREAMED, row.streamed], [{}, row.whole]] : [[{}, row.whole], [STREAMED, row.streamed]];
    for (const [opts, into] of order) {
      const m = await cpuPerDoc(docs, opts);
      into.push(m.us);
      row.quads = m.quads;
    }
  }
  rows.push(row);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
console.log('\nCPU µs per document (median of the rounds; each round in brackets)');
console.log(`${'shape'.padEnd(40)}${'chars'.padStart(7)}${'quads'.padStart(7)}${'streamed'.padStart(10)}${'whole'.padStart(9)}  whole/streamed   rounds streamed | whole`);
for (const r of rows) {
  const s = median(r.streamed);
  const w = median(r.whole);
  const each = `${r.streamed.map((x) => x.toFixed(0)).join(' ')} | ${r.whole.map((x) => x.toFixed(0)).join(' ')}`;
  console.log(`${r.shape.padEnd(40)}${String(r.chars).padStart(7)}${r.quads.toFixed(1).padStart(7)}${s.toFixed(1).padStart(10)}${w.toFixed(1).padStart(9)}  ${(w / s).toFixed(2).padStart(14)}   ${each}`);
}

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
