// A tiny Linked-Data site on 127.0.0.1 for end-to-end crawl tests: HTML pages linking RDF in the ways the thesis names.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TinySite {
  base: string;
  hits: Map<string, number>;
  /** Arrival time (ms) of every request but robots.txt, in order. */
  times: number[];
  close(): Promise<void>;
}

const TTL_ALICE = `@prefix foaf: <http://xmlns.com/foaf/0.1/> .
<#me> a foaf:Person ; foaf:name "Alice" ; foaf:knows <bob.ttl#me> .
`;
const TTL_BOB = `@prefix foaf: <http://xmlns.com/foaf/0.1/> .
<#me> a foaf:Person ; foaf:name "Bob" .
`;
const RDFXML = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <rdf:Description rdf:about="http://example.org/thing"><dc:title>A thing</dc:title><dc:creator>Carol</dc:creator></rdf:Description>
</rdf:RDF>
`;
// Every statement fails (a lenient parse keeps none of it either): the document is unreadable.
const BROKEN_TTL = `@prefix ex: <http://example.org/> .
ex:e ex:p "unterminated .
ex:f ex:p undefined:g .
`;

function page(title: string, body: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
}

const PAGES: Record<string, { type: string; body: string; status?: number; headers?: Record<string, string> }> = {
  '/': {
    type: 'text/html; charset=utf-8',
    headers: { link: '</data/home.ttl>; rel="alternate"; type="text/turtle"' },
    body: page(
      'Home',
      `<p>Welcome to our site.</p><ul><li><a href="/people/">People</a></li><li><a href="/about.html">About us</a></li>
       <li><a href="/data/thing.rdf">Download the RDF</a></li><li><img src="/logo.png"> <a href="/logo.png">logo</a></li>
       <li><a href="/brochure.pdf">Brochure</a></li><li><a href="javascript:void(0)">menu</a></li><li><a href="/embedded.html">Events</a></li>
       <li><a href="/go">A resource</a></li><li><a href="/private/secret.rdf">secret data</a></li><li><a href="/broken.ttl" type="text/turtle">Broken</a></li></ul>`,
    ),
  },
  '/people/': {
    type: 'text/html',
    body: page('People', `<ul><li><a href="/people/alice.html">Alice</a></li><li><a href="/people/bob.html">Bob</a></li></ul>`),
  },
  '/people/alice.html': {
    type: 'text/html',
    body: page('Alice', `<p>Alice's profile. Her <a href="/foaf/alice.ttl" type="text/turtle">FOAF profile</a>.</p>`),
  },
  '/people/bob.html': {
    type: 'text/html',
    body: page('Bob', `<p>Bob's profile. <a href="/foaf/bob.ttl">machine-readable profile</a></p>`),
  },
  '/about.html': { type: 'text/html', body: page('About', '<p>Nothing to see.</p>') },
  '/embedded.html': {
    type: 'text/html',
    body: page(
      'Events',
      `<script type="application/ld+json">{"@context":{"@vocab":"http://schema.org/"},"@id":"http://example.org/event/1","@type":"Event","name":"Linked Data Day"}</script><p>An event.</p>`,
    ),
  },
  '/foaf/alice.ttl': { type: 'text/turtle', body: TTL_ALICE },
  '/foaf/bob.ttl': { type: 'text/turtle', body: TTL_BOB },
  '/data/thing.rdf': { type: 'application/rdf+xml', body: RDFXML },
  '/data/other.rdf': { type: 'application/rdf+xml', body: RDFXML.replace('thing', 'other') },
  '/broken.ttl': { type: 'text/turtle', body: BROKEN_TTL },
  '/go': { type: 'text/plain', body: '', status: 303, headers: { location: '/data/other.rdf' } },
  '/private/secret.rdf': { type: 'application/rdf+xml', body: RDFXML },
  '/logo.png': { type: 'image/png', body: '\x89PNG\r\n\x1a\n' },
  '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\nSitemap: {BASE}/sitemap.xml\n' },
  // Reachable only through the sitemap robots.txt names, a Link header, and a VoID data dump.
  '/sitemap.xml': {
    type: 'application/xml',
    body: '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{BASE}/hidden/dataset.ttl</loc></url></urlset>',
  },
  '/hidden/dataset.ttl': {
    type: 'text/turtle',
    body: '@prefix void: <http://rdfs.org/ns/void#> .\n<#ds> a void:Dataset ; void:dataDump </dumps/all.nt> ; void:sparqlEndpoint <http://sparql.example.org/query> .\n',
  },
  '/dumps/all.nt': { type: 'application/n-triples', body: '<http://example.org/a> <http://example.org/p> "1" .\n<http://example.org/b> <http://example.org/p> "2" .\n' },
  '/.well-known/void': {
    type: 'text/turtle',
    body: '@prefix void: <http://rdfs.org/ns/void#> .\n<#site> a void:Dataset ; void:sparqlEndpoint <http://sparql.example.org/well-known> .\n',
  },
  '/data/home.ttl': { type: 'text/turtle', body: '<http://example.org/home> <http://purl.org/dc/terms/title> "Home" .\n' },
};

/** Starts the site; `delayMs` slows every response (to make a crawl interruptible in tests). */
export async function startTinySite(delayMs = 0): Promise<TinySite> {
  const hits = new Map<string, number>();
  const times: number[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path !== '/robots.txt') times.push(performance.now());
    const p = PAGES[path];
    const respond = () => {
      if (!p) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const base = `http://${req.headers.host}`;
      res.writeHead(p.status ?? 200, { 'content-type': p.type, ...(p.headers ?? {}) }).end(p.body.replaceAll('{BASE}', base));
    };
    if (delayMs > 0) setTimeout(respond, delayMs);
    else respond();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    times,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
