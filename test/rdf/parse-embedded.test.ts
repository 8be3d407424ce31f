// parseEmbedded: JSON-LD scripts, RDFa and Microdata in HTML, broken markup, per-block failures.
import { describe, expect, it } from 'vitest';
import { parseDocument, parseEmbedded } from '../../src/rdf/index.ts';
import { fixture } from './helpers.ts';

const PAGE = 'http://people.example.org/page';
const triples = (doc: { quads: Array<{ subject: { value: string }; predicate: { value: string }; object: { value: string } }> }) =>
  doc.quads.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`);

describe('parseEmbedded', () => {
  it('keeps the good JSON-LD scripts of a page and reports the broken one with its line', async () => {
    const doc = await parseEmbedded(fixture('page-jsonld.html'), PAGE);
    expect(doc.error).toBeNull();
    expect(doc.embedded).toEqual(['jsonld']);
    expect(doc.quads).toHaveLength(8);
    expect(triples(doc)).toContain('http://people.example.org/page#me http://schema.org/name Frank');
    expect(doc.problems).toHaveLength(1);
    expect(doc.problems![0]).toMatchObject({ code: 'RDFSCOUT_PARSE_FAILED', source: 'jsonld#3', line: 10 });
  });

  it('gives each script block its own blank nodes', async () => {
    const doc = await parseEmbedded(fixture('page-jsonld.html'), PAGE);
    const blanks = doc.quads.filter((q) => q.subject.termType === 'BlankNode');
    const grace = blanks.find((q) => q.object.value === 'Grace')!.subject.value;
    const webpage = blanks.find((q) => q.object.value === 'http://schema.org/WebPage')!.subject.value;
    const aboutFrank = blanks.find((q) => q.object.value === 'Frank')!.subject.value;
    expect(new Set([grace, webpage, aboutFrank]).size).toBe(3);
  });

  it('reads RDFa from markup that never closes its tags', async () => {
    const doc = await parseEmbedded(fixture('page-rdfa.html'), PAGE);
    expect(doc.error).toBeNull();
    expect(doc.embedded).toEqual(['rdfa']);
    const t = triples(doc);
    expect(t).toContain('http://people.example.org/page#heidi http://www.w3.org/1999/02/22-rdf-syntax-ns#type http://schema.org/Person');
    expect(t).toContain('http://people.example.org/page#heidi http://schema.org/jobTitle Engineer');
    expect(t).toContain('http://people.example.org/page#acme http://schema.org/name ACME');
  });

  it('reads Microdata, nested items included', async () => {
    const doc = await parseEmbedded(fixture('page-microdata.html'), PAGE);
    expect(doc.embedded).toEqual(['microdata']);
    expect(doc.quads).toHaveLength(6);
    expect(triples(doc)).toContain('http://people.example.org/ivan#me http://schema.org/url http://ivan.example.org/');
  });

  it('honours <base href> for JSON-LD, and reads Turtle scripts', async () => {
    const html = `<html><head><base href="http://elsewhere.example/dir/">
      <script type="application/ld+json">{"@id": "x", "http://schema.org/name": "X"}</script>
      <script type="text/turtle"><![CDATA[ <y> <http://schema.org/name> "Y" . ]]></script>`;
    const doc = await parseEmbedded(html, PAGE);
    expect(doc.embedded?.sort()).toEqual(['jsonld', 'turtle']);
    expect(triples(doc)).toEqual(['http://elsewhere.example/dir/x http://schema.org/name X', 'http://elsewhere.example/dir/y http://schema.org/name Y']);
  });

  it('a page with no embedded RDF yields nothing and no problem', async () => {
    const doc = await parseEmbedded('<html><body><p>just <a href="/x">text</a> <div><span>unclosed', PAGE);
    expect(doc).toMatchObject({ quads: [], error: null, partial: [], embedded: [], problems: [] });
  });

  it('survives a never-closed script and comments around JSON-LD', async () => {
    const html = '<p>x<script type="application/ld+json"><!-- {"@id": "http://a.org/z", "http://a.org/p": "v"} -->';
    const doc = await parseEmbedded(html, PAGE);
    expect(triples(doc)).toEqual(['http://a.org/z http://a.org/p v']);
  });

  it('the page quad limit fails the whole page, keeping everything as partial', async () => {
    const doc = await parseDocument(fixture('page-jsonld.html'), { kind: 'html' }, PAGE, { maxQuads: 5 });
    expect(doc.quads).toEqual([]);
    expect(doc.error?.message).toMatch(/more than 5 quads/);
    expect(doc.partial.length).toBe(5);
  });
});
