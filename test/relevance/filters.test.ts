import { describe, expect, it } from 'vitest';
import { defaultConceptSets } from '../../src/relevance/concepts.ts';
import { isNonSemanticLink, passesCtf, passesCtfOrExf } from '../../src/relevance/filters.ts';

const c = defaultConceptSets();

describe('link filter NF (thesis §7)', () => {
  it('drops known non-semantic extensions, case-insensitively', () => {
    for (const url of ['http://a.org/p.jpg', 'http://a.org/doc.PDF', 'http://a.org/r.txt?x=1', 'http://a.org/a.zip', 'http://a.org/s.css', 'http://a.org/s.js', 'http://a.org/m.mp3']) {
      expect(isNonSemanticLink(url, c), url).toBe(true);
    }
  });
  it('keeps RDF, HTML, XML, JSON and extension-less links', () => {
    for (const url of ['http://a.org/a.rdf', 'http://a.org/a.html', 'http://a.org/a.xml', 'http://a.org/a.json', 'http://a.org/a/', 'http://a.org/jpg']) {
      expect(isNonSemanticLink(url, c), url).toBe(false);
    }
  });
});

describe('fetch filter CTF (thesis §7)', () => {
  it('reads HTML and RDF content types', () => {
    expect(passesCtf('text/html; charset=utf-8', 'H', c)).toBe(true);
    expect(passesCtf('text/turtle', 'H', c)).toBe(true);
    expect(passesCtf('application/rdf+xml', null, c)).toBe(true);
  });
  it('skips other types unless the link was predicted R', () => {
    expect(passesCtf('application/xml', 'HR', c)).toBe(false);
    expect(passesCtf('image/png', null, c)).toBe(false);
    expect(passesCtf(null, 'H', c)).toBe(false);
    expect(passesCtf('application/xml', 'R', c)).toBe(true);
    expect(passesCtf(null, 'R', c)).toBe(true);
  });
});

describe("BC's fetch filters CTF and EXF (thesis §10)", () => {
  it('reads HTML and RDF content types whatever the URL', () => {
    expect(passesCtfOrExf('http://a.org/x.xml', 'text/html', c)).toBe(true);
    expect(passesCtfOrExf('http://a.org/x', 'text/n3', c)).toBe(true);
  });
  it('reads a known RDF extension whatever the content type', () => {
    expect(passesCtfOrExf('http://a.org/x.rdf', 'application/xml', c)).toBe(true);
    expect(passesCtfOrExf('http://a.org/x.ttl', 'text/plain', c)).toBe(true);
  });
  it('misses RDF served as application/xml from a .xml URL (thesis §11, PLD 3)', () => {
    expect(passesCtfOrExf('http://a.org/foaf/x.xml', 'application/xml', c)).toBe(false);
    expect(passesCtfOrExf('http://a.org/x', null, c)).toBe(false);
  });
});
