import { describe, expect, it } from 'vitest';
import {
  buildConceptSets,
  defaultConceptSets,
  isHtmlContentType,
  isRdfContentType,
  mediaTypeOf,
  readConceptLists,
  tokenize,
} from '../../src/relevance/concepts.ts';
import { parseUrlParts } from '../../src/relevance/url-parts.ts';

describe('concept sets from data/concepts', () => {
  const c = defaultConceptSets();

  it('holds the thesis examples of each set (thesis §4)', () => {
    for (const t of ['text/n3', 'application/rdf+xml', 'text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig', 'application/ld+json']) {
      expect(c.rdfContentTypes.has(t)).toBe(true);
    }
    for (const e of ['rdf', 'owl', 'ttl', 'n3', 'nt', 'nq', 'trig', 'jsonld']) expect(c.rdfExtensions.has(e)).toBe(true);
    const words = c.rdfConcepts.map((tokens) => tokens.join(' '));
    for (const w of ['rdf', 'foaf', 'triple', 'json ld']) expect(words).toContain(w);
    expect(words).not.toContain('sparql');
    for (const e of ['html', 'htm', 'php', 'asp', 'jsp']) expect(c.htmlExtensions.has(e)).toBe(true);
    for (const e of ['jpg', 'pdf', 'txt', 'zip', 'css', 'js', 'mp3']) expect(c.nonSemanticExtensions.has(e)).toBe(true);
    expect(c.nonSemanticExtensions.has('xml')).toBe(false);
  });

  it('every data file documents itself with a _comment', () => {
    const lists = readConceptLists();
    expect(lists.rdfConcepts.length).toBeGreaterThan(3);
  });

  it('normalises case and leading dots when building sets', () => {
    const sets = buildConceptSets({
      rdfContentTypes: [' Text/Turtle '],
      rdfConcepts: ['Linked Data', 'RDF'],
      rdfExtensions: ['.TTL'],
      htmlExtensions: ['.Html'],
      nonSemanticExtensions: ['JPG'],
    });
    expect([...sets.rdfContentTypes]).toEqual(['text/turtle']);
    expect(sets.rdfConcepts).toEqual([['linked', 'data'], ['rdf']]);
    expect(sets.rdfExtensions.has('ttl')).toBe(true);
    expect(sets.htmlExtensions.has('html')).toBe(true);
    expect(sets.nonSemanticExtensions.has('jpg')).toBe(true);
  });

  it('rejects a missing concept folder with a helpful error', () => {
    expect(() => readConceptLists('/nonexistent-dir')).toThrow(/data\/ folder/);
  });
});

describe('tokenize', () => {
  it('splits on non-alphanumerics and camelCase, lower-cased', () => {
    expect(tokenize('FOAF-profile of myRdf_file (N3)')).toEqual(['foaf', 'profile', 'of', 'my', 'rdf', 'file', 'n3']);
    expect(tokenize('')).toEqual([]);
    expect(tokenize('wordfile birdfeeder')).toEqual(['wordfile', 'birdfeeder']);
  });
});

describe('media types', () => {
  const c = defaultConceptSets();
  it('strips parameters and compares case-insensitively', () => {
    expect(mediaTypeOf('Text/Turtle; charset=UTF-8')).toBe('text/turtle');
    expect(mediaTypeOf(null)).toBeNull();
    expect(mediaTypeOf('  ')).toBeNull();
    expect(isRdfContentType('application/RDF+XML;q=1', c)).toBe(true);
    expect(isRdfContentType('application/xml', c)).toBe(false);
    expect(isHtmlContentType('text/html; charset=utf-8')).toBe(true);
    expect(isHtmlContentType('application/xhtml+xml')).toBe(true);
    expect(isHtmlContentType('text/plain')).toBe(false);
  });
});

describe('parseUrlParts', () => {
  it('splits host, segments (file name included), query, extension', () => {
    expect(parseUrlParts('http://Ex.org:8080/a/b/c.HTML?x=1#f')).toEqual({ host: 'ex.org:8080', segments: ['a', 'b', 'c.HTML'], query: 'x=1', extension: 'html' });
  });
  it('treats `/` as the null path and a trailing slash as a directory without extension', () => {
    expect(parseUrlParts('http://ex.org/')).toEqual({ host: 'ex.org', segments: [], query: null, extension: null });
    expect(parseUrlParts('http://ex.org/v1.2/')).toMatchObject({ segments: ['v1.2'], extension: null });
    expect(parseUrlParts('http://ex.org/?')).toMatchObject({ query: null });
  });
  it('yields no extension for dot files, trailing dots or non-alphanumeric tails', () => {
    expect(parseUrlParts('http://ex.org/.htaccess').extension).toBeNull();
    expect(parseUrlParts('http://ex.org/file.').extension).toBeNull();
    expect(parseUrlParts('http://ex.org/a.b%20c').extension).toBeNull();
    expect(parseUrlParts('http://ex.org/dump.tar.gz').extension).toBe('gz');
  });
  it('never throws on a bad URL', () => {
    expect(parseUrlParts('not a url')).toEqual({ host: '', segments: [], query: null, extension: null });
  });
});
