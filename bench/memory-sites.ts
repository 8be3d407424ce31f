// **bench/memory-sites** serves the webs of bench/document-memory.ts from 127.0.0.1: large generated documents, small
// pages, and five sites resembling issue 16's (a test suite, an ontology, a dokieli-style site, music data, ~20k coins).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Prng } from '../src/random/prng.ts';

const MB = 1024 * 1024;

/** A seeded generator of numbers in [0, 1): every run generates the same documents. */
function seededRandom(seed: number): () => number {
  const g = new Prng(seed);
  return () => g.next();
}

/** The large documents: format, media type and size in bytes (generated at run time, deterministic). */
export const LARGE: Array<{ name: string; type: string; bytes: number }> = [
  { name: 'big-1.5mb.ttl', type: 'text/turtle', bytes: 1.5 * MB },
  { name: 'big-5mb.ttl', type: 'text/turtle', bytes: 5 * MB },
  { name: 'big-2mb.rdf', type: 'application/rdf+xml', bytes: 2 * MB },
  { name: 'big-1mb.jsonld', type: 'application/ld+json', bytes: 1 * MB },
];

// ---------------------------------------------------------------- generated documents

export function turtle(bytes: number, seed: number): string {
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

export function rdfXml(bytes: number, seed: number): string {
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

export function generate(name: string, bytes: number, seed: number): string {
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

export interface Site {
  origin: string;
  close(): Promise<void>;
}

export async function startSite(pages: number): Promise<Site> {
  const large = new Map(LARGE.map((d, i) => [`/data/${d.name}`, { body: Buffer.from(generate(d.name, d.bytes, i + 1)), type: d.type }]));
  large.set('/data/small.ttl', { body: Buffer.from(turtle(4096, 99)), type: 'text/turtle' }); // the warm-up's RDF document
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


// ---------------------------------------------------------------- five sites (in miniature)

/** How many documents of each kind the five sites hold, for `scale` = 1. */
const FIVE = { tests: 200, docPages: 40, dokieli: 100, artists: 300, coins: 1500 };

export interface FiveSites extends Site {
  /** The seeds: each site's start page. */
  seeds: string[];
  /** The documents the sites hold (every one reachable from the seeds). */
  documents: number;
  /** Bytes of the large documents among them. */
  largeBytes: number;
}

interface Doc {
  type: string;
  body: () => string;
}

const RDF_XML_HEAD = '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:nm="http://nomisma.example/ontology#" xmlns:foaf="http://xmlns.com/foaf/0.1/">\n';

function html(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`;
}

function links(urls: string[]): string {
  return `<ul>${urls.map((u) => `<li><a href="${u}">${u}</a></li>`).join('')}</ul>`;
}

/** A coin type: a small RDF/XML file linking to its neighbours (the numismatics dataset of issue 16: ~20k such files). */
function coin(i: number, n: number): string {
  const see = [1, 2, 3].map((k) => `    <rdfs:seeAlso rdf:resource="http://coins.example/id/c${(i * 13 + k) % n}.rdf"/>\n`).join('');
  return `${RDF_XML_HEAD}  <nm:TypeSeriesItem rdf:about="http://coins.example/id/c${i}">\n    <rdfs:label xml:lang="en">Coin type ${i}</rdfs:label>\n    <nm:denomination rdf:resource="http://coins.example/id/denarius"/>\n    <nm:authority rdf:resource="http://coins.example/id/ruler${i % 90}"/>\n    <nm:material rdf:resource="http://coins.example/id/ar"/>\n    <nm:start_date>${-200 + (i % 400)}</nm:start_date>\n${see}    <nm:description>${'Obverse: laureate head right; reverse: figure standing left. '.repeat(8)}</nm:description>\n  </nm:TypeSeriesItem>\n</rdf:RDF>\n`;
}

function artist(i: number, n: number): string {
  return `${RDF_XML_HEAD}  <foaf:Person rdf:about="http://music.example/artist/a${i}#me">\n    <foaf:name>Artist ${i}</foaf:name>\n    <foaf:knows rdf:resource="http://music.example/artist/a${(i * 7 + 1) % n}.rdf#me"/>\n    <rdfs:seeAlso rdf:resource="http://music.example/artist/a${(i * 7 + 1) % n}.rdf"/>\n    <foaf:made rdf:resource="http://music.example/record/r${i}"/>\n  </foaf:Person>\n</rdf:RDF>\n`;
}

/**
 * Five sites behind one forward proxy on 127.0.0.1 (the crawler's `proxy` option): the `.example` host names are never
 * resolved, and no request leaves the machine. Large documents: a 1 MB test manifest (Turtle), a 2 MB ontology
 * (RDF/XML), a 5 MB data dump (Turtle, announced by VoID).
 */
export async function startFiveSites(scale: number): Promise<FiveSites> {
  const n = Object.fromEntries(Object.entries(FIVE).map(([k, v]) => [k, Math.max(1, Math.round(v * scale))])) as typeof FIVE;
  const docs = new Map<string, Doc>();
  const add = (url: string, type: string, body: () => string) => docs.set(url, { type, body });
  const htmlType = 'text/html; charset=utf-8';
  // 1. A W3C-style test suite: an index, one HTML page per test, its Turtle files, a large manifest naming every test.
  const testUrls = Array.from({ length: n.tests }, (_, i) => `http://tests.example/suite/t${i}.html`);
  add('http://tests.example/', htmlType, () => html('Test suite', links([...testUrls, 'http://tests.example/suite/manifest.ttl'])));
  for (let i = 0; i < n.tests; i++) {
    add(testUrls[i]!, htmlType, () => html(`Test ${i}`, `<p>Input and expected result.</p>${links([`http://tests.example/suite/t${i}-in.ttl`, `http://tests.example/suite/t${i}-out.ttl`])}`));
    for (const part of ['in', 'out']) add(`http://tests.example/suite/t${i}-${part}.ttl`, 'text/turtle', () => `@prefix ex: <http://tests.example/ns#> .\nex:s${i} ex:p "${part} ${i}" ; ex:q ex:o${i % 7} .\n`);
  }
  add('http://tests.example/suite/manifest.ttl', 'text/turtle', () => turtle(1 * MB, 11));
  // 2. An ontology documentation site: HTML pages about terms, and the ontology itself as a large RDF/XML file.
  const termPages = Array.from({ length: n.docPages }, (_, i) => `http://ontology.example/doc/term${i}.html`);
  add('http://ontology.example/', htmlType, () => html('Ontology', links([...termPages, 'http://ontology.example/ontology.rdf'])));
  for (let i = 0; i < n.docPages; i++) add(termPages[i]!, htmlType, () => html(`Term ${i}`, `<p>${'Definition text. '.repeat(40)}</p>${links([termPages[(i + 1) % n.docPages]!])}`));
  add('http://ontology.example/ontology.rdf', 'application/rdf+xml', () => rdfXml(2 * MB, 12));
  // 3. A dokieli-style site: articles with RDFa and JSON-LD.
  const articles = Array.from({ length: n.dokieli }, (_, i) => `http://dokieli.example/articles/a${i}`);
  add('http://dokieli.example/', htmlType, () => html('Articles', links(articles)));
  for (let i = 0; i < n.dokieli; i++) {
    const jsonld = JSON.stringify({ '@context': { '@vocab': 'http://schema.org/' }, '@id': '', '@type': 'ScholarlyArticle', name: `Article ${i}`, citation: { '@id': articles[(i + 3) % n.dokieli] } });
    const rdfa = `<div vocab="http://schema.org/" typeof="ScholarlyArticle" resource=""><span property="name">Article ${i}</span> by <a property="author" href="http://dokieli.example/people/p${i % 20}">author</a></div>`;
    add(articles[i]!, htmlType, () => html(`Article ${i}`, `${rdfa}<p>${'Annotated text. '.repeat(60)}</p>${links([articles[(i + 1) % n.dokieli]!])}`, `<script type="application/ld+json">${jsonld}</script>`));
  }
  // 4. Music data: RDF/XML artist documents linked to each other, a VoID description announcing a 5 MB dump.
  add('http://music.example/', htmlType, () => html('Music data', links(['http://music.example/artist/a0.rdf', 'http://music.example/void.ttl'])));
  for (let i = 0; i < n.artists; i++) add(`http://music.example/artist/a${i}.rdf`, 'application/rdf+xml', () => artist(i, n.artists));
  add('http://music.example/void.ttl', 'text/turtle', () => '@prefix void: <http://rdfs.org/ns/void#> .\n<http://music.example/void.ttl#ds> a void:Dataset ; void:dataDump <http://music.example/dump.ttl> .\n');
  add('http://music.example/dump.ttl', 'text/turtle', () => turtle(5 * MB, 13));
  // 5. Numismatics: many small RDF/XML files, listed by index pages of 100 and linked to each other.
  const pages = Math.ceil(n.coins / 100);
  add('http://coins.example/', htmlType, () => html('Coin types', links(Array.from({ length: pages }, (_, p) => `http://coins.example/list/${p}`))));
  for (let p = 0; p < pages; p++) {
    const ids = Array.from({ length: Math.min(100, n.coins - p * 100) }, (_, k) => `http://coins.example/id/c${p * 100 + k}.rdf`);
    add(`http://coins.example/list/${p}`, htmlType, () => html(`Coin types, page ${p}`, links(ids)));
  }
  for (let i = 0; i < n.coins; i++) add(`http://coins.example/id/c${i}.rdf`, 'application/rdf+xml', () => coin(i, n.coins));

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let url = req.url ?? '/';
    if (url.startsWith('/')) url = `http://${req.headers.host ?? ''}${url}`; // origin-form, if ever
    const doc = docs.get(url.split('?')[0]!);
    if (doc === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const body = Buffer.from(doc.body());
    res.writeHead(200, { 'content-type': doc.type, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seeds: ['http://tests.example/', 'http://ontology.example/', 'http://dokieli.example/', 'http://music.example/', 'http://coins.example/'],
    documents: docs.size,
    largeBytes: 8 * MB,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
