import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { dumpLinks, looksLikeSitemap, originProbes, parseLinkHeader, voidAccessPoints } from '../../src/crawl/discovery.ts';

const df = new DataFactory();

describe('parseLinkHeader (RFC 8288)', () => {
  it('keeps data relations with their type and title, resolves relative URIs', () => {
    const links = parseLinkHeader(
      '</data/alice.ttl>; rel="alternate"; type="text/turtle"; title="Turtle, the RDF", <https://x.org/style.css>; rel=stylesheet, <meta.rdf>; rel="describedby"; type=application/rdf+xml',
      'http://example.org/people/alice',
    );
    expect(links).toEqual([
      { url: 'http://example.org/data/alice.ttl', tag: 'header', anchor: '', title: 'Turtle, the RDF', type: 'text/turtle', rel: 'alternate', context: '' },
      { url: 'http://example.org/people/meta.rdf', tag: 'header', anchor: '', title: '', type: 'application/rdf+xml', rel: 'describedby', context: '' },
    ]);
  });

  it('ignores absent, empty and malformed headers', () => {
    expect(parseLinkHeader(undefined, 'http://e.org/')).toEqual([]);
    expect(parseLinkHeader('', 'http://e.org/')).toEqual([]);
    expect(parseLinkHeader('garbage; rel=alternate', 'http://e.org/')).toEqual([]);
    expect(parseLinkHeader('<javascript:alert(1)>; rel=alternate', 'http://e.org/')).toEqual([]);
  });
});

describe('origin probes', () => {
  it('uses the sitemaps robots.txt names, and probes /sitemap.xml and /.well-known/void only when asked', () => {
    expect(originProbes('http://e.org/start', ['http://e.org/maps/a.xml'], false).map((l) => [l.url, l.rel])).toEqual([['http://e.org/maps/a.xml', 'sitemap']]);
    expect(originProbes('http://e.org/start', [], false)).toEqual([]);
    expect(originProbes('http://e.org/start', [], true).map((l) => [l.url, l.rel])).toEqual([
      ['http://e.org/sitemap.xml', 'sitemap'],
      ['http://e.org/.well-known/void', 'void'],
    ]);
  });

  it('recognises sitemaps and sitemap indexes by their root element', () => {
    expect(looksLikeSitemap('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    expect(looksLikeSitemap('<sm:sitemapindex xmlns:sm="…">')).toBe(true);
    expect(looksLikeSitemap('<rdf:RDF>')).toBe(false);
  });
});

describe('VoID access points', () => {
  it('finds data dumps and SPARQL endpoints, once each', () => {
    const ds = df.namedNode('http://e.org/void#ds');
    const quads = [
      df.quad(ds, df.namedNode('http://rdfs.org/ns/void#dataDump'), df.namedNode('http://e.org/dump.nt')),
      df.quad(ds, df.namedNode('http://rdfs.org/ns/void#dataDump'), df.namedNode('http://e.org/dump.nt')),
      df.quad(ds, df.namedNode('http://rdfs.org/ns/void#sparqlEndpoint'), df.namedNode('http://e.org/sparql')),
      df.quad(ds, df.namedNode('http://rdfs.org/ns/void#sparqlEndpoint'), df.literal('not a node')),
    ];
    const found = voidAccessPoints(quads);
    expect(found).toEqual({ dumps: ['http://e.org/dump.nt'], endpoints: ['http://e.org/sparql'] });
    expect(dumpLinks(found.dumps, 'http://e.org/')[0]).toMatchObject({ url: 'http://e.org/dump.nt', tag: 'rdf', rel: 'http://rdfs.org/ns/void#dataDump' });
  });
});
